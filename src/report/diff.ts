// Unified diffs of a run's changes, in the form `git apply` (and `patch -p1`) accept:
// `--- a/<path>` / `+++ b/<path>` headers with paths relative to the directory the run was in.
import { gitQuotedPath } from '../core/escape.ts';
import type { ChangedFile } from '../engine/run.ts';
import { ansiDiffLine } from './color.ts';
import type { DiffLine } from './diff-line.ts';
import { unifiedPatch } from '../core/line-diff.ts';

/** Lines of context around each change, as git uses. */
const DIFF_CONTEXT = 3;

/** What a diff is made from: a ChangedFile, or anything with its path and two texts. */
type DiffedFile = Pick<ChangedFile, 'path' | 'original' | 'output' | 'splices' | 'created'>;

/**
 * Diffs already made, by the file object they describe: the CLI makes each one as soon as the
 * run reports the file changed (RunOptions.onChanged), while other files still wait for type
 * facts, and prints them all at the end. Keyed by the object alone: the run never changes a
 * ChangedFile's path or texts after reporting it (a file transformed again is a new object).
 */
const made = new WeakMap<object, string>();

export function unifiedDiff(file: DiffedFile): string {
  let patch = made.get(file);
  if (patch === undefined) {
    // A file the run creates (the request-state module) comes from /dev/null, as git writes it.
    patch = unifiedPatch(
      file.created ? '/dev/null' : headerName('a/', file.path),
      headerName('b/', file.path),
      file.original,
      file.output,
      DIFF_CONTEXT,
      file.splices,
    );
    made.set(file, patch);
  }
  return patch;
}

/**
 * A file's name in a `---`/`+++` header, as git writes it: quoted when it must be (a tab or a
 * line break would otherwise end the name), and followed by a tab when it holds a space, so
 * that a trailing space is not taken for padding.
 */
function headerName(prefix: string, file: string): string {
  return gitQuotedPath(prefix + file) + (file.includes(' ') ? '\t' : '');
}

/** One patch for all changed files, in the order given (RunResult.changed: the manifests a v1 upgrade edited, then the files in discovery order). */
export function unifiedDiffs(files: readonly DiffedFile[]): string {
  return files.map(unifiedDiff).join('');
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Splits a unified diff into classified lines. Inside a hunk the line counts of its `@@`
 * header decide where it ends, so content that looks like a header (a removed `-- x` line
 * reads `--- x`) is still classified as content.
 */
export function classifyUnifiedDiff(patch: string): DiffLine[] {
  const out: DiffLine[] = [];
  const hunk: HunkPlace = { oldLeft: 0, newLeft: 0, oldLine: 0, newLine: 0 };
  let start = 0;
  while (start < patch.length) {
    const end = patch.indexOf('\n', start);
    const text = end === -1 ? patch.slice(start) : patch.slice(start, end);
    const eol = end === -1 ? '' : '\n';
    start = end === -1 ? patch.length : end + 1;

    if (text.startsWith('\\')) {
      out.push({ kind: 'no-newline', text, eol });
      continue;
    }
    const content = hunk.oldLeft > 0 || hunk.newLeft > 0 ? hunkContent(hunk, text, eol) : undefined;
    out.push(content ?? headerLine(hunk, text, eol));
  }
  return out;
}

/** Where a diff is in its hunk: the lines of each side still to come, and the next line's number on each. */
interface HunkPlace {
  oldLeft: number;
  newLeft: number;
  oldLine: number;
  newLine: number;
}

/** A line of the hunk's content, counted; undefined (the hunk closed) when the line cannot be one. */
function hunkContent(hunk: HunkPlace, text: string, eol: string): DiffLine | undefined {
  const sign = text[0];
  if (sign === '+' && hunk.newLeft > 0) {
    hunk.newLeft--;
    return { kind: 'add', text, eol, newLine: hunk.newLine++ };
  }
  if (sign === '-' && hunk.oldLeft > 0) {
    hunk.oldLeft--;
    return { kind: 'remove', text, eol, oldLine: hunk.oldLine++ };
  }
  if ((sign === ' ' || text === '') && hunk.oldLeft > 0 && hunk.newLeft > 0) {
    hunk.oldLeft--;
    hunk.newLeft--;
    return { kind: 'context', text, eol, oldLine: hunk.oldLine++, newLine: hunk.newLine++ };
  }
  // A malformed hunk: the line is read as a header.
  hunk.oldLeft = hunk.newLeft = 0;
  return undefined;
}

/** A line outside any hunk: a `@@` header (which opens one), a file name, or another header line. */
function headerLine(hunk: HunkPlace, text: string, eol: string): DiffLine {
  const header = HUNK_HEADER.exec(text);
  if (header) {
    hunk.oldLine = Number(header[1]);
    hunk.oldLeft = header[2] === undefined ? 1 : Number(header[2]);
    hunk.newLine = Number(header[3]);
    hunk.newLeft = header[4] === undefined ? 1 : Number(header[4]);
    // `-0,0` / `+0,0` (file created or emptied): numbering starts at line 1.
    if (hunk.oldLeft === 0 && hunk.oldLine === 0) hunk.oldLine = 1;
    if (hunk.newLeft === 0 && hunk.newLine === 0) hunk.newLine = 1;
    return { kind: 'hunk', text, eol };
  }
  if (text.startsWith('--- ')) return { kind: 'file-old', text, eol };
  if (text.startsWith('+++ ')) return { kind: 'file-new', text, eol };
  return { kind: 'header', text, eol };
}

/**
 * The same patch with ANSI colours, for a terminal. Lines are classified by position (a
 * removed line reading `-- x` is still a removal), and stripping the escapes gives back the
 * input exactly (when it has no control characters: see terminalDiff). Never use it for a
 * patch file.
 */
export function colorizeDiff(patch: string): string {
  return terminalDiff(patch, true);
}

/** A patch shown to a person: control characters of the code escaped, coloured when `color`. */
export function terminalDiff(patch: string, color: boolean): string {
  return classifyUnifiedDiff(patch)
    .map((line) => ansiDiffLine(line, color))
    .join('');
}
