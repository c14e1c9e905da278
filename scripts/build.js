// `npm run build`: dist/ afresh, src/ compiled into it by tsc (tsconfig.build.json), and the
// modules kept as plain CommonJS (src/**/*.cjs, with their declarations) copied beside the
// output. Also run as `prepack` (npm pack and publish) and as `prepare` (npm install from git,
// which runs only prepare; and npm ci in a checkout, so that bin/ runs).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// npm pack and publish run prepack, then prepare: build once.
if (process.env.npm_lifecycle_event === 'prepare' && ['pack', 'publish'].includes(process.env.npm_command ?? '')) process.exit(0);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
} catch (error) {
  // tsc still writes the JavaScript when types do not check. In a checkout (npm ci runs
  // prepare) a type error must not stop the install: npm test reports it. Elsewhere it fails.
  if (process.env.npm_lifecycle_event !== 'prepare' || !existsSync(path.join(dist, 'cli', 'main.js'))) throw error;
  process.stderr.write('mrtr-codemod: dist/ was built, but the types do not check (above); npm test reports it.\n');
}
cpSync(path.join(root, 'src'), dist, { recursive: true, filter: (file) => statSync(file).isDirectory() || /\.(cjs|d\.cts)$/.test(file) });
