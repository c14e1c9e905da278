// First pass for servers still on the v1 SDK (`@modelcontextprotocol/sdk` 1.x, which has no
// MRTR): the official `@modelcontextprotocol/codemod` `v1-to-v2` migration, run on a scratch
// copy of just the files that import the v1 SDK. Our MRTR pass (src/transform.ts) then runs on
// its output. The official codemod is used as it is, through its public `run()`; nothing of it
// is re-implemented here.
//
// What the official codemod (2.3.x) does, as measured on v1 servers:
// - rewrites `@modelcontextprotocol/sdk/...` imports to the v2 packages (`/server`,
//   `/server/stdio`, `/client`, `/node`, `/express`; spec `*Schema` values such as
//   `ElicitResultSchema` go to `@modelcontextprotocol/core`), renames symbols (`McpError` →
//   `ProtocolError`, `ErrorCode` → `ProtocolErrorCode`, `RequestHandlerExtra<…>` →
//   `ServerContext`, …);
// - `server.tool(name, description?, shape, cb)` → `server.registerTool(name, { description,
//   inputSchema: z.object(shape) }, cb)` and wraps raw shapes in `registerTool` configs with
//   `z.object()` (adding `import { z } from 'zod'` when needed);
// - `setRequestHandler(CallToolRequestSchema, …)` → `setRequestHandler('tools/call', …)`;
// - renames a handler's context parameter *named `extra`* to `ctx` and remaps its properties:
//   `extra.sendRequest` → `ctx.mcpReq.send` (the result-schema argument is KEPT: v2's
//   `ctx.mcpReq.send(request, schema)` still accepts it), `extra.signal` → `ctx.mcpReq.signal`,
//   `extra.authInfo` → `ctx.http?.authInfo`, `extra.sendNotification` → `ctx.mcpReq.notify`, …
//   The same remapping is applied to a helper's parameter annotated `RequestHandlerExtra`
//   (whatever its name, the name is kept).
// - leaves `/* @mcp-codemod-error <message> */` on its own line above a statement it recognised
//   but could not migrate (e.g. the context object forwarded to a helper, an unknown SDK import
//   path, a removed API). Those comments are open work: `check` counts them.
//
// What it does not do (each checked in test/v1-upgrade.test.ts):
// - anything about MRTR: `server.server.elicitInput/createMessage/listRoots` and
//   `ctx.mcpReq.send({ method: 'elicitation/create', … }, Schema)` stay as they are (the second
//   pass migrates them);
// - remap a context parameter that is not named `extra`, or that is the callback's only
//   parameter (a tool without inputSchema): `async (args, context) => context.sendRequest(…)`
//   and `async (extra) => extra.sendRequest(…)` stay v1-shaped, with no marker (v2's
//   ServerContext has neither `sendRequest` nor `signal`); a destructured context parameter
//   (`{ sendNotification, _meta }`) gets a marker and is left as it is: we write it in v2's
//   shape where v2 has a place for each key (rewrite/v1-leftovers.ts; `{ sendRequest }` is the
//   MRTR pass's);
// - rewrite `setRequestHandler(z.object({ method: z.literal('m') }), h)` (a schema of its own):
//   it leaves a marker; we key it by `'m'` when that is a spec method (rewrite/v1-leftovers.ts);
// - rewrite `server.tool(NAME, …)` when NAME is not a string literal (`TOOLS.list`): it leaves
//   a marker, and v2's McpServer has no `tool()`. We finish each such call on an McpServer
//   (rewrite/tool-registrations.ts) and drop the marker it answers; one we cannot read keeps it;
// - rewrite `require('@modelcontextprotocol/sdk/…')`: a CommonJS server comes back unchanged and
//   without a marker (reported here as `v1-import-left`);
// - format: rewritten calls keep the indentation its printer gives them (a `server.tool(…)` body
//   moves right; run a formatter); the imports it writes use double quotes; the lines it writes
//   are LF (we restore CRLF when the input was CRLF throughout);
// - edit the user's package.json: we run it in a scratch directory with a scratch manifest, and
//   the real manifest is edited by package-json.ts (the official codemod would add the v2
//   packages at its own versions, ^2.3.1, below the ^2.4.0 that MRTR needs).
//
// Cost, measured (2-core box, 65-line v1 servers): loading the package (ts-morph, TypeScript)
// takes ~0.6 s, once, on first use; then ~0.1 s per file, whatever the batch size; one run()
// keeps every file it was given in one ts-morph project, ~1.5 MB each, until it returns (400
// files in one run: 37 s, 840 MB peak RSS; in batches of 50: 35 s, 430 MB). run() is
// synchronous: it blocks the event loop for a batch, so the progress line and Ctrl-C wait for
// it; batches of 10 keep that wait near 0.3 s and take as long in all (200 files: 2.4-3.2 s in
// batches of 50 or of 10; the longest wait 0.9-1.4 s against 0.3 s). Only files that import the v1 SDK
// (isV1Source) are handed to it; everything else is returned untouched without being parsed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { markersByLines } from '../analyse/markers.ts';
import { V1_PACKAGE } from '../analyse/v1-server-source.ts';
import { rewriteToolRegistrations, type ModuleReader } from '../rewrite/tool-registrations.ts';
import { rewriteV1Leftovers } from '../rewrite/v1-leftovers.ts';
import { resolveAmong } from './import-graph.ts';
import { processIsAlive, whenInterrupted } from './interrupt-cleanup.ts';
import { markTasksApi, tasksImports } from './tasks-api.ts';

