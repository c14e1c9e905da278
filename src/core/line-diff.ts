// A line diff for unified patches: Myers' O(ND) algorithm over interned line numbers, after
// trimming the common head and tail. A migration changes a few regions of a file (the helper
// block, each handler), so D is small and the trimmed middle is short; comparing integers
// instead of strings and keeping only the 2d+1 cells of each step makes this about ten times
// faster than the general-purpose `diff` package on the benchmark's 273 changed files. When
// the splices that made the new text are known, only the lines they touch are diffed, each
// region on its own (the lines between are the same, and are checked to be).

import type { Edit } from './vocabulary.ts';

/** One line of a file, without its line break; `eol` is '\n' or '' for a last line without one. */
interface Line {
  text: string;
  eol: string;
}

type LineEdit = { op: 'equal'; oldIndex: number; newIndex: number } | { op: 'delete'; oldIndex: number } | { op: 'insert'; newIndex: number };

/** Beyond this many differing lines the middle is reported as replaced wholesale (still a correct patch). */
const MAX_EDIT_DISTANCE = 4000;

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      lines.push({ text: text.slice(start), eol: '' });
      break;
    }
    lines.push({ text: text.slice(start, end), eol: '\n' });
    start = end + 1;
  }
  return lines;
}

/** Lines `[oldStart, oldEnd)` of the old text became `[newStart, newEnd)` of the new one. */
interface Region {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/**
 * The line regions `splices` (non-overlapping, into `before`) touch, merged where they meet,
 * or undefined when the lines between them are not the same on both sides (then the splices
 * did not make `after` from `before`).
 */
export function spliceRegions(splices: readonly Edit[], before: readonly Line[], after: readonly Line[]): Region[] | undefined {
  const ordered = [...splices].sort((a, b) => a.start - b.start);
  const oldLine = lineFinder(before);
  const newLine = lineFinder(after);
  const regions: Region[] = [];
  let shift = 0;
  for (const splice of ordered) {
    const newStart = splice.start + shift;
    const region = {
      oldStart: oldLine(splice.start),
      oldEnd: oldLine(splice.end) + 1,
      newStart: newLine(newStart),
      newEnd: newLine(newStart + splice.text.length) + 1,
    };
    shift += splice.text.length - (splice.end - splice.start);
    const last = regions[regions.length - 1];
    if (last && region.oldStart <= last.oldEnd) {
      last.oldEnd = Math.max(last.oldEnd, region.oldEnd);
      last.newEnd = Math.max(last.newEnd, region.newEnd);
    } else {
      regions.push(region);
    }
  }
  // Between regions, and around them, line i of one side must be line i + delta of the other.
  let oldAt = 0;
  let newAt = 0;
  for (const region of [...regions, { oldStart: before.length, oldEnd: before.length, newStart: after.length, newEnd: after.length }]) {
    region.oldEnd = Math.min(region.oldEnd, before.length);
    region.newEnd = Math.min(region.newEnd, after.length);
    if (region.oldStart - oldAt !== region.newStart - newAt || region.oldStart < oldAt || region.newStart < newAt) return undefined;
    for (let i = oldAt, j = newAt; i < region.oldStart; i++, j++) {
      if (before[i]!.text !== after[j]!.text || before[i]!.eol !== after[j]!.eol) return undefined;
    }
    oldAt = region.oldEnd;
    newAt = region.newEnd;
  }
  return regions;
}

/**
 * Offset → index of the line it is on. The end of a text that ends without a line break is
 * on its last line (text spliced there joins that line); after a final line break, it is the
 * line count. Asked in increasing order.
 */
function lineFinder(lines: readonly Line[]): (offset: number) => number {
  let line = 0;
  let lineStart = 0;
  return (offset) => {
    while (line < lines.length && lines[line]!.eol !== '' && offset >= lineStart + lines[line]!.text.length + 1) {
      lineStart += lines[line]!.text.length + 1;
      line++;
    }
    return line;
  };
}

/**
 * The edit script turning `before` into `after`, line by line, in order; with `regions`
 * (see spliceRegions), the lines outside them are taken as equal and each region is diffed
 * on its own.
 */
export function diffLines(before: readonly Line[], after: readonly Line[], regions?: readonly Region[]): LineEdit[] {
  if (!regions) return diffRange(before, after, 0, before.length, 0, after.length);
  const edits: LineEdit[] = [];
  let oldAt = 0;
  let newAt = 0;
  for (const region of regions) {
    while (oldAt < region.oldStart) edits.push({ op: 'equal', oldIndex: oldAt++, newIndex: newAt++ });
    for (const edit of diffRange(before, after, region.oldStart, region.oldEnd, region.newStart, region.newEnd)) edits.push(edit);
    oldAt = region.oldEnd;
    newAt = region.newEnd;
  }
  while (oldAt < before.length) edits.push({ op: 'equal', oldIndex: oldAt++, newIndex: newAt++ });
  return edits;
}

/** The edit script for lines `[oldFrom, oldTo)` of `before` against `[newFrom, newTo)` of `after`. */
function diffRange(before: readonly Line[], after: readonly Line[], oldFrom: number, oldTo: number, newFrom: number, newTo: number): LineEdit[] {
  // Lines compare by text and line break (a last line that gains a newline has changed).
  const same = (x: Line, y: Line) => x.text === y.text && x.eol === y.eol;
  const oldCount = oldTo - oldFrom;
  const newCount = newTo - newFrom;
  let head = 0;
  while (head < oldCount && head < newCount && same(before[oldFrom + head]!, after[newFrom + head]!)) head++;
  let tail = 0;
  while (tail < oldCount - head && tail < newCount - head && same(before[oldTo - 1 - tail]!, after[newTo - 1 - tail]!)) tail++;

  // Only the middle is interned: the head and tail are most of a file, and their keys were
  // most of the time a diff took.
  const ids = new Map<string, number>();
  const a = interned(before, oldFrom + head, oldTo - tail, ids);
  const b = interned(after, newFrom + head, newTo - tail, ids);

  const edits: LineEdit[] = [];
  for (let i = 0; i < head; i++) edits.push({ op: 'equal', oldIndex: oldFrom + i, newIndex: newFrom + i });
  // Not push(...middle): a spread of a few hundred thousand edits overflows the call stack.
  for (const edit of myers(a, b, oldFrom + head, newFrom + head)) edits.push(edit);
  for (let i = tail; i > 0; i--) edits.push({ op: 'equal', oldIndex: oldTo - i, newIndex: newTo - i });
  return edits;
}

/**
 * Lines `[from, to)` as numbers, the same number for the same text and line break. Typed arrays
 * (not `map` results, whose kind of elements depends on whether the caller ran optimised):
 * the diff's code then sees one kind of array, and V8 no longer discards and recompiles it.
 */
function interned(lines: readonly Line[], from: number, to: number, ids: Map<string, number>): Int32Array {
  const out = new Int32Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) {
    const key = lines[i]!.text + lines[i]!.eol;
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    out[i - from] = id;
  }
  return out;
}

