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
  let oldLeft = 0;
  let newLeft = 0;
  let oldLine = 0;
  let newLine = 0;
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
    if (oldLeft > 0 || newLeft > 0) {
      const sign = text[0];
      if (sign === '+' && newLeft > 0) {
        out.push({ kind: 'add', text, eol, newLine: newLine++ });
        newLeft--;
        continue;
      }
      if (sign === '-' && oldLeft > 0) {
        out.push({ kind: 'remove', text, eol, oldLine: oldLine++ });
        oldLeft--;
        continue;
      }
      if ((sign === ' ' || text === '') && oldLeft > 0 && newLeft > 0) {
        out.push({ kind: 'context', text, eol, oldLine: oldLine++, newLine: newLine++ });
        oldLeft--;
        newLeft--;
        continue;
      }
      // A malformed hunk: fall through and read the line as a header.
      oldLeft = newLeft = 0;
    }
    const hunk = HUNK_HEADER.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLine = Number(hunk[3]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      // `-0,0` / `+0,0` (file created or emptied): numbering starts at line 1.
      if (oldLeft === 0 && oldLine === 0) oldLine = 1;
      if (newLeft === 0 && newLine === 0) newLine = 1;
      out.push({ kind: 'hunk', text, eol });
    } else if (text.startsWith('--- ')) {
      out.push({ kind: 'file-old', text, eol });
    } else if (text.startsWith('+++ ')) {
      out.push({ kind: 'file-new', text, eol });
    } else {
      out.push({ kind: 'header', text, eol });
    }
  }
  return out;
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
