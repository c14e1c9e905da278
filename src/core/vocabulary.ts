// The words every layer shares: the kinds of input a server asks for, spans and edits of a
// file's text, and line arithmetic on the original text. Everything the rewriter splices is
// aligned to whole lines so indentation and comments around an edit stay as the user wrote them.

export type InputKind = 'elicit' | 'elicitUrl' | 'sampling' | 'roots';

/** What each kind of input is called in a message (`elicitation request still awaited ...`). */
export const INPUT_KIND_NAMES: Readonly<Record<InputKind, string>> = {
  elicit: 'elicitation',
  elicitUrl: 'URL elicitation',
  sampling: 'sampling',
  roots: 'roots',
};

/** Where the README explains `anchor`, as the npm registry shows it (what reports link to). */
export function readmeUrl(anchor: string): string {
  return `https://www.npmjs.com/package/mrtr-codemod#${anchor}`;
}

/** A range of a text: offsets, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** The text that replaces a span. */
export interface Edit extends Span {
  text: string;
}

/** Offset of the start of the line containing `offset`. */
export function lineStartOf(source: string, offset: number): number {
  const nl = source.lastIndexOf('\n', offset - 1);
  return nl + 1;
}

/** Offset of the `\n` ending the line containing `offset` (or the source length). */
export function lineEndOf(source: string, offset: number): number {
  const nl = source.indexOf('\n', offset);
  return nl === -1 ? source.length : nl;
}

/** The 1-based line of `offset` in `source`. */
export function lineNumberAt(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

export function indentAt(source: string, offset: number): string {
  const start = lineStartOf(source, offset);
  const match = /^[ \t]*/.exec(source.slice(start, offset + 1));
  return match ? match[0] : '';
}

/** True when only whitespace precedes `offset` on its line. */
export function startsLine(source: string, offset: number): boolean {
  return /^[ \t]*$/.test(source.slice(lineStartOf(source, offset), offset));
}

/** What follows `offset` on its line, when it is only whitespace or a line comment. */
export function lineTail(source: string, offset: number): string | undefined {
  const rest = source.slice(offset, lineEndOf(source, offset)).replace(/\r$/, '');
  if (/^\s*$/.test(rest)) return '';
  if (/^\s*\/\/.*$/.test(rest)) return rest.replace(/\s+$/, '');
  return undefined;
}

/** The line ending a file uses: what every line the rewrite adds must use too. */
export function eolOf(source: string): string {
  return source.includes('\r\n') ? '\r\n' : '\n';
}

/** `X` of a `Promise<X>` type's text; undefined for any other type. */
export function promisedType(typeText: string): string | undefined {
  return /^Promise<([\s\S]*)>$/.exec(typeText)?.[1];
}
