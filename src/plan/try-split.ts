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
// for it runs when the first round returns the question and again on the retry -- unless it
// releases what the code before the try acquired (`const stop = startHeartbeat(); try { ... }
// finally { stop(); }`): then it is the request half's alone. That half acquires, asks and
// releases on the first round; the result half, which cannot see the acquired locals, re-enters
// the try without it. The pair is kept rather than dropped: the codemod cannot tell an
// acquisition that only spans the wait (a heartbeat, a spinner) from one the code before the
// question needs (a lock, a connection), and keeping it still runs each statement at most once.
// What changes is when the release runs: as the question is returned, no longer after the answer.
import type { Node, Statement } from '@babel/types';
import { boundNames, hasSideEffects, isFunction, isNonReferencePosition, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import { TS_TYPES } from '../analyse/babel.cjs';
import { lineEndOf, lineTail, startsLine, type Span } from '../core/vocabulary.ts';
import { declaredBy } from './liveness.ts';
import { lineOf, NAMED_LINE } from '../core/line-refs.ts';

type TryStatement = Extract<Node, { type: 'TryStatement' }>;
type Block = Extract<Node, { type: 'BlockStatement' }>;

/**
 * Why the question cannot be split out of this try statement (`whose request ...`), given whether
 * the helper reads the client's capabilities before it and whether its finally block releases
 * what the code before the try acquired (see releasedLocals).
 */
export function tryProblem(source: string, statement: TryStatement, question: Node, checksCapabilities: boolean, releases = false): string | undefined {
  const inside = (n: Node | null | undefined) => n !== null && n !== undefined && n.start! <= question.start! && question.end! <= n.end!;
  if (inside(statement.handler)) return 'whose request is in a catch block.';
  if (inside(statement.finalizer)) return 'whose request is in a finally block.';
  // The result half re-enters the try with its own lines: `try {` and `} catch ...` must start theirs.
  if (lineTail(source, statement.block.start! + 1) === undefined || !startsLine(source, statement.block.end! - 1)) {
    return 'whose request is in a try statement whose braces share a line with its statements.';
  }
  const effect = statement.finalizer?.body.find((s) => hasSideEffects(s));
  if (effect && !releases) {
    return `whose request is in a try statement whose finally block runs ${quotedLine(source, effect)}: it would run when the question is asked and again when the answer comes.`;
  }
  // The result half re-enters the try without its finally: the catch block must end its own line.
  if (releases && statement.handler && !startsLine(source, statement.handler.body.end! - 1)) {
    return 'whose request is in a try statement whose catch block ends on a line with other code.';
  }
  if (statement.handler && !checksCapabilities) {
    const caught = lineOf(statement.handler);
    return `whose request is ${IN_TRY}${lineOf(statement)}), whose catch (line ${caught}) took a client that cannot answer it: that client would now fail the handler instead (check the client's capabilities before asking).`;
  }
  return undefined;
}

const IN_TRY = 'in `try` (line ';

/** The line of the try statement a reason of tryProblem's names as what keeps the helper whole, if it names one. */
export function blockingTryLine(why: string): number | undefined {
  const at = why.indexOf(IN_TRY);
  const line = at === -1 ? undefined : new RegExp(`^${NAMED_LINE}`).exec(why.slice(at + IN_TRY.length));
  return line ? Number(line[1]) : undefined;
}

/** The text a result half re-enters a try with: its head (`try {`) and its tail (`} catch (e) { ... }`, to the statement's end). */
export interface TryWrap {
  head: Span;
  tail: Span;
}

export function tryWrap(source: string, statement: Statement, released = false): TryWrap | undefined {
  if (statement.type !== 'TryStatement') return undefined;
  const block = statement.block;
  const head = { start: statement.start!, end: lineEndOf(source, block.start!) };
  if (!released) return { head, tail: { start: block.end! - 1, end: lineEndOf(source, statement.end!) } };
  // A finally the request half keeps is left out: the try ends with its catch block, or is not re-entered at all.
  return statement.handler ? { head, tail: { start: block.end! - 1, end: statement.handler.end! } } : undefined;
}

/** What the code after the question runs besides the rest of each list: the catch and finally blocks of a try on the way (the finally unless released). */
export function tryClauses(statement: Statement, released = false): Statement[] {
  if (statement.type !== 'TryStatement') return [];
  return [...(statement.handler ? [statement.handler.body] : []), ...(statement.finalizer && !released ? [statement.finalizer] : [])];
}

/**
 * The locals a finally block releases, when all it does is release what the helper's statements
 * before the try (`prefix`) declared: each of its statements reads such a local, every other
 * local of the helper it names is its own, a name from outside the helper is only called
 * (`clearInterval(timer)`), and it neither uses `this` nor leaves the block (return, throw,
 * break). Undefined when it is not such a release. Such a block touches nothing the result half
 * can see, so it belongs to the request half alone.
 */
export function releasedLocals(fn: FunctionNode, finalizer: Block, prefix: readonly Statement[]): string[] | undefined {
  const acquired = new Set(prefix.flatMap((s) => declaredBy(s).map((d) => d.name)));
  const own = declaredIn(finalizer);
  const helpers = new Set([...fn.params.flatMap((p) => boundNames(p).map((b) => b.name)), ...declaredIn(fn.body)]);
  const effects = finalizer.body.filter((s) => hasSideEffects(s));
  if (effects.length === 0 || effects.some((s) => ![...referencedNames(s)].some((n) => acquired.has(n)))) return undefined;
  let foreign = false;
  walk(finalizer, (node) => {
    if (isFunction(node)) return false;
    if (/^(Return|Throw|Break|Continue)Statement$/.test(node.type)) foreign = true;
    return undefined;
  });
  // `this` in an arrow function is the helper's.
  walk(finalizer, (node) => (isFunction(node) && node.type !== 'ArrowFunctionExpression' ? false : void (node.type === 'ThisExpression' && (foreign = true))));
  for (const name of referencedNames(finalizer)) {
    if (acquired.has(name) || own.has(name)) continue;
    if (helpers.has(name) || !onlyCalled(finalizer, name)) foreign = true;
  }
  return foreign ? undefined : [...referencedNames(finalizer)].filter((n) => acquired.has(n) && !own.has(n));
}

/** Whether every use of `name` under `node` is as the callee of a call (`name(...)`). */
function onlyCalled(node: Node, name: string): boolean {
  let other = false;
  walk(node, (current, parents) => {
    if (TS_TYPES.has(current.type)) return false;
    const parent = parents[parents.length - 1];
    const called = parent?.type === 'CallExpression' && parent.callee === current;
    if (current.type === 'Identifier' && current.name === name && !called && !(parent && isNonReferencePosition(current, parent))) other = true;
    return undefined;
  });
  return !other;
}

/** Every name a declaration under `node` binds, in whatever scope (a shadow anywhere counts). */
export function declaredIn(node: Node): Set<string> {
  const names = new Set<string>();
  walk(node, (n) => {
    if (n.type === 'VariableDeclarator') for (const b of boundNames(n.id)) names.add(b.name);
    if ((n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') && n.id) names.add(n.id.name);
    if (isFunction(n)) for (const p of n.params) for (const b of boundNames(p)) names.add(b.name);
    if (n.type === 'CatchClause' && n.param) for (const b of boundNames(n.param)) names.add(b.name);
    return undefined;
  });
  return names;
}

/** A statement as a reason quotes it: its first line (cut at 60 characters) and its line as the user will read it (core/line-refs.ts). */
export function quotedLine(source: string, s: Node): string {
  const text = source.slice(s.start!, Math.min(s.end!, lineEndOf(source, s.start!))).replace(/\r$/, '');
  return `\`${text.length > 60 ? `${text.slice(0, 57)}…` : text}\` (line ${lineOf(s)})`;
}

/** Whether a list, read up to a `questions` statement (which returns the question), ends by returning or throwing on every path. */
export function endsExiting(list: readonly Statement[], questions: ReadonlySet<Statement>): boolean {
  const last = list.find((s) => questions.has(s)) ?? list[list.length - 1];
  return last !== undefined && exits(last, questions);
}

export function exits(s: Statement, questions: ReadonlySet<Statement>): boolean {
  if (questions.has(s) || s.type === 'ReturnStatement' || s.type === 'ThrowStatement') return true;
  if (s.type === 'BlockStatement') return endsExiting(s.body, questions);
  if (s.type === 'TryStatement')
    return (
      (s.finalizer !== null && s.finalizer !== undefined && endsExiting(s.finalizer.body, questions)) ||
      (endsExiting(s.block.body, questions) && (!s.handler || endsExiting(s.handler.body.body, questions)))
    );
  return s.type === 'IfStatement' && s.alternate !== null && s.alternate !== undefined && exits(s.consequent, questions) && exits(s.alternate, questions);
}
