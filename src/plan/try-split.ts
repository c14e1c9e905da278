// A maybe-ask helper whose question is inside `try { A; <question>; B } catch (e) { C } finally
// { F }; D` (see maybe-ask-split.ts). The request half keeps the try as it was up to the
// question (`return { ask }` in its place): A runs once, on the first round, and when A throws,
// C then D decide without asking, as they did. The result half re-enters the try with what
// followed the question, `try { B } catch (e) { C } finally { F }; D` (no try when nothing of
// its block follows the question), so C catches what B throws, as it did. C and D are written
// in both halves, yet each statement still runs at most once a call: a call that asks runs them
// on the retry only, one that does not on its first round only. What the push API's try also
// saw is gone from the helper: the request's own failure (the handler now asks, and a retry
// without an answer asks again) and the end of the wait. Hence two conditions: a catch clause
// only where the helper checks the client's capabilities before asking (else C was how it met a
// client that cannot answer, which now fails in the handler), and F only when it has no effect,
// for it runs when the first round returns the question and again on the retry.
import type { Node, Statement } from '@babel/types';
import { hasSideEffects } from '../analyse/ast.ts';
import { lineEndOf, lineTail, startsLine, type Span } from '../core/vocabulary.ts';

type TryStatement = Extract<Node, { type: 'TryStatement' }>;

/** Why the question cannot be split out of this try statement (`whose request ...`), given whether the helper reads the client's capabilities before it. */
export function tryProblem(source: string, statement: TryStatement, question: Node, checksCapabilities: boolean): string | undefined {
  const inside = (n: Node | null | undefined) => n !== null && n !== undefined && n.start! <= question.start! && question.end! <= n.end!;
  if (inside(statement.handler)) return 'whose request is in a catch block.';
  if (inside(statement.finalizer)) return 'whose request is in a finally block.';
  // The result half re-enters the try with its own lines: `try {` and `} catch ...` must start theirs.
  if (lineTail(source, statement.block.start! + 1) === undefined || !startsLine(source, statement.block.end! - 1)) {
    return 'whose request is in a try statement whose braces share a line with its statements.';
  }
  const effect = statement.finalizer?.body.find((s) => hasSideEffects(s));
  if (effect) {
    return `whose request is in a try statement whose finally block runs \`${firstLine(source, effect)}\` (line ${effect.loc!.start.line}): it would run when the question is asked and again when the answer comes.`;
  }
  if (statement.handler && !checksCapabilities) {
    const caught = statement.handler.loc!.start.line;
    return `whose request is ${IN_TRY}${statement.loc!.start.line}), whose catch (line ${caught}) took a client that cannot answer it: that client would now fail the handler instead (check the client's capabilities before asking).`;
  }
  return undefined;
}

const IN_TRY = 'in `try` (line ';

/** The line of the try statement a reason of tryProblem's names as what keeps the helper whole, if it names one. */
export function blockingTryLine(why: string): number | undefined {
  const at = why.indexOf(IN_TRY);
  return at === -1 ? undefined : Number.parseInt(why.slice(at + IN_TRY.length), 10);
}

/** The text a result half re-enters a try with: its head (`try {`) and its tail (`} catch (e) { ... }`, to the statement's end). */
export interface TryWrap {
  head: Span;
  tail: Span;
}

export function tryWrap(source: string, statement: Statement): TryWrap | undefined {
  if (statement.type !== 'TryStatement') return undefined;
  const block = statement.block;
  return { head: { start: statement.start!, end: lineEndOf(source, block.start!) }, tail: { start: block.end! - 1, end: statement.end! } };
}

/** What the code after the question runs besides the rest of each list: the catch and finally blocks of a try on the way. */
export function tryClauses(statement: Statement): Statement[] {
  if (statement.type !== 'TryStatement') return [];
  return [...(statement.handler ? [statement.handler.body] : []), ...(statement.finalizer ? [statement.finalizer] : [])];
}

function firstLine(source: string, s: Node): string {
  const text = source.slice(s.start!, Math.min(s.end!, lineEndOf(source, s.start!))).replace(/\r$/, '');
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