/** Myers' greedy shortest edit script; `oldOffset` and `newOffset` are where `a` and `b` start in their files. */
function myers(a: Int32Array, b: Int32Array, oldOffset: number, newOffset: number): LineEdit[] {
  const trace = a.length === 0 || b.length === 0 ? undefined : furthestPoints(a, b);
  if (trace) return backtrack(trace, a.length, b.length, oldOffset, newOffset);
  const replaced: LineEdit[] = [];
  for (let i = 0; i < a.length; i++) replaced.push({ op: 'delete', oldIndex: oldOffset + i });
  for (let j = 0; j < b.length; j++) replaced.push({ op: 'insert', newIndex: newOffset + j });
  return replaced;
}

/**
 * The forward search: after each step d, the furthest x reached on each diagonal -d..d; the
 * last step reaches (n, m). Undefined past MAX_EDIT_DISTANCE steps.
 */
function furthestPoints(a: Int32Array, b: Int32Array): Int32Array[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  // v[k + max + 1]: the furthest x on diagonal k.
  const v = new Int32Array(2 * max + 3);
  const at = (k: number) => k + max + 1;
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    let reached = false;
    for (let k = -d; k <= d && !reached; k += 2) {
      let x = k === -d || (k !== d && v[at(k - 1)]! < v[at(k + 1)]!) ? v[at(k + 1)]! : v[at(k - 1)]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[at(k)] = x;
      reached = x >= n && y >= m;
    }
    trace.push(v.slice(at(-d), at(d) + 1));
    if (reached) return trace;
  }
  return undefined;
}

