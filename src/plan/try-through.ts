// A call of an inner maybe-ask helper (maybe-ask-through.ts) alone in a try whose catch leaves
// the helper on every path: `try { v = await inner(...); } catch (e) { C }` then D. The request
// half keeps the try around the inner request half, and goes on after it (`return 'ask' in o ?
// o : { value: xThen(o.value) }`), so D, which `xThen` runs, is never inside the try; the result
// half runs the inner result half in that try again (`try { v = innerResult(answer); } catch (e)
// { C }`) and goes on the same way. C runs at most once a call: on the first round when the inner
// request half throws, on the retry when the inner result half does. Anything else in the try,
// a finally block, a catch that can fall through to D, or one that reads a local of the helper
// keeps the helper whole.
import type { Node, Statement } from '@babel/types';
import { boundNames, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { lineOf } from '../core/line-refs.ts';
import { type Edit, type Span, indentAt, lineEndOf, lineStartOf, lineTail, startsLine } from '../core/vocabulary.ts';
import { declaredIn, endsExiting } from './try-split.ts';
import { OUTCOME } from './maybe-ask-through.ts';

export type TryStatement = Extract<Node, { type: 'TryStatement' }>;

/** What the result half holds the inner value in while it is in the try. */
export const CAUGHT_VALUE = 'mrtrValue';

/** One list on the way to the call (maybe-ask-point.ts's Step, what this reads of it). */
interface OnTheWay {
  list: Statement[];
  index: number;
  block?: Node;
  guard?: Node;
  lifted?: Node;
}

/**
 * The try around a call of an inner maybe-ask helper, when the call can be split out of it;
 * why not (`whose ...`); or undefined when no try is on the way. `checksCapabilities`: the
 * helper, or the inner one's request half, reads the client's capabilities before asking.
 */
export function caughtThrough(
  source: string,
  fn: FunctionNode,
  path: readonly OnTheWay[],
  site: LegacySite,
  checksCapabilities: boolean,
): TryStatement | string | undefined {
  const tries = path.map((s) => s.list[s.index]!).filter((s): s is TryStatement => s.type === 'TryStatement');
  if (tries.length === 0) return undefined;
  const statement = tries[0]!;
  const inner = `\`${site.via!.helper}()\``;
  const at = `whose try at line ${lineOf(statement)}`;
  const outer = path[path.length - 2];
  const alone = tries.length === 1 && outer?.list[outer.index] === statement && statement.block.body.length === 1;
  if (!alone || path[path.length - 1]!.guard || path[path.length - 1]!.lifted) return `${at} holds more than ${inner}.`;
  if (statement.finalizer) return `${at} has a finally block around the call of ${inner}.`;
  const handler = statement.handler;
  if (!handler) return `${at} has no catch block.`;
  if (!endsExiting(handler.body.body, new Set()))
    return `${at} has a catch block (line ${lineOf(handler)}) that can go on after the try: leave the helper at its end (return or throw).`;
  if (
    !outer.block ||
    !startsLine(source, statement.start!) ||
    lineTail(source, statement.block.start! + 1) === undefined ||
    !startsLine(source, statement.block.end! - 1)
  )
    return `${at} shares a line with other code: put its braces on their own lines.`;
  if (!startsLine(source, handler.body.end! - 1) || lineTail(source, handler.end!) === undefined)
    return `${at} ends its catch block on a line with other code.`;
  // The result half writes the catch block again at its own indentation: a literal's lines would change.
  if (multilineLiteral(handler.body)) return `${at} has a catch block with a template literal over several lines.`;
  const local = helperLocalRead(fn, handler);
  if (local) return `${at} has a catch block that reads \`${local}\`, a local of the helper, which the retry does not have.`;
  if (!checksCapabilities)
    return `${at} took a client that cannot answer ${inner}'s request in its catch block (line ${lineOf(handler)}): that client would now fail the handler instead (check the client's capabilities before asking).`;
  return statement;
}

function multilineLiteral(node: Node): boolean {
  let found = false;
  walk(node, (n) => void (n.type === 'TemplateLiteral' && n.loc!.start.line !== n.loc!.end.line && (found = true)));
  return found;
}

/** A local of the helper (not a parameter) the catch block reads but does not declare. */
function helperLocalRead(fn: FunctionNode, handler: NonNullable<TryStatement['handler']>): string | undefined {
  const own = new Set([...(handler.param ? boundNames(handler.param).map((b) => b.name) : []), ...declaredIn(handler.body)]);
  const locals = declaredIn(fn.body);
  return [...referencedNames(handler.body)].find((n) => locals.has(n) && !own.has(n));
}

/** The names the catch block reads: the result half that runs it again takes those of the helper's parameters. */
export function caughtReads(statement: TryStatement): Set<string> {
  return referencedNames(statement.handler!.body);
}

/**
 * The request half's edits at the point: `let mrtrOutcome;` before the try, the call made the
 * inner request half's (`mrtrOutcome = await xRequest(...);`), and after the try, going on
 * (`passed`, passedOn's lines: the outcome, then the return).
 */
export function caughtRequestEdits(source: string, statement: TryStatement, call: Statement, passed: readonly string[]): { edits: Edit[]; span: Span } {
  const indent = indentAt(source, statement.start!);
  const declared = passed[0]!.replace(/^const /, '');
  const going = passed.slice(1);
  const after = lineEndOf(source, statement.end!);
  return {
    edits: [
      { start: statement.start!, end: statement.start!, text: `let ${OUTCOME};\n${indent}` },
      { start: call.start!, end: call.end!, text: declared },
      { start: after, end: after, text: going.map((l) => `\n${indent}${l}`).join('') },
    ],
    span: { start: call.start!, end: call.end! },
  };
}

/** How the result half re-enters the try: its `try {` line, then the catch block's lines, and the indentation they are at. */
export interface CaughtWrap {
  head: Span;
  tail: Span;
  /** The try's indentation, and its block's. */
  indent: string;
  inner: string;
}

export function caughtWrap(source: string, statement: TryStatement): CaughtWrap {
  return {
    head: { start: statement.start!, end: lineEndOf(source, statement.block.start!) },
    tail: { start: lineStartOf(source, statement.block.end! - 1), end: lineEndOf(source, statement.end!) },
    indent: indentAt(source, statement.start!),
    inner: indentAt(source, statement.block.body[0]!.start!),
  };
}
