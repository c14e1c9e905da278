/**
 * jscodeshift transform: migrates legacy server→client requests (elicitation, sampling,
 * roots) awaited in MCP tool, prompt and resource handlers to 2026-07-28 Multi Round-Trip
 * Requests. Usable with the stock runner:
 *
 *   npx jscodeshift -t node_modules/mrtr-codemod/dist/transforms/mrtr-handlers.js --parser=tsx src/
 *
 * It is a thin adapter over the same pipeline the mrtr-codemod CLI runs (src/transform.ts):
 * sites it cannot migrate get an `@mrtr-todo` comment, and each is reported through
 * jscodeshift's `report`. Migrated handlers import their helpers from the request-state
 * module, `mrtr-request-state.<ext>` beside each file unless `--state-module=PATH` names the
 * module (or a folder for it). This transform writes only the files it is given: when that
 * module does not exist yet, it says so (`npx mrtr-codemod migrate <dir>` writes a missing
 * module that migrated files import). A file on the v1 SDK is refused: the official
 * v1-to-v2 codemod must move it to v2 first (the CLI runs both).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { API, FileInfo } from 'jscodeshift';
import { carriedDeclarationsFor } from '../src/analyse/carried-declarations.ts';
import type { TypeScript } from '../src/analyse/load-typescript.ts';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { isV1Source } from '../src/engine/v1-upgrade.ts';
import { STATE_MODULE_NAME } from '../src/analyse/module-imports.ts';
import { transformWithTypes } from '../src/transform.ts';

export const parser = 'tsx';

// One checker per worker process, shared by the files it transforms. Under the stock runner
// this module was compiled by jscodeshift's @babel/register hook, which stays installed and
// would also try to recompile TypeScript's 9 MB bundle as it is required; by the time the
// checker is needed our own code is loaded, so the hook is released first.
const types = new TsTypeFactsProvider(async () => {
  if (typeof require === 'function') {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- jscodeshift's runner loads this module as CommonJS
      (require('@babel/register') as { revert(): void }).revert();
    } catch {
      // Not under jscodeshift's runner: nothing to release.
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
    return require('typescript') as TypeScript;
  }
  return (await import('../src/analyse/load-typescript.ts')).loadTypeScript();
}, loadCarried);

/** The SDK declarations the checker falls back to: under the stock runner, found from this module's folder (dist/transforms, beside dist/analyse). */
async function loadCarried() {
  if (typeof require === 'function') return carriedDeclarationsFor(path.join(__dirname, '..', 'analyse'));
  return (await import('../src/analyse/load-typescript.ts')).loadCarriedDeclarations();
}

interface Options {
  /** `--sampling=flag`, as on the CLI. */
  sampling?: string;
  /** `--idempotent=NAME` (comma-separated, or repeated), as on the CLI. */
  idempotent?: string | string[];
  /** `--state-module=PATH`: the request-state module (a file, or a folder to hold it), relative to the working directory. */
  stateModule?: string;
  'state-module'?: string;
}

export default async function transformer(file: FileInfo, api: API, options: Options = {}): Promise<string | undefined> {
  if (isV1Source(file.source)) {
    api.report(
      `${file.path}: left as it is: it imports the v1 SDK (@modelcontextprotocol/sdk), which has no multi round-trip requests. Run \`npx mrtr-codemod migrate ${file.path}\` (it runs the official v1-to-v2 codemod first), or upgrade it with @modelcontextprotocol/codemod (v1-to-v2) and run this transform again.`,
    );
    return undefined;
  }
  const sampling = options.sampling === 'flag' ? 'flag' : 'migrate';
  const stateModule = stateModulePath(file.path, options.stateModule ?? options['state-module']);
  const idempotent = [options.idempotent ?? []]
    .flat()
    .flatMap((names) => String(names).split(','))
    .filter(Boolean);
  const { output, changed, plan } = await transformWithTypes(file.source, file.path, types, {
    sampling,
    ...(idempotent.length > 0 ? { idempotent } : {}),
    ...(stateModule ? { stateModule: { path: stateModule } } : {}),
  });
  for (const site of plan.sites) {
    if (site.status === 'marked') api.report(`${file.path}:${site.line}:${site.column} @mrtr-todo(${site.code}) ${site.reason}`);
  }
  if (plan.stateSpecifier !== undefined && !moduleExists(path.dirname(file.path), plan.stateSpecifier)) {
    api.report(
      `${file.path}: imports the request-state module ${plan.stateSpecifier}, which does not exist yet: run \`npx mrtr-codemod migrate ${path.dirname(file.path) || '.'}\` to write it (it writes a missing module that migrated files import), or pass --state-module=PATH to name one.`,
    );
  }
  return changed ? output : undefined;
}

/** The module's path for a file: `--state-module` as a file, or in the folder it names; undefined for the default (beside the file). */
function stateModulePath(fileName: string, option: string | undefined): string | undefined {
  if (!option) return undefined;
  const target = path.resolve(option);
  const isFolder = option.endsWith('/') || option.endsWith(path.sep) || (existsSync(target) && statSync(target).isDirectory());
  if (!isFolder) return target;
  const ext = /\.(c|m)?tsx?$/.test(fileName) ? '.ts' : path.extname(fileName);
  return path.join(target, `${STATE_MODULE_NAME}${ext}`);
}

/** Whether the module a specifier names exists (a TypeScript file's `./x.js` stands for `./x.ts`). */
function moduleExists(dir: string, specifier: string): boolean {
  const base = path.resolve(dir, specifier);
  return [base, base.replace(/\.(m|c)?js$/, (ext) => ext.replace('js', 'ts')), `${base}.ts`, `${base}.js`].some((f) => existsSync(f));
}