export { V1_PACKAGE };

/**
 * A module specifier naming the v1 SDK (or a subpath of it) in an import, an export-from, a
 * dynamic `import(...)`, a `require(...)` or a test-runner mock (`vi.mock`, `jest.mock`, …):
 * the positions the official codemod looks at (it rewrites all but `require`). A cheap text
 * test: `from '@modelcontextprotocol/sdk'` inside a comment counts too (the codemod then changes
 * nothing).
 */
const SPECIFIER_POSITION = String.raw`(?:\bfrom\s*|\bimport\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)*|\bimport\s*|\brequire\s*(?:\.\s*resolve\s*)?\(\s*|\.\s*(?:mock|doMock|unmock|importActual|requireActual|importMock|requireMock)\s*\(\s*)`;
const V1_SPECIFIER = new RegExp(SPECIFIER_POSITION + /(['"`])@modelcontextprotocol\/sdk(?:\/[^'"`\s]*)?\1/.source);
/** The signals the official codemod infers the project type from (server vs client code). */
const V1_SERVER_SPECIFIER = new RegExp(SPECIFIER_POSITION + /['"`]@modelcontextprotocol\/sdk\/server(?:\/|['"`])/.source);
const V1_CLIENT_SPECIFIER = new RegExp(SPECIFIER_POSITION + /['"`]@modelcontextprotocol\/sdk\/client(?:\/|['"`])/.source);

/** Whether the text imports, re-exports, requires or mocks `@modelcontextprotocol/sdk` (1.x). */
export function isV1Source(text: string): boolean {
  // Every file of a run is asked: a plain substring search first spares most of them the regex.
  return text.includes(V1_PACKAGE) && V1_SPECIFIER.test(text);
}

/**
 * Whether every v1 specifier of the text names the client side of the SDK
 * (`@modelcontextprotocol/sdk/client/...`): a module that only builds a client, which MRTR
 * (a change of servers) never needs upgraded.
 */
export function isV1ClientOnly(text: string): boolean {
  const specifiers = [...text.matchAll(new RegExp(V1_SPECIFIER.source, 'g'))].map((m) => m[0].replace(/^[^'"`]*['"`]/, '').slice(0, -1));
  return specifiers.length > 0 && specifiers.every((s) => s === `${V1_PACKAGE}/client` || s.startsWith(`${V1_PACKAGE}/client/`));
}

/** Module specifiers (root package names) relevant to the manifest: the MCP packages and zod. */
const PACKAGE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(@modelcontextprotocol\/[a-z0-9._-]+|zod)(?:\/[^'"\s]*)?\1/g;

/** The `@modelcontextprotocol/*` packages and `zod` a text imports, by root name, sorted. */
export function importedPackages(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(PACKAGE_SPECIFIER)) names.add(m[2]!);
  return [...names].sort();
}

export interface SourceText {
  /** The caller's name for the file (relative or absolute); returned as given. */
  path: string;
  text: string;
}

export type UpgradeNoteCode =
  /** An `@mcp-codemod-error` comment in the upgraded text: the codemod could not migrate the statement below it. Open work. */
  | 'mcp-codemod-error'
  /** The official codemod threw on this file: it is returned unchanged, still on v1. Open work. */
  | 'mcp-codemod-failed'
  /** A change to verify by hand (e.g. `ErrorCode` split into `ProtocolErrorCode` / `SdkErrorCode`). */
  | 'mcp-codemod-warning'
  /** What was done (e.g. a raw shape wrapped with `z.object()`). */
  | 'mcp-codemod-info'
  /** A `@modelcontextprotocol/sdk` specifier left in the upgraded text with no marker (e.g. `require()`). Open work. */
  | 'v1-import-left'
  /** A statement still using the experimental tasks API, which v2 removed (marked by us: see tasks-api.ts). Open work: it does not build. */
  | 'tasks-api-left';

export interface UpgradeNote {
  /**
   * 1-based, in the upgraded text (a run reports it in the text it leaves: the upgraded text as
   * the MRTR pass rewrote it). For `mcp-codemod-error` this is exact: the line and column of
   * the `@` of the marker, as `check` reports it. For the other codes it is the line the official
   * codemod reported, which may refer to an intermediate text (its transforms run one after
   * another), with column 1: good enough to find the statement, not to point at it.
   */
  line: number;
  column: number;
  message: string;
  code: UpgradeNoteCode;
}

export interface UpgradedFile {
  path: string;
  /** The upgraded text; the input text itself when nothing changed. */
  text: string;
  changed: boolean;
  notes: UpgradeNote[];
}

export interface UpgradeOptions {
  /**
   * Decides where symbols from shared v1 paths (`sdk/types.js`, `sdk/shared/...`) go and the
   * context type name. Default: inferred once from all the v1 files given, the way the official
   * codemod does it (`sdk/server/...` imports mean server, `sdk/client/...` client): the same
   * answer as on the whole tree, since only files importing the SDK give a signal.
   */
  projectType?: 'server' | 'client' | 'both';
  /**
   * Parent of the scratch directories (default: the OS temp directory). They are removed
   * afterwards, on a signal too; those a killed run left there are removed by the next.
   */
  tmpDir?: string;
  /**
   * Files per official run() (default DEFAULT_BATCH_SIZE). One run keeps every file it was given
   * in one ts-morph project until it returns: about 1.5 MB of heap per (65-line) file, so batches
   * bound the memory; the time per file (about 0.1 s) does not depend on the batch size. Small
   * batches keep the event loop's waits short (the progress line moves, Ctrl-C is answered).
   */
  batchSize?: number;
  /** Called after each file has been upgraded (progress display); batch by batch. */
  onFileDone?: (path: string) => void;
}

export const DEFAULT_BATCH_SIZE = 10;

/** What the official package exports; loaded on first use (it loads ts-morph and TypeScript). */
type Official = typeof import('@modelcontextprotocol/codemod');
let official: Promise<Official> | undefined;
function loadOfficial(): Promise<Official> {
  official ??= import('@modelcontextprotocol/codemod');
  return official;
}

/**
 * Runs the official `v1-to-v2` migration on the files that import the v1 SDK, on a scratch copy:
 * the caller's files are never read or written here (only the given texts are used). Files that
 * do not import the v1 SDK are returned unchanged without being handed to the codemod. The
 * result has one entry per input, in input order.
 */
export async function upgradeV1(files: readonly SourceText[], options: UpgradeOptions = {}): Promise<UpgradedFile[]> {
  const results: UpgradedFile[] = files.map((f) => unchanged(f));
  const todo = files.map((f, i) => ({ ...f, index: i })).filter((f) => isV1Source(f.text));
  if (todo.length === 0) return results;

  const { getMigration, run } = await loadOfficial();
  const migration = getMigration('v1-to-v2');
  if (!migration) throw new Error('@modelcontextprotocol/codemod has no v1-to-v2 migration');
  await removeStaleScratch(options.tmpDir ?? os.tmpdir());

  // The codemod would infer the project type batch by batch, from the files of each batch: infer
  // it once, the same way, from all of them, so every batch is migrated alike.
  const projectType = options.projectType ?? inferProjectType(todo.map((f) => f.text));
  const readModules = moduleReaders();
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  for (let i = 0; i < todo.length; i += batchSize) {
    const batch = todo.slice(i, i + batchSize);
    for (const upgraded of await upgradeBatch(run, migration, batch, { ...options, projectType }, readModules)) {
      results[upgraded.index] = upgraded.file;
      options.onFileDone?.(upgraded.file.path);
    }
  }
  await upgradeToFixpoint(results, (batch) => upgradeBatch(run, migration, batch, { ...options, projectType }, readModules), batchSize);
  return results;
}

/** Passes after the first, at most: the official codemod settles in one more on every input measured. */
const MAX_EXTRA_PASSES = 2;

/**
 * Runs the official codemod again on what it left still on v1, until its output stops changing.
 * One pass is not always a fixed point: when it rewrites a file's other v1 imports it can skip
 * the marker for an import path it does not know, and writes it only when run on its own output.
 * A second `migrate` would then change the file again; settling here keeps migrate idempotent.
 */
async function upgradeToFixpoint(
  results: UpgradedFile[],
  upgrade: (batch: ReadonlyArray<SourceText & { index: number }>) => Promise<Array<{ index: number; file: UpgradedFile }>>,
  batchSize: number,
): Promise<void> {
  let pending = results.map((f, index) => ({ path: f.path, text: f.text, index })).filter((f) => results[f.index]!.changed && isV1Source(f.text));
  for (let pass = 0; pass < MAX_EXTRA_PASSES && pending.length > 0; pass++) {
    const unsettled: typeof pending = [];
    for (let i = 0; i < pending.length; i += batchSize) {
      for (const again of await upgrade(pending.slice(i, i + batchSize))) {
        const before = results[again.index]!;
        if (!again.file.changed) continue;
        const markerless = before.notes.filter((n) => n.code !== 'mcp-codemod-error' && n.code !== 'v1-import-left' && n.code !== 'tasks-api-left');
        results[again.index] = { ...again.file, changed: true, notes: mergeNotes(markerless, again.file.notes) };
        if (isV1Source(again.file.text)) unsettled.push({ path: again.file.path, text: again.file.text, index: again.index });
      }
    }
    pending = unsettled;
  }
}

/** Notes of two passes, each once (the later pass repeats an earlier pass's info for the same file). */
function mergeNotes(earlier: readonly UpgradeNote[], later: readonly UpgradeNote[]): UpgradeNote[] {
  const seen = new Set(later.map((n) => `${n.code}\u0000${n.message}`));
  return [...later, ...earlier.filter((n) => !seen.has(`${n.code}\u0000${n.message}`))].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** One official run() over a batch, in a scratch directory of its own that is removed after. */
async function upgradeBatch(
  run: Official['run'],
  migration: NonNullable<ReturnType<Official['getMigration']>>,
  batch: ReadonlyArray<SourceText & { index: number }>,
  options: UpgradeOptions,
  readModules: (file: string) => ModuleReader | undefined,
): Promise<Array<{ index: number; file: UpgradedFile }>> {
  // Made and registered in one synchronous step: a signal handled between an asynchronous
  // mkdtemp's creating the directory and its callback would find nothing to remove.
  const scratch = mkdtempSync(path.join(options.tmpDir ?? os.tmpdir(), `${SCRATCH_PREFIX}${process.pid}-`));
  // Removed on Ctrl-C too (the CLI's signal handler runs this once the batch's synchronous run() returns).
  const forget = whenInterrupted(() => rmSync(scratch, { recursive: true, force: true }));
  try {
    const copies = await writeScratchCopies(scratch, batch, options.projectType);

    let outcome: ReturnType<Official['run']>;
    try {
      outcome = run(migration, { targetDir: scratch });
    } catch (error) {
      // The runner catches what a transform throws, file by file; this is the runner itself
      // failing (reading or writing the scratch copies). Each file of the batch is returned as
      // it was, with the failure as open work, like a file the runner gave up on.
      const message = `Transform failed: the official v1-to-v2 codemod stopped: ${(error as Error)?.message ?? String(error)}`;
      return batch.map((f) => ({ index: f.index, file: { ...unchanged(f), notes: [{ line: 1, column: 1, message, code: 'mcp-codemod-failed' as const }] } }));
    }

    return await upgradedCopies(copies, outcome, readModules);
  } finally {
    forget();
    await rm(scratch, { recursive: true, force: true });
  }
}

type ScratchCopy = SourceText & { index: number; copy: string };

/** The batch's files copied into the scratch directory, with a manifest of our own at its root. */
async function writeScratchCopies(
  scratch: string,
  batch: ReadonlyArray<SourceText & { index: number }>,
  projectType: UpgradeOptions['projectType'],
): Promise<ScratchCopy[]> {
  // A manifest of our own at the scratch root: the codemod looks for the nearest package.json
  // (to decide the project type, and to swap the v1 dependency in it); without one it would
  // walk up out of the scratch directory. It declares no v1 dependency, so the codemod leaves
  // it alone (bar adding zod when it injects a zod import; that file is thrown away).
  await writeFile(path.join(scratch, 'package.json'), JSON.stringify(scratchManifest(projectType), null, 2) + '\n');
  // One directory per file, so that no user path reaches the codemod's ignore globs
  // (`**/dist/**`, `**/coverage/**`, …) or collides; only the base name (its extension) matters.
  const copies = batch.map((f, n) => ({ ...f, copy: path.join(scratch, 'src', `f${n}`, path.basename(f.path) || `file${n}.ts`) }));
  for (const c of copies) {
    await mkdir(path.dirname(c.copy), { recursive: true });
    await writeFile(c.copy, c.text);
  }
  return copies;
}

/** What the official run made of each copy: its text (in the file's own line endings and quotes) and its notes. */
async function upgradedCopies(
  copies: readonly ScratchCopy[],
  outcome: ReturnType<Official['run']>,
  readModules: (file: string) => ModuleReader | undefined,
): Promise<Array<{ index: number; file: UpgradedFile }>> {
  const byCopy = new Map(outcome.fileResults.map((r) => [normalise(r.filePath), r]));
  const out: Array<{ index: number; file: UpgradedFile }> = [];
  for (const c of copies) {
    const upgraded = keepQuotes(c.text, keepLineEndings(c.text, await readFile(c.copy, 'utf8')));
    const diagnostics = byCopy.get(normalise(c.copy))?.diagnostics ?? [];
    // What it left, finished: the `tool()` registrations it refused, the v1 context patterns and
    // schema-keyed handlers it marked, then the tasks API marked.
    const finished = rewriteV1Leftovers(rewriteToolRegistrations(upgraded, c.path, readModules(c.path)).output, c.path).output;
    const { text, notes } = markTasksApi(finished, c.path, tasksImports(c.text, c.path));
    out.push({
      index: c.index,
      file: {
        path: c.path,
        text,
        changed: text !== c.text,
        notes: [...notesFor(text, diagnostics, upgraded), ...notes.map((n) => ({ ...n, code: 'tasks-api-left' as const }))].sort(
          (a, b) => a.line - b.line || a.column - b.column,
        ),
      },
    });
  }
  return out;
}

/**
 * The modules of the project each file imports, read from disk (once per run) by a file given
 * by its absolute path: a follow-up may need a shape kept in a module of schemas.
 */
function moduleReaders(): (file: string) => ModuleReader | undefined {
  const texts = new Map<string, string | undefined>();
  const read = (file: string) => {
    if (!texts.has(file)) texts.set(file, readTextFile(file));
    return texts.get(file);
  };
  return (file) => {
    if (!path.isAbsolute(file)) return undefined;
    return (specifier) => {
      if (!specifier.startsWith('.')) return undefined;
      const found = resolveAmong(path.dirname(file), specifier, (f) => read(f) !== undefined);
      return found === undefined ? undefined : { fileName: found, text: read(found)! };
    };
  };
}

function readTextFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Scratch directories are named `mrtr-v1-upgrade-<pid>-XXXXXX` (mkdtemp's six characters). */
const SCRATCH_PREFIX = 'mrtr-v1-upgrade-';
const SCRATCH_NAME = /^mrtr-v1-upgrade-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Removes the scratch directories of runs that were killed before they could (SIGKILL, a power
 * cut): ours by name and owner, made by a process that no longer runs.
 */
async function removeStaleScratch(parent: string): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const match = SCRATCH_NAME.exec(name);
    if (!match || processIsAlive(Number(match[1]))) continue;
    const full = path.join(parent, name);
    const info = await lstat(full).catch(() => undefined);
    if (!info?.isDirectory() || (process.getuid !== undefined && info.uid !== process.getuid())) continue;
    await rm(full, { recursive: true, force: true }).catch(() => undefined);
  }
}

function unchanged(f: SourceText): UpgradedFile {
  return { path: f.path, text: f.text, changed: false, notes: [] };
}

/** As the official codemod infers it: `sdk/server/...` imports mean server, `sdk/client/...` client. */
function inferProjectType(texts: readonly string[]): UpgradeOptions['projectType'] {
  const server = texts.some((t) => V1_SERVER_SPECIFIER.test(t));
  const client = texts.some((t) => V1_CLIENT_SPECIFIER.test(t));
  return server && client ? 'both' : server ? 'server' : client ? 'client' : undefined;
}

function scratchManifest(projectType: UpgradeOptions['projectType']): object {
  const dependencies: Record<string, string> = {};
  if (projectType === 'server' || projectType === 'both') dependencies['@modelcontextprotocol/server'] = '*';
  if (projectType === 'client' || projectType === 'both') dependencies['@modelcontextprotocol/client'] = '*';
  return { name: 'mrtr-v1-upgrade-scratch', private: true, dependencies };
}

/**
 * ts-morph writes the lines it adds or reprints (rewritten imports, markers) with LF, so a CRLF
 * file comes back with mixed line endings. When the input used CRLF throughout, so does the
 * output (no lone LF can come from the user's text then).
 */
function keepLineEndings(input: string, output: string): string {
  if (!input.includes('\r\n') || /(^|[^\r])\n/.test(input)) return output;
  return output.replace(/\r?\n/g, '\r\n');
}

/** A module specifier in quotes: `from 'x'`, `import 'x'`, `import('x')`, `require('x')`. */
const QUOTED_SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])([^'"\\\n]*)\2/g;

/**
 * ts-morph writes the imports it adds or rewrites in double quotes. In a file whose specifiers
 * are in single quotes, those it wrote (a double-quoted specifier the input did not have) are
 * put in single quotes too; the user's own are left as they were.
 */
function keepQuotes(input: string, output: string): string {
  const inInput = [...input.matchAll(QUOTED_SPECIFIER)];
  const single = inInput.filter((m) => m[2] === "'").length;
  if (single <= inInput.length - single) return output;
  const theirs = inInput.filter((m) => m[2] === '"').map((m) => m[3]!);
  return output.replace(QUOTED_SPECIFIER, (whole, head: string, quote: string, specifier: string) => {
    if (quote !== '"') return whole;
    const i = theirs.indexOf(specifier);
    if (i !== -1) {
      theirs.splice(i, 1);
      return whole;
    }
    return `${head}'${specifier}'`;
  });
}

/** ts-morph reports paths with `/` separators on every platform. */
function normalise(p: string): string {
  return path.resolve(p).split(path.sep).join('/');
}

type Diagnostic = import('@modelcontextprotocol/codemod').Diagnostic;

/** The notes of an upgraded text, from the markers in it and the official run's diagnostics on `official`, its own output. */
function notesFor(text: string, diagnostics: readonly Diagnostic[], official: string): UpgradeNote[] {
  const markers = officialMarkers(text);
  // A marker the runner wrote and a follow-up answered (and removed) is no longer open work.
  const written = official === text ? markers : officialMarkers(official);
  // A file the codemod failed on comes back as it was: its v1 imports are that one failure.
  const failed = diagnostics.some((d) => d.level === 'error');
  const notes: UpgradeNote[] = [...markers, ...(failed ? [] : v1ImportsLeft(text, markers))];
  const lineCount = text.split('\n').length;
  for (const d of diagnostics) {
    const line = Math.min(Math.max(d.line, 1), lineCount);
    if (d.insertComment) {
      // Written as a marker, unless the runner could not place it (inside a literal): then it is
      // still open work, reported at the codemod's line.
      const placed = written.some((m) => m.message.includes(d.message.replaceAll('*/', '* /')));
      if (!placed) notes.push({ line, column: 1, message: d.message, code: 'mcp-codemod-error' });
      continue;
    }
    notes.push({
      line,
      column: 1,
      message: d.message,
      code: d.level === 'error' ? 'mcp-codemod-failed' : d.level === 'warning' ? 'mcp-codemod-warning' : 'mcp-codemod-info',
    });
  }
  return notes.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * Specifiers of the v1 SDK the official codemod left without a marker on the line above: it
 * rewrites `import` declarations, `export ... from`, dynamic `import()` and test mocks, but not
 * `require()` (a CommonJS server comes back unchanged, silently). Such a file is still on v1.
 */
function v1ImportsLeft(text: string, markers: readonly UpgradeNote[]): UpgradeNote[] {
  const out: UpgradeNote[] = [];
  const marked = new Set(markers.map((m) => m.line + 1));
  const global = new RegExp(V1_SPECIFIER.source, 'g');
  for (const m of text.matchAll(global)) {
    const at = m.index! + m[0].length - m[0].replace(/^[^'"`]*/, '').length + 1; // the specifier's first letter
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const specifier = m[0].replace(/^[^'"`]*['"`]/, '').slice(0, -1);
    if (marked.has(line) || markers.some((k) => k.message.includes(specifier))) continue;
    out.push({
      line,
      column: at - before.lastIndexOf('\n'),
      message: `still imports ${specifier}: the official v1-to-v2 codemod left it (it does not rewrite require() calls); this code stays on the v1 SDK, which has no MRTR. Move it to the v2 packages by hand.`,
      code: 'v1-import-left',
    });
  }
  return out;
}

/**
 * The `@mcp-codemod-error` comments of a text, found line by line as `check` finds them in a
 * file it cannot parse: a line whose first non-blank text is a comment opener (`//`, `/*`, `*`)
 * followed by the marker. The official runner writes them as `/* @mcp-codemod-error … *\/` on a
 * line of their own (several messages for one line joined with ` | `).
 */
export function officialMarkers(text: string): UpgradeNote[] {
  return markersByLines(text)
    .markers.filter((m) => m.kind === 'official')
    .map((m) => ({ line: m.line, column: m.column, message: m.reason, code: 'mcp-codemod-error' }));
}
