// What check's scan of a run's output needs of its syntax (src/report/check-findings.ts: its
// comments, where each legacy call's statement begins) without parsing the output again, when the run made it from
// the text it parsed with marker lines alone: each splice inserts whole `//` lines at the start
// of a line, outside any comment, string, template or JSX. Comments are not attached to the
// syntax tree and a line break was there already, so the output's tree is the parsed text's
// with its lines moved down: its comments and statements are the parsed text's, shifted, plus the inserted comments.
// A marked file that is not migrated is changed so (most of a `migrate --no-types`' outputs
// with markers), and the summary's next-check would otherwise parse each again.
import type { Comment, Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { children, isStatementLike } from '../analyse/ast.ts';
import type { Edit } from '../core/vocabulary.ts';
import type { ChangedFile } from './run-result.ts';

/** An output's comments, and the first line of each legacy call's statement by the call's `line:column` (column 1-based). */
export interface OutputSyntax {
  output: string;
  comments: Comment[];
  statements: Map<string, number>;
}

/**
 * The syntax the run worked out of its outputs, by changed file (with the text: a later step
 * may replace the output). Kept beside the result, not in it: a caller of the API has no use
 * for it.
 */
export const outputSyntaxes = new WeakMap<ChangedFile, OutputSyntax>();

/** One or more whole lines, each only a `//` comment after its indentation. */
const COMMENT_LINES = /^(?:[ \t]*\/\/[^\n\r\u2028\u2029]*\n)+$/;
/** Nodes whose text a line inserted inside them would join (a string, a template, JSX). */
const OPAQUE = /Literal$|^Template|^TSTemplate|^JSX/;

/** A block of inserted lines: before the line `line` (1-based) of the parsed text, which starts at `at`. */
interface Insertion {
  at: number;
  line: number;
  text: string;
}

/**
 * The syntax of `output`, made by `edits` from the parsed `analysis`; undefined unless every edit
 * inserts only whole comment lines where a line starts outside a comment, string, template or
 * JSX (then parsing `output` would find the same).
 */
export function syntaxOfCommentLines(
  analysis: Pick<FileAnalysis, 'source' | 'program' | 'comments' | 'sites'>,
  edits: readonly Edit[],
  output: string,
): OutputSyntax | undefined {
  const { source } = analysis;
  const lineStarts = lineStartOffsets(source);
  const insertions = insertionsOf(source, lineStarts, edits);
  if (!insertions || !madeBy(output, source, insertions)) return undefined;
  for (const { at } of insertions) {
    if (at === 0 && /^(?:\uFEFF|#!)/.test(source)) return undefined;
    if (analysis.comments.some((c) => c.start! < at && at < c.end!) || insideOpaque(analysis.program, at)) return undefined;
  }
  const lineOf = shiftedLine(insertions);
  const offsetOf = (offset: number) => offset + insertions.filter((i) => i.at <= offset).reduce((n, i) => n + i.text.length, 0);
  const moved = analysis.comments.map((c) => shiftedComment(c, offsetOf, lineOf));
  const inserted = insertions.flatMap((i) => commentsOf(i, offsetOf(i.at) - i.text.length, lineOf(i.line) - lineCount(i.text)));
  const comments = [...moved, ...inserted].sort((a, b) => a.start! - b.start!);
  const statements = new Map<string, number>();
  for (const [key, statementLine] of statementLines(analysis.sites)) {
    const [line, column] = key.split(':');
    statements.set(`${lineOf(Number(line))}:${column}`, lineOf(statementLine));
  }
  return { output, comments, statements };
}

/** Where each legacy call's statement begins: its first line, by the call's `line:column` (column 1-based). */
export function statementLines(sites: FileAnalysis['sites']): Map<string, number> {
  const statements = new Map<string, number>();
  for (const site of sites) {
    const statement = [...site.ancestors].reverse().find(isStatementLike) ?? site.call;
    const { line, column } = site.call.loc!.start;
    statements.set(`${line}:${column + 1}`, statement.loc!.start.line);
  }
  return statements;
}

function lineStartOffsets(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The edits as blocks of comment lines at line starts, in order (those at one place joined); undefined when any is not one. */
function insertionsOf(source: string, lineStarts: readonly number[], edits: readonly Edit[]): Insertion[] | undefined {
  const insertions: Insertion[] = [];
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    if (edit.start !== edit.end || (edit.start > 0 && source.charCodeAt(edit.start - 1) !== 10) || !COMMENT_LINES.test(edit.text)) return undefined;
    const last = insertions[insertions.length - 1];
    if (last?.at === edit.start) return undefined; // two at one place: their order is the rewrite's
    insertions.push({ at: edit.start, line: lineIndexOf(lineStarts, edit.start) + 1, text: edit.text });
  }
  return insertions.length > 0 ? insertions : undefined;
}

/** Whether `output` is `source` with the insertions made. */
function madeBy(output: string, source: string, insertions: readonly Insertion[]): boolean {
  let from = 0;
  let to = 0;
  for (const { at, text } of insertions) {
    if (!output.startsWith(source.slice(from, at), to)) return false;
    to += at - from;
    if (!output.startsWith(text, to)) return false;
    to += text.length;
    from = at;
  }
  return output.length - to === source.length - from && output.endsWith(source.slice(from));
}

/** Whether `at` is strictly inside a string, template or JSX node. */
function insideOpaque(node: Node, at: number): boolean {
  for (const child of children(node)) {
    if (child.start! < at && at < child.end!) return OPAQUE.test(child.type) || insideOpaque(child, at);
  }
  return false;
}

/** A line of the parsed text to its line in the output. */
function shiftedLine(insertions: readonly Insertion[]): (line: number) => number {
  return (line) => line + insertions.filter((i) => i.line <= line).reduce((n, i) => n + lineCount(i.text), 0);
}

function shiftedComment(comment: Comment, offsetOf: (offset: number) => number, lineOf: (line: number) => number): Comment {
  const { start, end } = comment.loc!;
  return {
    ...comment,
    start: offsetOf(comment.start!),
    end: offsetOf(comment.end!),
    loc: {
      ...comment.loc!,
      start: { ...start, line: lineOf(start.line), index: offsetOf(start.index) },
      end: { ...end, line: lineOf(end.line), index: offsetOf(end.index) },
    },
  };
}

/** The `//` comments of an inserted block that starts at `offset`, on line `line`, of the output. */
function commentsOf(insertion: Insertion, offset: number, line: number): Comment[] {
  const comments: Comment[] = [];
  let at = offset;
  insertion.text
    .slice(0, -1)
    .split('\n')
    .forEach((text, i) => {
      const column = text.indexOf('//');
      const value = text.slice(column + 2);
      const start = { line: line + i, column, index: at + column };
      const end = { line: line + i, column: text.length, index: at + text.length };
      comments.push({ type: 'CommentLine', value, start: start.index, end: end.index, loc: { start, end, filename: '', identifierName: undefined } });
      at += text.length + 1;
    });
  return comments;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The 0-based line of `offset`. */
function lineIndexOf(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
