#!/usr/bin/env node
// Launcher: runs the compiled codemod (dist/, built by `npm run build`; `npm pack` builds it).
// `--help` and `--version` are answered from the texts the build kept, where they are what the
// CLI would print (src/cli/quick-help.ts), without loading it. Node's compile cache, where this
// Node has one (22.1+), makes later starts quicker.
import { existsSync } from 'node:fs';
import module from 'node:module';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('mrtr-codemod: dist/ is missing; in a checkout of the source, run `npm run build` first.\n');
  process.exit(2);
}
const argv = process.argv.slice(2);
const asksHelp = argv.length <= 2 && argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version');
const { keptHelpTexts, quickAnswer } = asksHelp ? await import('../dist/cli/quick-help.js') : {};
const quick = quickAnswer?.(argv, process.env, process.stdout.columns, keptHelpTexts());
if (quick !== undefined) {
  process.stdout.write(quick);
} else {
  module.enableCompileCache?.();
  const { cli } = await import(main.href);
  await cli(argv);
}
