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
// What it does not do:
// - anything about MRTR: `server.server.elicitInput/createMessage/listRoots` and
//   `ctx.mcpReq.send({ method: 'elicitation/create', … }, Schema)` stay as they are (the second
//   pass migrates them);
// - remap a context parameter that is not named `extra` and not annotated: in
//   `async (args, context) => context.sendRequest(…)` the call stays `context.sendRequest(…)`,
//   which does not exist on v2's `ServerContext` (and no marker is left);
// - format: rewritten calls keep the indentation the printer gives them (run a formatter);
//   imports it rewrites use double quotes; new lines are LF even in CRLF files;
// - write package.json here: we run it on a scratch copy with a scratch manifest, and the real
//   manifest is edited by package-json.ts (the official codemod would add the v2 packages at its
//   own versions, ^2.3.1, below the ^2.4.0 that MRTR needs).
//
// Cost: `run()` is synchronous and builds one ts-morph project for all the files it is given
// (the module itself loads ts-morph and TypeScript: ~0.3 s the first time). Only files that
// import the v1 SDK (isV1Source) are handed to it; everything else is returned untouched
// without being parsed.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The v1 SDK package, and the prefix of every official marker comment. */
export const V1_PACKAGE = '@modelcontextprotocol/sdk';
export const OFFICIAL_MARKER = '@mcp-codemod-error';

/**
 * A module specifier naming the v1 SDK (or a subpath of it) in an import, an export-from, a
 * `require(...)`, a dynamic `import(...)`, an `import x = require(...)`, or a test-runner mock
 * (`vi.mock`, `jest.mock`, …), all of which the official codemod rewrites. A cheap text test:
 * a specifier inside a comment or string also counts (the codemod then changes nothing).
 */
