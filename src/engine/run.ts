// One codemod run over the file system: discover → read → prefilter → transform → write.
// Each file is handled on its own: a file that cannot be read, decoded, parsed or written is
// reported and the run goes on with the next one. Nothing here prints; the CLI formats the
// result (src/report).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ParseFailure } from '../analyse/parse.ts';
import { PREFILTER } from '../analyse/sdk-surface.ts';
import { TsTypeFactsProvider } from '../analyse/ts-type-facts.ts';
import type { SiteReport } from '../plan/types.ts';
import { transformWithTypes, type TypeFactsSource } from '../transform.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { describeFsError, discoverFiles } from './discover.ts';

export interface RunOptions {
  /** Files or directories, relative to `cwd` or absolute. */
  paths: readonly string[];
  /** Rewrite changed files in place; false computes the changes only (dry run). */
  write: boolean;
  cwd: string;
  /** Type facts for the run; by default one TsTypeFactsProvider (it loads ts-morph only if needed). */
  types?: TypeFactsSource;
}

export interface ChangedFile {
  /** Relative to cwd, with `/` separators. */
  path: string;
  absolutePath: string;
  original: string;
  output: string;
  /** Whether the new text was written to disk (false in a dry run). */
  written: boolean;
}

export interface RunSite extends SiteReport {
  /** File the site is in, relative to cwd, with `/` separators. */
  file: string;
}

export type ErrorStage = 'discover' | 'read' | 'parse' | 'transform' | 'write';

export interface RunError {
  /** Relative to cwd, with `/` separators. */
  file: string;
  stage: ErrorStage;
  message: string;
  line?: number;
  column?: number;
}

export interface RunResult {
  /** Source files discovered (and read). */
  filesScanned: number;
  /** Files whose text passed the prefilter, so were parsed. */
  candidates: number;
  changed: ChangedFile[];
  sites: RunSite[];
  errors: RunError[];
}

export async function runCodemod(options: RunOptions): Promise<RunResult> {
  const { cwd, write } = options;
  const types = options.types ?? new TsTypeFactsProvider();
  const discovery = await discoverFiles(options.paths, cwd);
  const result: RunResult = { filesScanned: discovery.files.length, candidates: 0, changed: [], sites: [], errors: [] };
  for (const problem of discovery.problems) {
    result.errors.push({ file: displayPath(cwd, problem.path), stage: 'discover', message: problem.message });
  }

  for (const absolutePath of discovery.files) {
    const file = displayPath(cwd, absolutePath);
    const fail = (stage: ErrorStage, message: string, line?: number, column?: number) =>
      result.errors.push({ file, stage, message, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) });

    let bytes: Buffer;
    try {
      bytes = await readFile(absolutePath);
    } catch (error) {
      fail('read', `cannot read: ${describeFsError(error)}`);
      continue;
    }
    const source = decodeSource(bytes);
    if (typeof source !== 'string') {
      fail('read', source.problem);
      continue;
    }
    // Most files of a project never mention the legacy surface: they are not parsed at all.
    if (!PREFILTER.test(source)) continue;
    result.candidates++;

    let transformed;
    try {
      transformed = await transformWithTypes(source, absolutePath, types);
    } catch (error) {
      if (error instanceof ParseFailure) fail('parse', `cannot parse: ${stripLocation(error.message)}`, error.line, error.column === undefined ? undefined : error.column + 1);
      else fail('transform', `internal error while transforming: ${(error as Error)?.message ?? String(error)}`);
      continue;
    }

    for (const site of transformed.plan.sites) result.sites.push({ file, ...site });
    if (!transformed.changed) continue;

    const changed: ChangedFile = { path: file, absolutePath, original: source, output: transformed.output, written: false };
    if (write) {
      try {
        // The file may have been edited while the run was busy: never overwrite that edit.
        const now = await readFile(absolutePath);
        if (!now.equals(bytes)) {
          fail('write', 'the file changed on disk during the run; it was left as it is (run again)');
          continue;
        }
        await writeFileAtomic(absolutePath, transformed.output);
        changed.written = true;
      } catch (error) {
        fail('write', `cannot write: ${describeFsError(error)}`);
        continue;
      }
    }
    result.changed.push(changed);
  }
  return result;
}

/** The text of a source file, or why it is not one (binary, or not UTF-8). A BOM is kept. */
export function decodeSource(bytes: Uint8Array): string | { problem: string } {
  if (bytes.includes(0)) return { problem: 'binary file (contains NUL bytes); skipped' };
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { problem: 'not valid UTF-8; skipped (convert the file to UTF-8 to migrate it)' };
  }
}

/** Babel appends ` (line:column)` to its messages; the location is reported separately. */
function stripLocation(message: string): string {
  return message.replace(/\s*\(\d+:\d+\)$/, '');
}

export function displayPath(cwd: string, absolutePath: string): string {
  const relative = path.relative(cwd, absolutePath) || path.basename(absolutePath);
  return relative.split(path.sep).join('/');
}
