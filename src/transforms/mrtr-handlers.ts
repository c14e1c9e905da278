/**
 * jscodeshift transform: migrates legacy server→client requests (elicitation, sampling,
 * roots) awaited in MCP tool, prompt and resource handlers to 2026-07-28 Multi Round-Trip
 * Requests. Usable with the stock runner:
 *
 *   npx jscodeshift -t node_modules/mrtr-codemod/dist/transforms/mrtr-handlers.js --parser=tsx src/
 *
 * It is a thin adapter over the same pipeline the mrtr-codemod CLI runs (src/transform.ts):
 * sites it cannot migrate get an `@mrtr-todo` comment, and each is reported through
 * jscodeshift's `report`.
 */
import type { API, FileInfo } from 'jscodeshift';
import { TsTypeFactsProvider, type TypeScript } from '../analyse/ts-type-facts.ts';
import { transformWithTypes } from '../transform.ts';

export const parser = 'tsx';

// One checker per worker process, shared by the files it transforms. Under the stock runner
// this module was compiled by jscodeshift's @babel/register hook, which stays installed and
// would also try to recompile TypeScript's 9 MB bundle as it is required; by the time the
// checker is needed our own code is loaded, so the hook is released first.
const types = new TsTypeFactsProvider(async () => {
  if (typeof require === 'function') {
    try {
      (require('@babel/register') as { revert(): void }).revert();
    } catch {
      // Not under jscodeshift's runner: nothing to release.
    }
    return require('typescript') as TypeScript;
  }
  return (await import('../analyse/load-typescript.ts')).loadTypeScript();
});

export default async function transformer(file: FileInfo, api: API, options: { sampling?: string } = {}): Promise<string | undefined> {
  // `--sampling=flag` on the jscodeshift command line, as on ours.
  const sampling = options.sampling === 'flag' ? 'flag' : 'migrate';
  const { output, changed, plan } = await transformWithTypes(file.source, file.path, types, { sampling });
  for (const site of plan.sites) {
    if (site.status === 'marked') api.report(`${file.path}:${site.line}:${site.column} @mrtr-todo(${site.code}) ${site.reason}`);
  }
  return changed ? output : undefined;
}
