// Removals in the file's layout: a statement with its lines, elements of a comma-separated list.
import type { Node } from '@babel/types';
import { type Edit, lineEndOf, lineStartOf, lineTail, startsLine } from '../../core/vocabulary.ts';

/**
 * Removes a statement: its whole lines when it has them to itself, with the comment lines
 * right above it (they describe it, and would be left describing nothing), and the blank line
 * after it when it opened its block (a block does not start with a blank line).
 */
export function removeStatement(source: string, statement: Node): Edit {
  const start = statement.start!;
  const end = statement.end!;
  if (!startsLine(source, start) || lineTail(source, end) !== '') return { start, end, text: '' };
  const from = commentLinesAbove(source, lineStartOf(source, start));
  let to = Math.min(lineEndOf(source, end) + 1, source.length);
  const opensBlock = /\{\s*$/.test(source.slice(lineStartOf(source, from - 1), from).trimEnd());
  const blankAfter = /^[ \t]*\r?\n/.exec(source.slice(to));
  if (opensBlock && blankAfter) to += blankAfter[0].length;
  return { start: from, end: to, text: '' };
}

/** Removes the elements `indexes` of a comma-separated list (parameters, arguments), its layout kept. */
export function listRemovals(source: string, list: readonly Node[], indexes: ReadonlySet<number>): Edit[] {
  const last = list.length - 1;
  if (indexes.size === list.length) {
    // Everything between the parentheses: a trailing comma and line breaks go too.
    const open = source.lastIndexOf('(', list[0]!.start!);
    const close = source.indexOf(')', list[last]!.end!);
    return [{ start: open + 1, end: close, text: '' }];
  }
  const kept = [...list.keys()].filter((i) => !indexes.has(i));
  const lastKept = kept[kept.length - 1]!;
  const edits: Edit[] = [];
  for (const i of [...indexes].sort((a, b) => a - b)) {
    if (i < lastKept) edits.push({ start: list[i]!.start!, end: list[i + 1]!.start!, text: '' });
  }
  // The removed ones after the last kept: from its end, the separator with them.
  if (lastKept < last) edits.push({ start: list[lastKept]!.end!, end: list[last]!.end!, text: '' });
  return edits;
}

/**
 * Removals of statements of one block, those that meet made one, each taking a blank line along
 * when it would leave two (or one before the end of the block).
 */
export function mergedRemovals(source: string, removals: readonly Edit[]): Edit[] {
  return merged([...removals].sort((a, b) => a.start - b.start)).map((r) => withoutDoubleBlank(source, r));
}

function merged(removals: readonly Edit[]): Edit[] {
  const out: Edit[] = [];
  for (const r of removals) {
    const last = out[out.length - 1];
    if (last && last.end === r.start) out[out.length - 1] = { ...last, end: r.end };
    else out.push(r);
  }
  return out;
}

/**
 * A removal between two blank lines (or a blank line and the end of the block) takes one of them
 * along, and so does one that leaves its block opening on a blank line.
 */
function withoutDoubleBlank(source: string, removal: Edit): Edit {
  const blank = /^[ \t]*\r?\n/;
  const lineBefore = removal.start > 0 ? source.slice(lineStartOf(source, removal.start - 1), removal.start) : '';
  const after = blank.exec(source.slice(removal.end));
  if (after && /\{[ \t]*\r?\n$/.test(lineBefore)) return { ...removal, end: removal.end + after[0].length };
  if (!blank.test(lineBefore)) return removal;
  if (after) return { ...removal, end: removal.end + after[0].length };
  if (/^[ \t]*\}/.test(source.slice(removal.end))) return { ...removal, start: lineStartOf(source, removal.start - 1) };
  return removal;
}

// The start of the comment lines right above the line at `lineStart`: `//` lines, and block
// comments whose lines are their own (JSDoc). A comment that shares a line with code, or a
// blank line, ends them.
export function commentLinesAbove(source: string, lineStart: number): number {
  let from = lineStart;
  let inBlock = false;
  while (from > 0) {
    const above = lineStartOf(source, from - 1);
    const line = source.slice(above, from - 1).trim();
    if (inBlock) {
      if (line.startsWith('/*')) inBlock = false;
      else if (!line.startsWith('*')) return lineStart;
    } else if (line.endsWith('*/')) {
      if (!line.startsWith('/*') && !line.startsWith('*')) break;
      inBlock = !line.startsWith('/*');
    } else if (!line.startsWith('//')) break;
    from = above;
  }
  return inBlock ? lineStart : from;
}