const V1_SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\.(?:mock|doMock|unmock|importActual|requireActual|importMock|requireMock)\s*\(\s*)(['"`])@modelcontextprotocol\/sdk(?:\/[^'"`\s]*)?\1/;

/** Whether the text imports, re-exports, requires or mocks `@modelcontextprotocol/sdk` (1.x). */
export function isV1Source(text: string): boolean {
  return V1_SPECIFIER.test(text);
}

/** Module specifiers (root package names) relevant to the manifest: the MCP packages and zod. */
const PACKAGE_SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(@modelcontextprotocol\/[a-z0-9._-]+|zod)(?:\/[^'"\s]*)?\1/g;

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
  | 'mcp-codemod-info';

export interface UpgradeNote {
  /**
   * 1-based, in the upgraded text. For `mcp-codemod-error` this is exact: the line and column of
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
  /** Whether the upgraded text still names `@modelcontextprotocol/sdk` (see isV1Source). */
  stillImportsV1: boolean;
  /** `@modelcontextprotocol/*` packages and `zod` the upgraded text imports (importedPackages). */
  packages: string[];
}

export interface UpgradeOptions {
  /**
   * Decides where symbols from shared v1 paths (`sdk/types.js`, `sdk/shared/...`) go and the
   * context type name. Default: the official codemod infers it from the files it is given
   * (`sdk/server/...` imports mean server, `sdk/client/...` client): the same answer as on the
   * whole tree, since only files importing the SDK give a signal.
   */
  projectType?: 'server' | 'client' | 'both';
  /** Parent of the scratch directory (default: the OS temp directory). It is removed afterwards. */
  tmpDir?: string;
}

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

  const scratch = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), 'mrtr-v1-upgrade-'));
  try {
    // A manifest of our own at the scratch root: the codemod looks for the nearest package.json
    // (to decide the project type, and to swap the v1 dependency in it); without one it would
    // walk up out of the scratch directory. It declares no v1 dependency, so the codemod leaves
    // it alone (bar adding zod when it injects a zod import; that file is thrown away).
    await writeFile(path.join(scratch, 'package.json'), JSON.stringify(scratchManifest(options.projectType), null, 2) + '\n');
    // One directory per file, so that no user path reaches the codemod's ignore globs
    // (`**/dist/**`, `**/coverage/**`, …) or collides; only the base name (its extension) matters.
    const copies = todo.map((f, n) => ({ ...f, copy: path.join(scratch, 'src', `f${n}`, path.basename(f.path) || `file${n}.ts`) }));
    for (const c of copies) {
      await mkdir(path.dirname(c.copy), { recursive: true });
      await writeFile(c.copy, c.text);
    }

    const outcome = run(migration, { targetDir: scratch });

    const byCopy = new Map(outcome.fileResults.map((r) => [normalise(r.filePath), r]));
    for (const c of copies) {
      const text = await readFile(c.copy, 'utf8');
      const diagnostics = byCopy.get(normalise(c.copy))?.diagnostics ?? [];
      results[c.index] = {
        path: c.path,
        text,
        changed: text !== c.text,
        notes: notesFor(text, diagnostics),
        stillImportsV1: isV1Source(text),
        packages: importedPackages(text),
      };
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return results;
}

function unchanged(f: SourceText): UpgradedFile {
  return { path: f.path, text: f.text, changed: false, notes: [], stillImportsV1: isV1Source(f.text), packages: importedPackages(f.text) };
}

function scratchManifest(projectType: UpgradeOptions['projectType']): object {
  const dependencies: Record<string, string> = {};
  if (projectType === 'server' || projectType === 'both') dependencies['@modelcontextprotocol/server'] = '*';
  if (projectType === 'client' || projectType === 'both') dependencies['@modelcontextprotocol/client'] = '*';
  return { name: 'mrtr-v1-upgrade-scratch', private: true, dependencies };
}

/** ts-morph reports paths with `/` separators on every platform. */
function normalise(p: string): string {
  return path.resolve(p).split(path.sep).join('/');
}

type Diagnostic = import('@modelcontextprotocol/codemod').Diagnostic;

function notesFor(text: string, diagnostics: readonly Diagnostic[]): UpgradeNote[] {
  const markers = officialMarkers(text);
  const notes: UpgradeNote[] = [...markers];
  const lineCount = text.split('\n').length;
  for (const d of diagnostics) {
    const line = Math.min(Math.max(d.line, 1), lineCount);
    if (d.insertComment) {
      // Written as a marker, unless the runner could not place it (inside a literal): then it is
      // still open work, reported at the codemod's line.
      const placed = markers.some((m) => m.message.includes(d.message.replaceAll('*/', '* /')));
      if (!placed) notes.push({ line, column: 1, message: d.message, code: 'mcp-codemod-error' });
      continue;
    }
    const failed = d.level === 'error';
    notes.push({ line, column: 1, message: d.message, code: failed ? 'mcp-codemod-failed' : d.level === 'warning' ? 'mcp-codemod-warning' : 'mcp-codemod-info' });
  }
  return notes.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * The `@mcp-codemod-error` comments of a text, found line by line as `check` finds them in a
 * file it cannot parse: a line whose first non-blank text is a comment opener (`//`, `/*`, `*`)
 * followed by the marker. The official runner writes them as `/* @mcp-codemod-error … *\/` on a
 * line of their own (several messages for one line joined with ` | `).
 */
export function officialMarkers(text: string): UpgradeNote[] {
  const out: UpgradeNote[] = [];
  text.split(/\r\n|\r|\n/).forEach((lineText, i) => {
    const opener = /^\s*(?:\/\/+|\/\*+|\*+)[\s*/!]*/.exec(lineText);
    if (!opener) return;
    const rest = lineText.slice(opener[0].length);
    if (!rest.startsWith(OFFICIAL_MARKER) || /^[\w-]/.test(rest.slice(OFFICIAL_MARKER.length))) return;
    const message = rest.slice(OFFICIAL_MARKER.length).replace(/\*+\/\s*$/, '').replace(/^\s*:?\s*/, '').trim();
    out.push({ line: i + 1, column: opener[0].length + 1, message, code: 'mcp-codemod-error' });
  });
  return out;
}
