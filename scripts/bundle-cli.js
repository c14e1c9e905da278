// The command line as one file, dist/cli/main.bundle.cjs (run by bin/mrtr-codemod.js through
// src/cli/bundle-loader.ts): the CLI's modules, yargs and Babel in one CommonJS module (a script,
// so that it can be compiled with a V8 code cache, scripts/code-cache.js). Node's loader costs
// about a millisecond a module (resolve, read, compile), and a `check` loads about 130 of them:
// the bundle starts ~100 ms sooner (bench/README.md). TypeScript, the official v1-to-v2 codemod, jscodeshift and ESLint
// stay outside (loaded only by the runs that need them, as before); so do the checker's thread
// (dist/analyse/type-facts-worker.js) and the programmatic API (dist/index.js).
//
// What a bundled module finds relative to itself stays where it was: `import.meta.url` in a
// module of dist/ becomes that module's own URL (the bundle's own, `__mrtrUrl`, being a script); yargs finds its translations where it is
// installed; and of @babel/types only the two tables the analysis reads (src/analyse/babel.cjs)
// are kept, taken from the installed package at build time.
import { createRequire } from 'node:module';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Writes the bundle; false when esbuild is not installed (the launcher then runs dist/cli/main.js). */
export async function bundleCli(root) {
  const require = createRequire(import.meta.url);
  let esbuild;
  try {
    esbuild = await import(require.resolve('esbuild'));
  } catch {
    return false;
  }
  const dist = path.join(root, 'dist');
  const outfile = path.join(dist, 'cli', 'main.bundle.cjs');
  const definitions = require(require.resolve('@babel/types/lib/definitions/index.js', { paths: [root] }));
  await esbuild.build({
    entryPoints: [path.join(dist, 'cli', 'main.js')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['typescript', '@modelcontextprotocol/codemod', 'jscodeshift', 'eslint'],
    // A CommonJS module has no import.meta: its URL is the bundle's own.
    define: { 'import.meta.url': '__mrtrUrl' },
    banner: {
      js: "const { pathToFileURL: __mrtrPathToFileURL } = require('node:url');\nconst __mrtrUrl = __mrtrPathToFileURL(__filename).href;\nconst __mrtrRequire = require;",
    },
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-locations',
        setup(build) {
          build.onLoad({ filter: /\.(js|mjs)$/ }, async (args) => {
            const inDist = args.path.startsWith(dist + path.sep);
            const yargsShim = args.path.endsWith(path.join('yargs', 'lib', 'platform-shims', 'esm.mjs'));
            if (!inDist && !yargsShim) return undefined;
            const text = await readFile(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return undefined;
            const own = inDist
              ? `new URL(${JSON.stringify(path.relative(path.dirname(outfile), args.path).split(path.sep).join('/'))}, import.meta.url).href`
              : "new URL('lib/platform-shims/esm.mjs', __mrtrPathToFileURL(__mrtrRequire.resolve('yargs/package.json'))).href";
            return { contents: text.replaceAll('import.meta.url', own), loader: 'js' };
          });
          build.onResolve({ filter: /^@babel\/types\/lib\/definitions\/index\.js$/ }, () => ({ path: 'babel-definitions', namespace: 'kept' }));
          build.onLoad({ filter: /.*/, namespace: 'kept' }, () => ({
            contents: `module.exports = ${JSON.stringify({ VISITOR_KEYS: definitions.VISITOR_KEYS, FLIPPED_ALIAS_KEYS: { TSType: definitions.FLIPPED_ALIAS_KEYS.TSType } })};`,
            loader: 'js',
          }));
        },
      },
    ],
  });
  await writeFile(outfile, withImportsThroughLoader(require, await readFile(outfile, 'utf8')));
  return true;
}

/**
 * The bundle's dynamic imports (`import('@modelcontextprotocol/codemod')`) made through
 * `__mrtrImport` when the loader passes it in (src/cli/bundle-loader.ts): code compiled by
 * vm.Script cannot import() on its own without Node's experimental loader option. Loaded by
 * Node's require (Node 22, whose compile cache serves it), the bundle imports as usual.
 */
function withImportsThroughLoader(require, text) {
  const { parse } = require('@babel/parser');
  const calls = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'CallExpression' && node.callee.type === 'Import') calls.push(node.callee);
    for (const key of Object.keys(node)) {
      if (key === 'loc') continue;
      const value = node[key];
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') visit(value);
    }
  };
  visit(parse(text, { sourceType: 'script', allowReturnOutsideFunction: true }).program);
  let out = text;
  const importer = '(typeof __mrtrImport === "function" ? __mrtrImport : (specifier) => import(specifier))';
  for (const callee of calls.sort((a, b) => b.start - a.start)) out = `${out.slice(0, callee.start)}${importer}${out.slice(callee.end)}`;
  return out;
}
