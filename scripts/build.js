// `npm run build`: dist/ afresh, src/ compiled into it by tsc (tsconfig.build.json), the target
// SDK's declarations copied into dist/sdk-types (src/analyse/carried-declarations.ts), the jscodeshift
// transforms of transforms/ into dist/transforms (scripts/build-transforms.js), the
// modules kept as plain CommonJS (src/**/*.cjs, with their declarations) copied beside the
// output, the help texts yargs prints kept in dist/cli/help-texts.json (src/cli/quick-help.ts:
// `--help` and `--version` then need not load the CLI), and the request-state module's
// JavaScript forms in dist/rewrite/state-module-bodies.json (src/rewrite/state-module.ts), and
// the command line bundled into dist/cli/main.bundle.cjs (scripts/bundle-cli.js) with its V8 code
// cache (scripts/code-cache.js). Also run as
// `prepack` (npm pack and publish) and as `prepare` (npm install from git, which runs only
// prepare; and npm ci in a checkout, so that bin/ runs).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
// The target SDK's declarations, which the checker falls back to where a project has not
// installed it (src/analyse/carried-declarations.ts), from this project's devDependencies.
const { carryDeclarations } = await import(pathToFileURL(path.join(dist, 'analyse', 'carried-declarations.js')).href);
try {
  carryDeclarations(createRequire(import.meta.url)('typescript'), path.join(root, 'node_modules'), path.join(dist, 'sdk-types'));
} catch (error) {
  // A checkout installed without its devDependencies still builds (as for tsc above); a package must carry them.
  if (process.env.npm_lifecycle_event !== 'prepare') throw error;
  process.stderr.write(`mrtr-codemod: the SDK's declarations were not copied (${error.message}); the checker reads only what a project installs.\n`);
}
// The jscodeshift transforms, from transforms/ at the top of the project (scripts/build-transforms.js).
const { buildTransforms } = await import('./build-transforms.js');
buildTransforms(root);

// Printed by the CLI just built, in English (the texts are used only where yargs would print English).
process.env.LC_ALL = 'en_US.UTF-8';
const { main } = await import(pathToFileURL(path.join(dist, 'cli', 'main.js')).href);
const { renderHelpTexts } = await import(pathToFileURL(path.join(dist, 'cli', 'quick-help.js')).href);
const { packageVersion } = await import(pathToFileURL(path.join(dist, 'package-version.js')).href);
writeFileSync(path.join(dist, 'cli', 'help-texts.json'), `${JSON.stringify(await renderHelpTexts(main, packageVersion()), null, 1)}\n`);
// The request-state module's JavaScript forms, so that a run need not load TypeScript to write one.
const { transpiledBodies } = await import(pathToFileURL(path.join(dist, 'rewrite', 'state-module.js')).href);
writeFileSync(path.join(dist, 'rewrite', 'state-module-bodies.json'), `${JSON.stringify(transpiledBodies(), null, 1)}\n`);
// The command line as one file (scripts/bundle-cli.js), which the launcher runs.
const { bundleCli } = await import('./bundle-cli.js');
if (await bundleCli(root)) {
  // Its V8 code cache (scripts/code-cache.js), made in a process of its own with the launcher's
  // flags. Only a speed-up: without it the launcher compiles the bundle as usual.
  try {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'code-cache.js')], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    rmSync(path.join(dist, 'cli', 'main.bundle.cache'), { force: true });
    process.stderr.write('mrtr-codemod: the code cache of the bundled CLI could not be made (above); the CLI starts a little more slowly.\n');
  }
} else {
  process.stderr.write(
    'mrtr-codemod: esbuild is not installed, so the CLI is not bundled; bin/mrtr-codemod.js runs dist/cli/main.js (it starts more slowly).\n',
  );
}
