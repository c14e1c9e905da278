#!/usr/bin/env node
// Launcher: runs the compiled codemod (dist/, built by `npm run build`; `npm pack` builds it).
// `--help` and `--version` are answered from the texts the build kept, where they are what the
// CLI would print (src/cli/quick-help.ts), without loading it. Anything else runs the CLI
// bundled into one file by the build (dist/cli/main.bundle.cjs), compiled with the V8 code cache
// the build made for it (src/cli/bundle-loader.ts), or its modules when there is no bundle.
// Node's compile cache, where this Node has one (22.1+), makes later starts of those quicker.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const modules = new URL('../dist/cli/main.js', import.meta.url);
// The CLI as one file (scripts/bundle-cli.js): it starts sooner than its ~130 modules.
const bundle = new URL('../dist/cli/main.bundle.cjs', import.meta.url);
if (!existsSync(modules)) {
  process.stderr.write('mrtr-codemod: dist/ is missing; in a checkout of the source, run `npm run build` first.\n');
  process.exit(2);
}
const argv = process.argv.slice(2);
const asksHelp = argv.length <= 2 && argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '-v');
const { keptHelpTexts, quickAnswer } = asksHelp ? await import('../dist/cli/quick-help.js') : {};
const quick = quickAnswer?.(argv, process.env, process.stdout.columns, keptHelpTexts());
if (quick !== undefined) {
  process.stdout.write(quick);
} else {
  module.enableCompileCache?.();
  // V8 moves objects made where most survive into the old generation from the start; a run's
  // syntax trees live only while their file is handled, and so promoted they stayed until a
  // full collection: a check of 10,000 files held ~50 MB more at its peak (bench/README.md).
  setFlagsFromString('--no-allocation-site-pretenuring');
  await (await loadCli()).cli(argv);
}

/**
 * The bundle: where Node has a compile cache (22.1+), loaded as a CommonJS module (Node caches
 * its compiled code after the first run); else compiled with the code cache the build made for
 * it (dist/cli/bundle-loader.js). The modules when there is no bundle.
 */
async function loadCli() {
  if (!existsSync(bundle)) return import(modules.href);
  if (module.enableCompileCache) return module.createRequire(import.meta.url)(fileURLToPath(bundle));
  const { loadBundle } = await import('../dist/cli/bundle-loader.js');
  return loadBundle(fileURLToPath(bundle)).exports;
}
