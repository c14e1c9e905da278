// `check --output-file FILE` (`-o`): the report goes to FILE instead of stdout, with the same
// care as migrate's --patch and --report (src/report/patch.ts): reserved before the run (a path
// that cannot be written, a symbolic link, a directory or read-only file is a usage error),
// written atomically, never through a link. As with those, FILE is not replaced when it already
// holds something else: only an empty file, or an earlier report of check, is overwritten.
// An earlier report is known by its shape, in each format:
// - json: an object with `version`, `findings`, `errors`, `skipped` and a `summary` with an
//   `exitCode` (the CheckReport, src/report/formats/json.ts);
// - sarif: a SARIF log whose single run's tool is `mrtr-codemod`;
// - text and github: a last line that is check's total (`mrtr-codemod check: N findings in ...,
//   N files checked`). The file always holds the whole report, --quiet or not, so that line
//   is there for the next run.
import path from 'node:path';
import { reserveFile, type ReservedFile } from '../engine/atomic-write.ts';
import { outputProblem } from './patch.ts';

/** The last line of a text or github report (formatTotal in check-report.ts). */
const TOTAL_LINE = /^mrtr-codemod check: \d+ findings? in \d+ files?(?: \(.*\))?, \d+ errors?, \d+ files? checked(?:, \d+ skipped)?$/;

/** Whether `text` is what check writes, in one of its formats (or nothing at all). */
export function isCheckReport(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return true;
  if (trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return false;
    }
    return isJsonReport(value) || isSarifReport(value);
  }
  return TOTAL_LINE.test(trimmed.split('\n').pop()!);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function isJsonReport(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.version === 'number' &&
    Array.isArray(value.findings) &&
    Array.isArray(value.errors) &&
    Array.isArray(value.skipped) &&
    isObject(value.summary) &&
    typeof value.summary.exitCode === 'number'
  );
}

function isSarifReport(value: unknown): boolean {
  if (!isObject(value) || value.version !== '2.1.0' || !Array.isArray(value.runs) || value.runs.length !== 1) return false;
  const run: unknown = value.runs[0];
  return isObject(run) && isObject(run.tool) && isObject(run.tool.driver) && run.tool.driver.name === 'mrtr-codemod';
}

/**
 * Reserves `file` (as named, relative to `cwd`) for the report, or says why it may not be
 * written: the checks of --patch and --report, and an existing file that is not empty nor an
 * earlier report of check.
 */
export async function reserveCheckOutput(file: string, cwd: string): Promise<ReservedFile | { problem: string }> {
  if (file === '') return { problem: '--output-file needs a file name' };
  try {
    return await reserveFile(path.resolve(cwd, file), cwd, { what: 'a report of mrtr-codemod check', is: isCheckReport });
  } catch (error) {
    return { problem: `--output-file ${file}: ${outputProblem(error)}` };
  }
}
