// `node scripts/code-cache.js`, run by the build after the bundle (scripts/bundle-cli.js): the V8
// code cache of dist/cli/main.bundle.cjs, which the launcher compiles the bundle with
// (src/cli/bundle-loader.ts). The bundle is loaded as the launcher loads it and run over the
// bundled example and the fixtures (`check --no-types`, then `migrate --dry-run --no-types`:
// nothing is written), so that the cache holds the functions a run compiles, not only the
// bundle's top level. Made with the launcher's V8 flags: a cache made with others is rejected,
// and the type checker's worker sets its own (process-wide), hence `--no-types`.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist', 'cli', 'main.bundle.cjs');
const { cachePathOf, codeCacheOf, loadBundle } = await import(pathToFileURL(path.join(root, 'dist', 'cli', 'bundle-loader.js')).href);
rmSync(cachePathOf(bundle), { force: true });
const loaded = loadBundle(bundle);
const inputs = ['examples/legacy-server', 'fixtures'].filter((input) => existsSync(path.join(root, input)));
process.chdir(root);
// The runs' reports are not wanted here (stdio is ignored by the build, this keeps a manual run quiet too).
process.stdout.write = () => true;
for (const input of inputs) {
  await loaded.exports.cli(['check', '--no-types', input]);
  await loaded.exports.cli(['migrate', '--dry-run', '--no-types', input]);
}
process.exitCode = 0;
writeFileSync(cachePathOf(bundle), codeCacheOf(loaded));
