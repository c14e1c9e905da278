#!/usr/bin/env node
// Launcher: the codemod ships as TypeScript and runs under tsx. Our own tsconfig is used
// (not the one in the directory being migrated), so a user's compiler settings cannot change
// how the codemod itself is compiled.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
register({ tsconfig: existsSync(tsconfig) ? tsconfig : false });

const { cli } = await import(new URL('../src/cli/main.ts', import.meta.url).href);
await cli(process.argv.slice(2));
