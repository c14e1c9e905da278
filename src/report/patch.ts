// The files `--patch` and `--report` write. Both describe the run's change (original →
// output of every changed file), whether or not the run wrote it, and both are written
// atomically: a reader never sees half a patch or half a page. Both are reserved before the
// run (reserveReviewOutputs): a path that cannot be written, or that is a symbolic link (or
// whose folder inside the current directory is one leading out of it), is a usage error found
// before any source file is touched. Neither replaces a file that holds anything but an
// earlier output of its kind (as ESLint's --output-file would: a `--patch=.env` a shell glob
// passed must never cost the user their .env): a patch is known by being unified diffs alone,
// a review page by its title.
import path from 'node:path';
import { terminalText } from '../core/escape.ts';
import { OutputPathError, reserveFile, type ReservedFile } from '../engine/atomic-write.ts';
import { describeFsError } from '../engine/discover.ts';
import type { RunResult } from '../engine/run.ts';
import { classifyUnifiedDiff, unifiedDiffs } from './diff.ts';
import { count } from './formats/check-report.ts';
import { isReviewPage, renderHtmlReport } from './html-report.ts';

interface ReviewOutputs {
  dryRun: boolean;
  /** --patch FILE */
  patch?: string;
  /** --report FILE */
  report?: string;
  /** --json: stdout carries only the JSON summary, so the "written" lines are left out. */
  json?: boolean;
  /** --quiet: the "written" lines are left out too. */
  quiet?: boolean;
}

interface ReviewIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
}

/** The review files of a run, reserved: write them with writeReviewOutputs, or discard them. */
export interface ReservedOutputs {
  patch?: ReservedFile;
  report?: ReservedFile;
  /** Removes whatever was reserved and not written (call it on every way out). */
  discard(): Promise<void>;
}

/**
 * Reserves the requested review files before anything is run or written; returns the usage
 * problem instead when one of them cannot be written (nothing is then left reserved).
 */
export async function reserveReviewOutputs(outputs: ReviewOutputs, cwd: string): Promise<ReservedOutputs | { problem: string }> {
  if (outputs.patch !== undefined && outputs.report !== undefined && path.resolve(cwd, outputs.patch) === path.resolve(cwd, outputs.report)) {
    return { problem: '--patch and --report name the same file' };
  }
  const reserved: ReservedOutputs = {
    discard: async () => {
      await reserved.patch?.discard();
      await reserved.report?.discard();
    },
  };
  for (const [option, file] of [
    ['--patch', outputs.patch],
    ['--report', outputs.report],
  ] as const) {
    if (file === undefined) continue;
    if (file === '') return { problem: `${option} needs a file name` };
    try {
      reserved[option === '--patch' ? 'patch' : 'report'] = await reserveFile(path.resolve(cwd, file), cwd, option === '--patch' ? PATCH : REVIEW_PAGE);
    } catch (error) {
      await reserved.discard();
      return { problem: `${option} ${file}: ${outputProblem(error)}` };
    }
  }
  return reserved;
}

/** An earlier --patch: unified diffs and nothing else (every line a file name, a hunk header or a hunk's line), with a hunk. */
const PATCH = {
  what: 'a patch mrtr-codemod wrote',
  is: (text: string) => {
    const lines = text.startsWith('--- ') ? classifyUnifiedDiff(text) : [];
    return lines.some((line) => line.kind === 'hunk') && lines.every((line) => line.kind !== 'header');
  },
};

const REVIEW_PAGE = { what: 'a review page mrtr-codemod wrote', is: isReviewPage };

/** Why an output file cannot be written, in words (shared with check --output-file). */
export function outputProblem(error: unknown): string {
  if (!(error instanceof OutputPathError)) return `cannot be written: ${describeFsError(error)}`;
  return error.cause === undefined ? error.message : `${error.message}: ${describeFsError(error.cause)}`;
}

/**
 * Writes the reserved patch and report for a finished run, saying so on stdout; a file that
 * cannot be written is reported on stderr. Returns whether every requested file was written.
 */
export async function writeReviewOutputs(result: RunResult, outputs: ReviewOutputs, reserved: ReservedOutputs, io: ReviewIo): Promise<boolean> {
  let ok = true;
  const write = async (option: string, file: string, into: ReservedFile, text: () => string, what: string) => {
    try {
      await into.write(text());
      if (!outputs.json && !outputs.quiet) io.stdout(`${what} written: ${terminalText(file)}\n`);
    } catch (error) {
      ok = false;
      io.stderr(`mrtr-codemod: ${option} ${terminalText(file)}: ${terminalText(outputProblem(error))}\n`);
    }
  };
  if (outputs.patch !== undefined && reserved.patch) {
    // Only the diffs, never colour: ready for `git apply` from the run's directory.
    await write('--patch', outputs.patch, reserved.patch, () => unifiedDiffs(result.changed), `Patch (${count(result.changed.length, 'file')})`);
  }
  if (outputs.report !== undefined && reserved.report) {
    await write('--report', outputs.report, reserved.report, () => renderHtmlReport(result, { dryRun: outputs.dryRun }), 'Report');
  }
  return ok;
}
