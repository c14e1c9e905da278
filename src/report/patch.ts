// The files `--patch` and `--report` write. Both describe the run's change (original →
// output of every changed file), whether or not the run wrote it, and both are written
// atomically: a reader never sees half a patch or half a page.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { terminalText } from '../core/escape.ts';
import { writeFileAtomic } from '../engine/atomic-write.ts';
import { describeFsError } from '../engine/discover.ts';
import type { RunResult } from '../engine/run.ts';
import { unifiedDiffs } from './diff.ts';
import { count } from './formats/check-report.ts';
import { renderHtmlReport } from './html-report.ts';

/**
 * Why `file` (relative to `cwd`) cannot be written, checked before the run so a bad path
 * fails before any source file is touched; undefined when it looks writable.
 */
async function outputPathProblem(file: string, cwd: string): Promise<string | undefined> {
  const absolute = path.resolve(cwd, file);
  const target = await stat(absolute).catch(() => undefined);
  if (target?.isDirectory()) return `${file} is a directory`;
  const parent = await stat(path.dirname(absolute)).catch(() => undefined);
  if (!parent) return `the directory of ${file} does not exist`;
  if (!parent.isDirectory()) return `the parent of ${file} is not a directory`;
  return undefined;
}

interface ReviewOutputs {
  dryRun: boolean;
  /** --patch FILE */
  patch?: string;
  /** --report FILE */
  report?: string;
  /** --json: stdout carries only the JSON summary, so the "written" lines are left out. */
  json?: boolean;
}

interface ReviewIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
}

/** A usage problem with the requested review files, found before anything is run or written. */
export async function reviewOutputsProblem(outputs: ReviewOutputs, cwd: string): Promise<string | undefined> {
  if (outputs.patch !== undefined && outputs.report !== undefined && path.resolve(cwd, outputs.patch) === path.resolve(cwd, outputs.report)) {
    return '--patch and --report name the same file';
  }
  for (const [option, file] of [['--patch', outputs.patch], ['--report', outputs.report]] as const) {
    if (file === undefined) continue;
    if (file === '') return `${option} needs a file name`;
    const problem = await outputPathProblem(file, cwd);
    if (problem) return `${option}: ${problem}`;
  }
  return undefined;
}

/**
 * Writes the requested patch and report for a finished run, saying so on stdout; a file that
 * cannot be written is reported on stderr. Returns whether every requested file was written.
 */
export async function writeReviewOutputs(result: RunResult, outputs: ReviewOutputs, io: ReviewIo): Promise<boolean> {
  let ok = true;
  const write = async (option: string, file: string, text: () => string, what: string) => {
    try {
      await writeFileAtomic(path.resolve(io.cwd, file), text());
      if (!outputs.json) io.stdout(`${what} written: ${terminalText(file)}\n`);
    } catch (error) {
      ok = false;
      io.stderr(`mrtr-codemod: ${option} ${terminalText(file)}: cannot write: ${terminalText(describeFsError(error))}\n`);
    }
  };
  if (outputs.patch !== undefined) {
    // Only the diffs, never colour: ready for `git apply` from the run's directory.
    await write('--patch', outputs.patch, () => unifiedDiffs(result.changed), `Patch (${count(result.changed.length, 'file')})`);
  }
  if (outputs.report !== undefined) {
    await write('--report', outputs.report, () => renderHtmlReport(result, { dryRun: outputs.dryRun }), 'Report');
  }
  return ok;
}
