/**
 * A real published v1 server for the real-world check in test/server-everything.test.ts:
 * `@modelcontextprotocol/server-everything` (compiled ESM JavaScript on `@modelcontextprotocol/sdk`
 * 1.x), copied twice into a scratch folder inside the project, one copy left as published (the
 * original) and one run through the whole pipeline (the migrated copy).
 *
 * The "pack" is the installed package folder (`files: ["dist"]` plus package.json and README):
 * npm extracted it from the registry tarball whose sha512 `package-lock.json` pins, so it is the
 * published pack byte for byte. Copying it needs neither the npm CLI nor its cache (an `npm pack`
 * in a test spawns npm, costs a second or more and depends on a warm cache or the network).
 *
 * The scratch folder lives under `<project>/.tmp/` (git-ignored) so that both copies resolve
 * their bare imports against the project's node_modules: `@modelcontextprotocol/sdk` 1.x for the
 * original, `@modelcontextprotocol/server` 2.x (and `@modelcontextprotocol/core`, where the official
 * codemod sends the spec `*Schema` values) for the migrated copy, and the zod, express, cors and
 * jszip the package's own install brought.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TsTypeFactsProvider } from '../../src/analyse/ts-type-facts.ts';
import { PREFILTER } from '../../src/analyse/sdk-surface.ts';
import { type StateModuleRecord, StateModules, type TransformedFile } from '../../src/engine/state-modules.ts';
import { isV1Source, upgradeV1, type UpgradedFile } from '../../src/engine/v1-upgrade.ts';
import { transformWithTypes, type TransformResult } from '../../src/transform.ts';

export const PACKAGE = '@modelcontextprotocol/server-everything';
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The installed package folder (the package has no `exports` map, so package.json resolves). */
export function packageDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));
}

export type MigratedFile = {
  /** Relative to the package's `dist/`, with `/` separators. */
  rel: string;
  original: string;
  /** Whether the file imports the v1 SDK, i.e. went through the official first pass. */
  v1: boolean;
  /** The official v1-to-v2 pass's result (the original itself when `v1` is false). */
  upgraded: UpgradedFile;
  /** The MRTR pass on `upgraded.text`; `output` is what was written into the migrated copy (with the verifier wired, in the module that builds the server). */
  mrtr: TransformResult;
};

export type EverythingCopies = {
  root: string;
  originalDist: string;
  migratedDist: string;
  files: MigratedFile[];
  /** The request-state module written for the package, and the modules its verifier was wired into. */
  stateModules: StateModuleRecord[];
  /** Wall time of the two passes over the whole package. */
  pipelineMs: number;
};

/** Every `.js` file under `dir`, relative, sorted, with `/` separators (the package has no directory named *.js). */
async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries
    .filter((e) => e.endsWith('.js'))
    .map((e) => e.split(path.sep).join('/'))
    .sort();
}

/**
 * Copies the package twice into `<project>/.tmp/everything-XXXXXX/{original,migrated}` and runs
 * the pipeline on every `.js` file of the migrated copy, the way `migrate` does it: the official
 * v1-to-v2 codemod on the files that import the v1 SDK (one batch, project type inferred from all
 * of them), then the MRTR pass on every file, written back in place, then the request-state
 * module written and its verifier wired where the server is built.
 */
export async function packAndMigrate(): Promise<EverythingCopies> {
  const scratchParent = path.join(PROJECT_ROOT, '.tmp');
  await mkdir(scratchParent, { recursive: true });
  const root = await mkdtemp(path.join(scratchParent, 'everything-'));
  try {
    const source = packageDir();
    await cp(source, path.join(root, 'original'), { recursive: true });
    await cp(source, path.join(root, 'migrated'), { recursive: true });
    const originalDist = path.join(root, 'original', 'dist');
    const migratedDist = path.join(root, 'migrated', 'dist');

    const started = Date.now();
    const rels = await jsFiles(migratedDist);
    const texts = await Promise.all(
      rels.map(async (rel) => ({ path: path.join(migratedDist, rel), text: await readFile(path.join(migratedDist, rel), 'utf8') })),
    );
    // upgradeV1 hands only the isV1Source files to the official codemod and returns the others as they are.
    const upgraded = await upgradeV1(texts, { tmpDir: root });
    // The request-state module's step, as the engine runs it: placed from the candidates
    // (files that mention a legacy request or import the v1 SDK) before they are transformed,
    // written (and the verifier wired where the server is built) after.
    const modules = new StateModules(path.join(root, 'migrated'));
    for (const t of texts) modules.note(t.path, t.text);
    const placements = await modules.place(
      texts.filter((t) => isV1Source(t.text) || PREFILTER.test(t.text)).map((t) => ({ absolutePath: t.path, source: t.text })),
    );
    const types = new TsTypeFactsProvider();
    const files: MigratedFile[] = [];
    const transformed: TransformedFile[] = [];
    for (const [i, rel] of rels.entries()) {
      const up = upgraded[i]!;
      const placement = placements.get(texts[i]!.path);
      const mrtr = await transformWithTypes(up.text, texts[i]!.path, types, placement ? { stateModule: placement.options } : {});
      await writeFile(texts[i]!.path, mrtr.output);
      files.push({ rel, original: texts[i]!.text, v1: isV1Source(texts[i]!.text), upgraded: up, mrtr });
      transformed.push({ absolutePath: texts[i]!.path, importsModule: mrtr.plan.handlers.length > 0, text: mrtr.output, bytes: Buffer.from(mrtr.output) });
    }
    const step = await modules.finish(transformed, true);
    if (step.errors.length > 0) throw new Error(`the request-state step failed: ${JSON.stringify(step.errors)}`);
    for (const change of step.changes) {
      const file = files.find((f) => path.join(migratedDist, f.rel) === change.absolutePath);
      if (file) file.mrtr = { ...file.mrtr, output: change.output };
    }
    return { root, originalDist, migratedDist, files, stateModules: step.modules, pipelineMs: Date.now() - started };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Grep-style hits of the legacy spellings in a text, by 1-based line: the three push-API method
 * names as identifiers (`elicitInput`, `createMessage`, `listRoots`; not the tail of a quoted
 * method string) and the three JSON-RPC method strings in quotes (`'elicitation/create'`,
 * `"sampling/createMessage"`, `` `roots/list` ``). Comments and strings count: it is a grep.
 */
export function legacySpellings(text: string): Array<{ line: number; match: string }> {
  const pattern = /(?<![\w$/])(?:elicitInput|createMessage|listRoots)\b|(['"`])(?:elicitation\/create|sampling\/createMessage|roots\/list)\1/g;
  return [...text.matchAll(pattern)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, match: m[0] }));
}
