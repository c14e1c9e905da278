// What the official v1-to-v2 codemod leaves of a handler's v1 shape, finished where the v2 form is
// known (analyse/v1-leftovers.ts holds the table of each): a context destructured in the
// handler's parameters is destructured from v2's context (`{ sendNotification, _meta }` →
// `{ mcpReq: { notify: sendNotification, _meta } }`: the body is untouched, its names stay bound
// to the same values), and a handler keyed by a zod object of a spec method is keyed by the
// method string. Each rewrite drops the `@mcp-codemod-error` message it answers; a leftover not
// rewritten keeps its marker (a pattern with a key v2 has no place for, a custom method).
import type { Comment, Node } from '@babel/types';
import { analyseIfParses, type FileAnalysis } from '../analyse/analyse-file.ts';
import { isFunction } from '../analyse/ast.ts';
import { schemaKeyedMethod, schemasComparedByWrapper, v1ContextKeys, zodNamespaceNames, type ContextKey } from '../analyse/v1-leftovers.ts';
import { type Edit, eolOf, indentAt, lineEndOf, lineStartOf } from '../core/vocabulary.ts';
import { obsoleteDestructuringMarker, v2ContextProperties } from '../plan/context-parameter.ts';
import { applyEdits } from './rewrite.ts';

/** The official codemod's messages these leftovers carry (the texts of its markers). */
const DESTRUCTURED = 'Destructuring of context parameter in signature';
const NON_STRING_KEY = ' with a non-string first argument: v2 takes a method string';
/** A module that wraps setRequestHandler: what it compares the wrapper's first argument with may be a v1 schema. */
const WRAPS_REGISTRAR = /\.setRequestHandler\s*=[^=]/;

export interface V1LeftoversRewrite {
  output: string;
  /** How many leftovers were rewritten. */
  rewritten: number;
}

/** `source` (the official codemod's output) with the leftovers it marked and v2 has a form for rewritten. */
export function rewriteV1Leftovers(source: string, fileName: string): V1LeftoversRewrite {
  if (!source.includes(DESTRUCTURED) && !source.includes(NON_STRING_KEY) && !WRAPS_REGISTRAR.test(source)) return { output: source, rewritten: 0 };
  const analysis = analyseIfParses(source, fileName);
  if (!analysis) return { output: source, rewritten: 0 };
  const edits = [...contextPatternEdits(analysis), ...schemaKeyEdits(analysis)];
  return { output: applyEdits(source, [...edits.flat(), ...comparedSchemaMarkers(analysis)]), rewritten: edits.length };
}

/** Per handler whose destructured v1 context the codemod marked: the pattern in v2's shape, and the marker gone. */
function contextPatternEdits(analysis: FileAnalysis): Edit[][] {
  const out: Edit[][] = [];
  for (const { node } of analysis.index.calls) {
    for (const argument of node.arguments) {
      if (!isFunction(argument as Node)) continue;
      const pattern = (argument as Extract<Node, { params: unknown }>).params.at(-1);
      if (pattern?.type !== 'ObjectPattern') continue;
      const marker = obsoleteDestructuringMarker(analysis, pattern);
      const keys = marker && v1ContextKeys(pattern);
      if (!marker || !keys) continue;
      out.push([marker, ...v2PatternEdit(analysis.source, keys)]);
    }
  }
  return out;
}

/** The pattern's properties as v2 nests them (v2ContextProperties), in the pattern's own layout. */
function v2PatternEdit(source: string, keys: readonly ContextKey[]): Edit[] {
  const written = v2ContextProperties(source, keys);
  const first = keys[0]!.property;
  const last = keys[keys.length - 1]!.property;
  const oneLine = first.loc!.start.line === last.loc!.end.line;
  const separator = oneLine ? ', ' : `,${eolOf(source)}${indentAt(source, first.start!)}`;
  const replaced = written.join(separator);
  return replaced === source.slice(first.start!, last.end!) ? [] : [{ start: first.start!, end: last.end!, text: replaced }];
}

/** Per `setRequestHandler(z.object({ method: z.literal('m') }), h)` the codemod marked: `setRequestHandler('m', h)`, and the marker gone. */
function schemaKeyEdits(analysis: FileAnalysis): Edit[][] {
  const zod = zodNamespaceNames(analysis.importedNames);
  if (zod.size === 0) return [];
  const out: Edit[][] = [];
  for (const { node } of analysis.index.calls) {
    const keyed = schemaKeyedMethod(node, zod);
    if (!keyed) continue;
    const registrar = (node.callee as { property: { name: string } }).property.name;
    const marker = markerAbove(analysis, node, `${registrar}${NON_STRING_KEY}`);
    if (!marker) continue;
    const schema = node.arguments[0]!;
    out.push([marker, { start: schema.start!, end: schema.end!, text: analysis.source.slice(keyed.literal.start!, keyed.literal.end!) }]);
  }
  return out;
}

/**
 * A marker above each statement that names a v1 request schema for a setRequestHandler wrapper
 * to compare with (schemasComparedByWrapper): v2 hands the wrapper method strings, so the
 * comparison stops matching without an error. A marker already there is not written again.
 */
function comparedSchemaMarkers(analysis: FileAnalysis): Edit[] {
  const { source } = analysis;
  return schemasComparedByWrapper(analysis.program, analysis.importedNames).flatMap(({ statement, name, method }) => {
    const message = `setRequestHandler is wrapped, and v2 hands it method strings: \`${name}\` here matches none — compare with '${method}'`;
    const start = lineStartOf(source, statement.start!);
    if (source.slice(Math.max(0, start - message.length - 40), start).includes(message)) return [];
    return [{ start, end: start, text: `${indentAt(source, statement.start!)}/* @mcp-codemod-error ${message} */${eolOf(source)}` }];
  });
}

/**
 * The edit that drops the official codemod's message starting with `message` from its marker on
 * the line above `node`'s first line: the whole line when that message is all it holds, else
 * that message and one ` | ` separator.
 */
function markerAbove(analysis: Pick<FileAnalysis, 'source' | 'comments'>, node: Node, message: string): Edit | undefined {
  const { source } = analysis;
  const line = node.loc!.start.line;
  const comment = analysis.comments.find((c: Comment) => c.type === 'CommentBlock' && c.loc!.start.line === line - 1 && c.loc!.end.line === line - 1);
  const head = comment && /^\s*@mcp-codemod-error\s+/.exec(comment.value);
  if (!comment || !head) return undefined;
  const messages = comment.value.slice(head[0].length).trimEnd().split(' | ');
  const index = messages.findIndex((m) => m.startsWith(message));
  if (index === -1) return undefined;
  if (messages.length === 1) {
    const end = lineEndOf(source, comment.end!);
    return { start: lineStartOf(source, comment.start!), end: end < source.length ? end + 1 : end, text: '' };
  }
  const left = messages.filter((_, i) => i !== index);
  return { start: comment.start!, end: comment.end!, text: `/* @mcp-codemod-error ${left.join(' | ')} */` };
}