/** Walks back from (n, m) through each step's furthest points, in file order. */
function backtrack(trace: readonly Int32Array[], n: number, m: number, oldOffset: number, newOffset: number): LineEdit[] {
  const reversed: LineEdit[] = [];
  let x = n;
  let y = m;
  const diagonalTo = (toX: number, toY: number) => {
    while (x > toX && y > toY) {
      x--;
      y--;
      reversed.push({ op: 'equal', oldIndex: oldOffset + x, newIndex: newOffset + y });
    }
  };
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d - 1]!;
    const cell = (k: number) => previous[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && cell(k - 1) < cell(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = cell(prevK);
    diagonalTo(prevX + (down ? 0 : 1), prevX - prevK + (down ? 1 : 0));
    if (down) reversed.push({ op: 'insert', newIndex: newOffset + --y });
    else reversed.push({ op: 'delete', oldIndex: oldOffset + --x });
  }
  diagonalTo(0, 0);
  return reversed.reverse();
}

/**
 * A unified diff of two texts (`--- a/…` / `+++ b/…` headers given by the caller), with
 * `context` lines around each change and git's "\ No newline at end of file" marker. Hunks at
 * most twice the context apart are joined, as git and `diff -u` do. Empty when equal.
 */
export function unifiedPatch(oldName: string, newName: string, before: string, after: string, context: number, splices?: readonly Edit[]): string {
  if (before === after) return '';
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const edits = diffLines(oldLines, newLines, splices && spliceRegions(splices, oldLines, newLines));
  const changed = edits.map((e) => e.op !== 'equal');
  let out = `--- ${oldName}\n+++ ${newName}\n`;
  // Lines of each side before edits[i] (where a hunk starting there sits in each file).
  const oldBefore = new Int32Array(edits.length + 1);
  const newBefore = new Int32Array(edits.length + 1);
  edits.forEach((e, j) => {
    oldBefore[j + 1] = oldBefore[j]! + (e.op === 'insert' ? 0 : 1);
    newBefore[j + 1] = newBefore[j]! + (e.op === 'delete' ? 0 : 1);
  });
  let i = 0;
  while (i < edits.length) {
    if (!changed[i]) {
      i++;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last
    // change that is no more than 2 * context unchanged lines from the one before it.
    const start = Math.max(0, i - context);
    let end = i;
    let gap = 0;
    for (let j = i; j < edits.length; j++) {
      if (changed[j]) {
        end = j;
        gap = 0;
      } else if (++gap > 2 * context) {
        break;
      }
    }
    const stop = Math.min(edits.length, end + 1 + context);
    out += hunk(edits.slice(start, stop), oldLines, newLines, oldBefore[start]!, newBefore[start]!);
    i = stop;
  }
  return out;
}

function hunk(edits: readonly LineEdit[], oldLines: readonly Line[], newLines: readonly Line[], oldBefore: number, newBefore: number): string {
  let oldCount = 0;
  let newCount = 0;
  let body = '';
  const line = (sign: string, l: Line) => {
    body += `${sign}${l.text}\n`;
    if (l.eol === '') body += '\\ No newline at end of file\n';
  };
  for (const e of edits) {
    if (e.op === 'equal') {
      oldCount++;
      newCount++;
      line(' ', oldLines[e.oldIndex]!);
    } else if (e.op === 'delete') {
      oldCount++;
      line('-', oldLines[e.oldIndex]!);
    } else {
      newCount++;
      line('+', newLines[e.newIndex]!);
    }
  }
  // An empty range names the line before it (0 at the top of the file), as unified diffs do.
  const oldFrom = oldCount === 0 ? oldBefore : oldBefore + 1;
  const newFrom = newCount === 0 ? newBefore : newBefore + 1;
  return `@@ -${oldFrom},${oldCount} +${newFrom},${newCount} @@\n${body}`;
}
