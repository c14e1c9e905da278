// A line a marker or a reason names is a line of the text the codemod planned: a v1 file's text
// after the official codemod, before the markers and the migration move its lines. The user
// reads another text: the file as `migrate` writes it, or as it is for `check`. So a text names
// a planned line as a reference, which the run turns into the line of the text the user reads
// once it knows that text (transform.ts for one file, engine/other-module-lines.ts for a run).
// A reference of the planned module's own is kept as such while the text stays in its module;
// a text carried to another module's reports names the module too (asFileLineRefs).
import type { Node } from '@babel/types';

/** A line of the planned text, as a text names it until the text the user reads is known. */
export function lineRef(line: number | string): string {
  return `\uE000${line}\uE001`;
}

/** The line a node starts on, as a text names it (lineRef). */
export function lineOf(node: Node): string {
  return lineRef(node.loc!.start.line);
}

const LINE_REF = /\uE000(\d+)\uE001/g;

/** `text` with each line reference (lineRef) made the line `lineOf` says the planned line is on. */
export function resolveLineRefs(text: string, lineOf: (line: number) => number): string {
  return text.includes('\uE000') ? text.replace(LINE_REF, (_, line: string) => String(lineOf(Number(line)))) : text;
}

/** Whether `text` holds a line reference (lineRef). */
export function hasLineRefs(text: string): boolean {
  return text.includes('\uE000');
}

/**
 * A line of another module's planned text (`file` as the run names it), as a text names it until
 * the run knows what it writes there: resolveFileLineRefs turns it into that line.
 */
export function fileLineRef(file: string, line: number | string): string {
  return `\uE002${file}\uE003${line}\uE004`;
}

const FILE_LINE_REF = /\uE002([^\uE003]*)\uE003(\d+)\uE004/g;

/** `text` with each reference to another module's line (fileLineRef) made the line `lineOf` says it is on. */
export function resolveFileLineRefs(text: string, lineOf: (file: string, line: number) => number): string {
  return text.includes('\uE002') ? text.replace(FILE_LINE_REF, (_, file: string, line: string) => String(lineOf(file, Number(line)))) : text;
}

/** Whether `text` holds a reference to another module's line (fileLineRef). */
export function hasFileLineRefs(text: string): boolean {
  return text.includes('\uE002');
}

/** `text`, planned in the module `file`, with its own line references made references to that module's lines (for another module's reports). */
export function asFileLineRefs(text: string, file: string): string {
  return text.includes('\uE000') ? text.replace(LINE_REF, (_, line: string) => fileLineRef(file, line)) : text;
}

/** The private-use characters references are written with: none is left in a text the user reads. */
export const LINE_REF_CHARACTERS = /[\uE000-\uE004]/g;

/** A line a text names, written plainly (`12`) or as a reference: the pattern, one group for its number. */
export const NAMED_LINE = '(?:\uE000)?(\\d+)(?:\uE001)?';

/** Any line reference, whole, as one piece of a text that is never cut (cutText). */
const ANY_REF = /\uE000\d+\uE001|\uE002[^\uE003]*\uE003(\d+)\uE004/g;

/**
 * `text` cut to show at most `max` characters (a reference shows as its line's digits), ending
 * in `…`: never inside a reference, and a code span it cuts closed again.
 */
export function cutText(text: string, max: number): string {
  if (shownLength(text) <= max) return text;
  let shown = 0;
  let end = 0;
  for (const piece of pieces(text)) {
    const width = piece.ref ? piece.digits : piece.text.length;
    if (shown + width > max - 1) {
      if (!piece.ref) end += max - 1 - shown;
      break;
    }
    shown += width;
    end += piece.text.length;
  }
  const cut = `${text.slice(0, end)}…`;
  return cut.split('`').length % 2 === 0 ? `${cut}\`` : cut;
}

/** How many characters `text` shows once its references are lines. */
export function shownLength(text: string): number {
  let length = 0;
  for (const piece of pieces(text)) length += piece.ref ? piece.digits : piece.text.length;
  return length;
}

/** The text in plain runs and references, in order. */
function pieces(text: string): Array<{ text: string; ref: boolean; digits: number }> {
  const out: Array<{ text: string; ref: boolean; digits: number }> = [];
  let at = 0;
  for (const m of text.matchAll(ANY_REF)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), ref: false, digits: 0 });
    const digits = (m[1] ?? /\d+/.exec(m[0])![0]).length;
    out.push({ text: m[0], ref: true, digits });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), ref: false, digits: 0 });
  return out;
}
