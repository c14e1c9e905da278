// Markers left in code for a person: `@mrtr-todo(<code>): <why> Next: <what to do>` written
// by this codemod and `@mcp-codemod-error <message>` written by the official v1-to-v2 codemod,
// at the start of a comment line. `check` reports them, the engine reads the official ones.
import type { Comment } from '@babel/types';

/**
 * Quick text test before a file's comments are parsed. Every file of a run is tested: two
 * substring searches take a quarter of the time of the regular expression they replace.
 */
export function mentionsMarker(text: string): boolean {
  return text.includes('@mrtr-todo') || text.includes('@mcp-codemod-error');
}

/** A marker at the start of a comment line (after `//`, `/*`, `*` and spaces). */
const MARKER_START = /^@(mrtr-todo|mcp-codemod-error)(?![\w-])/;

export interface MarkerComment {
  kind: 'todo' | 'official';
  /** Where the `@` of the marker is (1-based line and column). */
  line: number;
  column: number;
  /** For `@mrtr-todo(<code>)`. */
  code?: string;
  /** The marker's text (for a todo marker, up to ` Next:`). */
  reason: string;
  /** For a todo marker: what its ` Next:` says. */
  next?: string;
}

/** The markers a comment holds: each line of it that starts with `@mrtr-todo` or `@mcp-codemod-error`. */
export function markersInComment(comment: Pick<Comment, 'type' | 'value' | 'loc'>): MarkerComment[] {
  const lines = comment.value.split(/\r\n|\r|\n/);
  const block = comment.type === 'CommentBlock';
  const startLine = comment.loc!.start.line;
  const startColumn = comment.loc!.start.column + 2; // after `//` or `/*`
  const out: MarkerComment[] = [];
  lines.forEach((text, i) => {
    const prefix = /^[\s*/!]*/.exec(text)![0];
    const rest = text.slice(prefix.length);
    const match = MARKER_START.exec(rest);
    if (!match) return;
    let body = rest.slice(match[0].length);
    // In a block comment the text may go on over the next lines, up to a blank line or a tag.
    if (block) {
      for (const more of lines.slice(i + 1)) {
        const line = more.replace(/^[\s*]*/, '').trimEnd();
        if (line === '' || line.startsWith('@')) break;
        body += ` ${line}`;
      }
    }
    out.push(parseMarker(match[1] === 'mrtr-todo' ? 'todo' : 'official', body, startLine + i, (i === 0 ? startColumn : 0) + prefix.length + 1));
  });
  return out;
}

/**
 * Markers on the lines that start with a comment, and those lines, read from the text alone:
 * for a file that does not parse, and for the official codemod's markers (which it writes on a
 * line of their own).
 */
export function markersByLines(source: string): { markers: MarkerComment[]; commentLines: Set<number> } {
  const markers: MarkerComment[] = [];
  const commentLines = new Set<number>();
  source.split(/\r\n|\r|\n/).forEach((text, i) => {
    const opener = /^\s*(?:\/\/+|\/\*+|\*+)[\s*/!]*/.exec(text);
    if (!opener) return;
    commentLines.add(i + 1);
    const rest = text.slice(opener[0].length);
    const match = MARKER_START.exec(rest);
    if (!match) return;
    const body = rest.slice(match[0].length).replace(/\*+\/\s*$/, '');
    markers.push(parseMarker(match[1] === 'mrtr-todo' ? 'todo' : 'official', body, i + 1, opener[0].length + 1));
  });
  return { markers, commentLines };
}

function parseMarker(kind: MarkerComment['kind'], body: string, line: number, column: number): MarkerComment {
  if (kind === 'official') return { kind, line, column, reason: body.replace(/^\s*:?\s*/, '').trim() };
  const m = /^\(([^)]*)\)\s*:?\s*([\s\S]*)$/.exec(body) ?? /^\s*:?\s*([\s\S]*)$/.exec(body)!;
  const code = m.length === 3 ? m[1]!.trim() : undefined;
  const text = (m.length === 3 ? m[2]! : m[1]!).trim();
  const cut = /\s*\bNext:\s*/.exec(text);
  const reason = cut ? text.slice(0, cut.index).trim() : text;
  const next = cut ? text.slice(cut.index + cut[0].length).trim() : undefined;
  return { kind, line, column, ...(code ? { code } : {}), reason, ...(next ? { next } : {}) };
}
