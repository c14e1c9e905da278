// Positions in one text mapped to another, through a line diff of the two: a v1 file's sites
// are found in the official codemod's text and reported at their place in the file on disk,
// and the official codemod's notes at their place in the text the run leaves.
import { diffLines, splitLines } from './line-diff.ts';

/**
 * Maps a position in `before` (1-based line and column) to where that text is in `after`: exact
 * for a line the two share; a changed line is looked for among the new lines of its change
 * with the same text but for indentation (the official codemod re-indents what it rewraps),
 * then for the one that begins most like it, else taken to where the line above it went.
 */
export function positionMap(before: string, after: string): (line: number, column: number) => { line: number; column: number } {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  // For each old line (0-based): the new line it maps to and how much further right it is indented.
  const map: LineMap = { to: new Int32Array(oldLines.length), shift: new Int32Array(oldLines.length) };
  const edits = diffLines(oldLines, newLines);
  let i = 0;
  while (i < edits.length) {
    const edit = edits[i]!;
    if (edit.op === 'equal') {
      map.to[edit.oldIndex] = edit.newIndex;
      i++;
      continue;
    }
    // A change: the deletions and insertions up to the next shared line.
    const removed: number[] = [];
    const added: number[] = [];
    for (; i < edits.length && edits[i]!.op !== 'equal'; i++) {
      const e = edits[i]!;
      if (e.op === 'delete') removed.push(e.oldIndex);
      else if (e.op === 'insert') added.push(e.newIndex);
    }
    const next = i < edits.length ? (edits[i] as { newIndex: number }).newIndex : newLines.length;
    mapChange(oldLines, newLines, { removed, added, next }, map);
  }
  return (line, column) => {
    if (oldLines.length === 0) return { line, column };
    const o = Math.min(Math.max(line - 1, 0), oldLines.length - 1);
    return { line: map.to[o]! + 1, column: Math.max(1, column + map.shift[o]!) };
  };
}

type Lines = ReturnType<typeof splitLines>;

/** For each old line (0-based): the new line it maps to, and how much further right it is indented there. */
interface LineMap {
  to: Int32Array;
  shift: Int32Array;
}

/**
 * Maps the old lines `removed` of one change, whose new lines are `added` (`next`: the new
 * line of the shared line after the change).
 */
function mapChange(oldLines: Lines, newLines: Lines, change: { removed: number[]; added: number[]; next: number }, map: LineMap): void {
  const { removed, added, next } = change;
  // In order: a line with the same text but for indentation; else the new line (not before
  // the last one taken) that begins most like it (`f(a) {` that became `f(a, b) {`); else
  // where the line above it went (a line joined into it); else the change's first new line,
  // or, when nothing replaced the change, the next shared line.
  const addedText = added.map((n) => newLines[n]!.text.trim());
  const byText = new Map<string, number[]>();
  addedText.forEach((text, j) => {
    const list = byText.get(text);
    if (list) list.push(j);
    else byText.set(text, [j]);
  });
  // The search by beginnings compares every pair: only for changes of a sensible size.
  const search = removed.length * added.length <= 250_000;
  const taken = new Set<number>();
  let from = 0;
  let previous = added[0] ?? Math.min(next, Math.max(newLines.length - 1, 0));
  for (const o of removed) {
    const text = oldLines[o]!.text.trim();
    const same = byText.get(text);
    while (same && same.length > 0 && (same[0]! < from || taken.has(same[0]!))) same.shift();
    let pick = same?.[0] ?? -1;
    if (pick === -1 && search) pick = beginsMostLike(text, addedText, from, taken);
    if (pick !== -1) {
      taken.add(pick);
      from = pick;
      map.to[o] = added[pick]!;
      map.shift[o] = indentOf(newLines[added[pick]!]!.text) - indentOf(oldLines[o]!.text);
    } else {
      map.to[o] = previous;
    }
    previous = map.to[o]!;
  }
}

/** The line of `addedText` (from `from` on, not taken) that begins most like `text`, if enough of it; else -1. */
function beginsMostLike(text: string, addedText: readonly string[], from: number, taken: ReadonlySet<number>): number {
  let best = 0;
  let pick = -1;
  for (let j = from; j < addedText.length; j++) {
    const common = commonPrefix(text, addedText[j]!);
    if (common > best && !taken.has(j)) [best, pick] = [common, j];
  }
  return best === 0 || best < Math.min(8, Math.ceil(text.length / 2)) ? -1 : pick;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}
