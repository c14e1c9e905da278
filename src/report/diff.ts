// Unified diffs of a run's changes, in the form `git apply` (and `patch -p1`) accept:
// `--- a/<path>` / `+++ b/<path>` headers with paths relative to the directory the run was in.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { ChangedFile } from '../engine/run.ts';

/** Lines of context around each change, as git uses. */
export const DIFF_CONTEXT = 3;

export function unifiedDiff(file: Pick<ChangedFile, 'path' | 'original' | 'output'>): string {
  return createTwoFilesPatch(`a/${file.path}`, `b/${file.path}`, file.original, file.output, undefined, undefined, {
    context: DIFF_CONTEXT,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/** One patch for all changed files, in the order given (the run's order is sorted by path). */
export function unifiedDiffs(files: readonly Pick<ChangedFile, 'path' | 'original' | 'output'>[]): string {
  return files.map(unifiedDiff).join('');
}
