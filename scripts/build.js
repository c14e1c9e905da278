// `npm run build` (and `npm pack`, through prepack): dist/ afresh, src/ compiled into it by tsc
// (tsconfig.build.json), and the modules kept as plain CommonJS (src/**/*.cjs, with their
// declarations) copied beside the output.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(path.join(root, 'src'), dist, { recursive: true, filter: (file) => statSync(file).isDirectory() || /\.(cjs|d\.cts)$/.test(file) });
