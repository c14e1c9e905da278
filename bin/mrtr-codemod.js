#!/usr/bin/env node
// Launcher: runs the compiled codemod (dist/, built by `npm run build`; `npm pack` builds it).
// Node's compile cache, where this Node has one (22.1+), makes later starts quicker.
import { existsSync } from 'node:fs';
import module from 'node:module';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('mrtr-codemod: dist/ is missing; in a checkout of the source, run `npm run build` first.\n');
  process.exit(2);
}
module.enableCompileCache?.();
const { cli } = await import(main.href);
await cli(process.argv.slice(2));
