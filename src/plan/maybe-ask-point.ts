// One point a maybe-ask helper asks at (maybe-ask-split.ts), planned: the way from the helper's
// body down to the statement that asks, how that statement takes the answer, the code the retry
// runs after it, and the names each half reads. A helper that may ask at one of several points
// (maybe-ask-points.ts) plans each point so, told of the others: their statements leave the
// request half too.
import type { Node, Statement } from '@babel/types';
import { annotatedType, argumentParams, boundNames, isFunction, isNonReferencePosition, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import { TS_TYPES } from '../analyse/babel.cjs';
import { isConnectionCapabilitiesRead } from '../analyse/capability-reads.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { codeSnippet } from '../core/escape.ts';
import { type Edit, type Span, lineEndOf, lineStartOf, promisedType, startsLine } from '../core/vocabulary.ts';
import { assignedAnswer, type AssignedAnswer } from './assigned-answer.ts';
import { resultPrefix, type PurityContext, type ResultPrefix } from './helper-locals.ts';
import { LIFTED, liftedAwait, liftedText } from './lifted-await.ts';
import { innerValueType, thenNames as thenParamNames } from './maybe-ask-through.ts';
import { caughtReads, caughtThrough, type TryStatement } from './try-through.ts';
import { paramNames } from './param-patterns.ts';
import type { TypeNames } from './server-type-names.ts';
import { CARRIED, carriedRead, carriedThrough, namesOf, requestHalf } from './split-helper.ts';
import { answerBinding, type Answer, type Holder } from './helper-holder.ts';
import { exits, quotedLine, releasedLocals, tryClauses, tryProblem } from './try-split.ts';
import { lineOf } from '../core/line-refs.ts';
import { answerNames, returnsMaybeThenable } from './thenable.ts';

/** One list on the way from the helper's body to its question: the statement of it on the way, and the compound that holds the next list. */
export interface Step {
  list: Statement[];
  index: number;
  /** The `{` ... `}` of the list (undefined for an if-branch written without braces). */
  block?: Node;
  /** The statement is a try whose finally block releases these locals, acquired before it: the request half's alone (try-split.ts). */
  released?: string[];
  /** The statement is an if whose test awaits the question first (lifted-await.ts): the code after it starts with that if, reading the value (`replaced`). */
  lifted?: Node;
  replaced?: Edit;
  /** `guard && <test>`: the request half asks inside `if (guard)`, and goes on after the if when it did not hold. */
  guard?: Node;
}

/** A point planned: what the halves are made of there (`that ...` reasons are refusals). */
export interface PointPlan {
  site: LegacySite;
  path: Step[];
  /** The statement that asks (its question, or the call of an inner helper). */
  statement: Statement;
  lift: ReturnType<typeof liftedAwait>;
  answer: Answer;
  assigned: AssignedAnswer | undefined;
  /** Asked through an inner helper that may answer without asking; `goesOn` when this one uses its value (`xThen`). */
  through: boolean;
  /** The try the call of the inner helper is alone in (try-through.ts). */
  caught?: TryStatement;
  goesOn: boolean;
  /** What the inner helper carries, handed on by this one's result half. */
  handedOn: { type?: string } | undefined;
  innerType: string | undefined;
  /** The statements the retry runs after the answer, and the inner result call this one's result half makes (`wrap`). */
  after: Statement[];
  wrap: readonly [string, string] | undefined;
  thenNames: Set<string>;
  afterNames: Set<string>;
  prefix: ResultPrefix;
  request: { text: string; names: Set<string> };
  /** The names the result half reads; those `xThen` reads, and the parameters it takes. */
  resultNames: Set<string>;
  thenReads: Set<string>;
  thenUsed: boolean[];
  thenArgs: string[];
  /** What the request half reads at this point besides the helper's code outside the points. */
  requestOwn: Set<string>;
  identity: boolean;
  resultType: string;
  thenAwaits: boolean;
  innerAwaits: boolean;
}

/** The function a point is in, its declaration, and the points beside it (`others`: their lines leave the request half; `questions`: their statements end it). */
export interface PointContext {
  source: string;
  fn: FunctionNode;
  holder: Holder;
  types: TypeNames | undefined;
  purity: PurityContext;
  others: readonly Span[];
  questions: ReadonlySet<Statement>;
  /** The helper carries something at every point (which point asked): an inner helper's carried locals go beside it. */
  carries: boolean;
}

/** The plan of the point `site` asks at, or why the helper cannot be split there (`it is a helper ...`). */
export function planPoint(context: PointContext, site: LegacySite): PointPlan | string {
  const { source, fn, types } = context;
  const path = pathTo(source, fn, site);
  if (typeof path === 'string') return `it is a helper ${path}`;
  const question = path[path.length - 1]!;
  const statement = question.list[question.index]!;
  const taken = answerTaken(context, site, path);
  if (typeof taken === 'string') return taken;
  const { lift, replaced, answer, assigned } = taken;
  // An inner helper that may answer without asking hands this one its question or its value.
  const through = site.via?.maybeAsk === true;
  const caught = through ? caughtThrough(source, fn, path, site, readsCapabilities(fn.body) || site.via?.takesContext === true) : undefined;
  if (typeof caught === 'string') return `it is a helper ${caught}`;
  // An inner helper's carried locals: this one's result half takes them and hands them on.
  const handedOn = site.via?.carried;
  const handable = handedOn && through && site.via!.result[1].endsWith(`${carriedRead(handedOn.type)})`);
  if (handedOn && (!handable || (handedOn.type !== undefined && !primitiveFields(handedOn.type)))) return `it is a helper ${carriedThrough(site.via!.helper)}`;
  const goesOn = through && answer.form === 'declare';
  // The request half goes on after the try: only a value it goes on with, at the helper's one point.
  if (caught && (!goesOn || context.others.length > 0 || context.questions.size > 0))
    return `it is a helper whose try at line ${lineOf(caught)} ${goesOn ? 'holds one of several questions' : `hands on what \`${site.via!.helper}()\` resolves to`}.`;
  const innerType = goesOn && types ? innerValueType(site, types) : undefined;
  if (goesOn && types && innerType === undefined) return `it is a helper whose value from \`${site.via!.helper}()\` has no type it can name.`;
  const after = through && !goesOn ? [] : continuation(path, !through && site.via !== undefined && site.via.result.join('') !== '');
  const wraps = site.via !== undefined && (site.via.result[0] !== '' || site.via.result[1] !== '');
  // The lifted await is the question's (or the inner helper's): the code after it reads its value instead.
  const thenNames = new Set(after.flatMap((n) => [...(n === statement && replaced ? namesOutside(n, [replaced]) : referencedNames(n))]));
  const afterNames = new Set([...thenNames, ...(wraps ? namesOf(site.via!.resultArgs) : [])]);
  const releasedRead = releasedAfter(source, path, afterNames);
  if (releasedRead) return `it is a helper ${releasedRead}`;
  // An answer assigned to a local declared before the question is the result half's parameter, not a local to derive again.
  const prefix = resultPrefix(
    context.purity,
    fn,
    path,
    after,
    new Set([...afterNames].filter((n) => !assigned || n !== assigned.answer.name)),
    !through || goesOn,
  );
  if (typeof prefix === 'string') return `it is a helper ${prefix}`;
  // What the inner helper carries travels beside this one's own carried locals, if any, under their name.
  const wrap = wraps ? handingOn(site.via!.result, handedOn, context.carries || prefix.carried.length > 0) : undefined;
  const why = afterProblem(context, path, prefix.statements, after);
  if (why) return `it is a helper ${why}`;
  const request = requestHalf(source, site);
  const rederivedNames = prefix.statements.flatMap((s) => [...referencedNames(s)]);
  const thenReads = new Set([...thenNames, ...rederivedNames]);
  const thenUsed = argumentParams(fn)
    .map(paramNames)
    .map((names) => names.some((n) => thenReads.has(n)));
  const thenArgs = thenParamNames(fn, thenUsed, thenReads);
  return {
    site,
    path,
    statement,
    lift,
    answer,
    assigned,
    through,
    ...(caught ? { caught } : {}),
    goesOn,
    handedOn,
    innerType,
    after,
    wrap,
    thenNames,
    afterNames,
    prefix,
    request,
    resultNames: new Set([...afterNames, ...rederivedNames, ...(caught ? caughtReads(caught) : [])]),
    thenReads,
    thenUsed,
    thenArgs,
    requestOwn: new Set([...request.names, ...(goesOn ? thenArgs : []), ...(lift?.guard ? referencedNames(lift.guard) : [])]),
    identity: answer.form === 'return' && !wrap,
    resultType: site.shape.resultType ?? KINDS[site.kind!].resultType,
    // What the helper awaited after its question runs in its result half, on the round that
    // receives the answer; so does a promise it returned, which the async helper resolved.
    thenAwaits: awaitsIn(after, lift?.lifted) || (fn.async === true && returnsMaybeThenable(after, context.purity.facts, answerNames(statement, site))),
    innerAwaits: site.via?.asyncResult === true,
  };
}

/** How the point's statement takes the answer: bound, assigned to a local declared before, or the value of a lifted await; or why none. */
function answerTaken(
  context: PointContext,
  site: LegacySite,
  path: Step[],
): { lift: PointPlan['lift']; replaced: Edit | undefined; answer: Answer; assigned: AssignedAnswer | undefined } | string {
  const { source, fn } = context;
  const question = path[path.length - 1]!;
  const statement = question.list[question.index]!;
  const lift = liftedAwait(statement, site.call);
  const asks = site.via ? `\`${site.via.helper}()\`` : 'its request';
  const line = lineOf(statement);
  if (lift && !startsLine(source, statement.start!))
    return `it is a helper whose line ${line} awaits ${asks} in the test of an if that does not start its line.`;
  const replaced = lift && liftedText(source, statement, lift);
  if (replaced && source.slice(replaced.start, replaced.end).includes('\n'))
    return `it is a helper whose line ${line} awaits ${asks} over several lines in an if's test.`;
  if (lift) Object.assign(question, lift, { replaced });
  const questions = new Set([...context.questions, ...(lift?.guard ? [] : [statement])]);
  const bound = lift ? ({ form: 'declare', name: LIFTED } as const) : answerBinding(statement, site.call, source);
  const requestReads = (outside: Span[]) => namesOutside(fn.body, [...outside, ...context.others, ...removedAfter(source, path, questions)]);
  const prefix = path.flatMap((st) => st.list.slice(0, st.index));
  const assigned = bound ? undefined : assignedAnswer(source, statement, site.call, prefix, requestReads);
  if (typeof assigned === 'string') return `it is a helper ${assigned}`;
  const answer = bound ?? assigned?.answer;
  if (!answer)
    return `it is a helper whose line ${line} awaits ${asks} inside an expression: \`${codeSnippet(source.slice(statement.start!, statement.end!), 40)}\`.`;
  return { lift, replaced: replaced || undefined, answer, assigned };
}

/** Why the code after the point (and what its result half derives again) cannot be the result half (`that ...`). */
function afterProblem(context: PointContext, path: readonly Step[], rederived: readonly Statement[], after: readonly Statement[]): string | undefined {
  const { source, fn, holder } = context;
  const why = continuationProblem(fn, path, rederived, after, holder.method) ?? capabilitiesAfter(after);
  if (why) return why;
  const releasedRederived = releasedAfter(source, path, new Set(rederived.flatMap((s) => [...referencedNames(s)])));
  if (releasedRederived) return releasedRederived;
  const shared = rederived.find((s) => !startsLine(source, s.start!));
  return shared
    ? `whose code after its request reads what \`${codeSnippet(source.slice(shared.start!, shared.end!), 60)}\` derives, written on a line after other code.`
    : undefined;
}

/** What the request half reads: the helper's code outside the points' statements and the lines they remove, and what each point reads. */
export function requestNamesOf(source: string, fn: FunctionNode, points: readonly PointPlan[]): Set<string> {
  const questions = pointQuestions(points);
  const spans = points.flatMap((p) => [statementSpan(p.statement), ...removedAfter(source, p.path, questions)]);
  return new Set([...namesOutside(fn.body, spans), ...points.flatMap((p) => [...p.requestOwn])]);
}

/** The points' statements that end the request half where they are (`return { ask }`): those not asked under a guard, which goes on when it does not hold. */
export function pointQuestions(points: readonly PointPlan[]): Set<Statement> {
  return new Set(points.filter((p) => !p.path[p.path.length - 1]!.guard).map((p) => p.statement));
}

/** The helper's value type, as its return type writes it in a typed file (its request half needs it); undefined in JavaScript. */
export function valueTypeOf(source: string, fn: FunctionNode, typed: boolean): string | undefined | false {
  if (!typed) return undefined;
  const type = annotatedType(fn.returnType);
  return promisedType(type ? source.slice(type.start!, type.end!) : '') ?? false;
}

/** The lists from the helper's body down to the statement that asks, or why the question cannot be reached so (`that ...`). */
export function pathTo(source: string, fn: FunctionNode, site: LegacySite): Step[] | string {
  const steps: Step[] = [];
  const body = fn.body as Extract<Node, { type: 'BlockStatement' }>;
  let list: Statement[] = body.body;
  let braces: Node | undefined = body;
  const within = (n: Node | null | undefined) => n !== null && n !== undefined && n.start! <= site.call.start! && site.call.end! <= n.end!;
  for (;;) {
    const index = list.findIndex(within);
    const s = list[index];
    if (!s) return 'whose request is not in a statement of its own.';
    const step: Step = { list, index, ...(braces ? { block: braces } : {}) };
    steps.push(step);
    const child = (next: Node) => {
      braces = next.type === 'BlockStatement' ? next : undefined;
      list = next.type === 'BlockStatement' ? next.body : [next as Statement];
    };
    if (s.type === 'IfStatement' && !within(s.test)) child(within(s.consequent) ? s.consequent : s.alternate!);
    else if (s.type === 'BlockStatement') child(s);
    else if (s.type === 'TryStatement') {
      const released = s.finalizer
        ? releasedLocals(
            fn,
            s.finalizer,
            steps.flatMap((st) => st.list.slice(0, st.index)),
          )
        : undefined;
      // A call of an inner maybe-ask helper in a try is refused as such (throughProblem).
      const why = site.via?.maybeAsk ? undefined : tryProblem(source, s, site.call, readsCapabilities(fn.body), released !== undefined);
      if (why) return why;
      if (released) step.released = released;
      child(s.block);
    } else if (/Loop|While|For|Switch|Labeled/.test(s.type) || s.type === 'DoWhileStatement') return 'whose request is in a loop or a switch.';
    else return steps;
  }
}

/**
 * The statements the retry runs after the answer: the rest of each list on the way, innermost
 * first, with the catch and finally blocks of a try on the way that something after the
 * question (or the answer's wrapping, `wrapped`) runs inside.
 */
export function continuation(path: readonly Step[], wrapped: boolean): Statement[] {
  const out: Statement[] = [];
  for (let k = path.length - 1; k >= 0; k--) {
    const step = path[k]!;
    if (out.length > 0 || wrapped) out.push(...tryClauses(step.list[step.index]!, step.released !== undefined));
    out.push(...step.list.slice(step.lifted ? step.index : step.index + 1));
  }
  return out;
}

/**
 * The whole lines after the question in its own list (the request half ends with the question),
 * and after each block around it that can only be left through the question's return or
 * another exit (`try { ...; <question> } finally { ... }`): what follows such a block is dead.
 */
export function removedAfter(source: string, path: readonly Step[], questions: ReadonlySet<Statement>): Span[] {
  const question = path[path.length - 1]!;
  // Asked under a guard (`if (guard) { <question> }`), the code after the if still runs when it did not hold.
  if (question.guard) return [];
  const spans: Span[] = [];
  for (let k = path.length - 1; k >= 0; k--) {
    const step = path[k]!;
    const s = step.list[step.index]!;
    if (k < path.length - 1 && !exits(s, questions)) break;
    if (step.index + 1 < step.list.length && step.block) spans.push({ start: lineEndOf(source, s.end!) + 1, end: lineStartOf(source, step.block.end! - 1) });
  }
  return spans;
}

export function statementSpan(statement: Statement): Span {
  return { start: statement.start!, end: statement.end! };
}

/** The names `node` reads outside the spans given (what the request half, which leaves them out, reads). */
export function namesOutside(node: Node, spans: readonly Span[]): Set<string> {
  const names = new Set<string>();
  walk(node, (current, parents) => {
    if (TS_TYPES.has(current.type) || spans.some((s) => s.start <= current.start! && current.end! <= s.end)) return false;
    const parent = parents[parents.length - 1];
    if (current.type === 'Identifier' && !(parent && isNonReferencePosition(current, parent))) names.add(current.name);
    return undefined;
  });
  return names;
}

/**
 * Why the code after the question cannot be the result half when it reads the client's
 * capabilities: the retry that runs it has no first call's context to read them from.
 */
function capabilitiesAfter(after: readonly Node[]): string | undefined {
  return after.some((n) => readsCapabilities(n)) ? "that reads the client's capabilities after its request." : undefined;
}

/** Why a finally block the request half keeps cannot be its alone: the code after the question reads what it releases. */
function releasedAfter(source: string, path: readonly Step[], read: ReadonlySet<string>): string | undefined {
  for (const step of path) {
    const name = step.released?.find((n) => read.has(n));
    if (name === undefined) continue;
    const statement = step.list[step.index] as Extract<Statement, { type: 'TryStatement' }>;
    const release = statement.finalizer!.body.find((s) => referencedNames(s).has(name))!;
    return `whose request is in a try statement whose finally block runs ${quotedLine(source, release)}, which releases \`${name}\`: the code after its request reads it.`;
  }
  return undefined;
}

/** Whether code reads the connection's client capabilities (`server.getClientCapabilities()`). */
export function readsCapabilities(node: Node): boolean {
  let found = false;
  walk(node, (n) => void (isConnectionCapabilitiesRead(n) && (found = true)));
  return found;
}

/**
 * Why the code after the question (with what it derives again) cannot be the result half (`that
 * ...`): it uses `this`, or reads a parameter changed before. (What it awaits is awaited there,
 * in an async result half; what it derives again does not await: helper-locals.ts.)
 */
function continuationProblem(
  fn: FunctionNode,
  path: readonly Step[],
  rederived: readonly Statement[],
  after: readonly Statement[],
  method: boolean,
): string | undefined {
  let usesThis = false;
  for (const n of [...rederived, ...after])
    walk(n, (node) => (isFunction(node) && node.type !== 'ArrowFunctionExpression' ? false : void (node.type === 'ThisExpression' && (usesThis = true))));
  if (usesThis && !method) return 'that uses `this` after its request.';
  const read = new Set([...rederived, ...after].flatMap((n) => [...referencedNames(n)]));
  // The result half takes the caller's arguments again: a parameter changed before the question is not what it reads.
  const params = new Set(argumentParams(fn).flatMap(paramNames));
  const changed = [...assignedOutside(path[0]!.list, after)].find((n) => read.has(n) && params.has(n));
  return changed ? `whose code after its request reads the parameter \`${changed}\`, which it changes before it.` : undefined;
}

/** Whether the code after the question awaits (outside functions of its own and `skipped`, the lifted question): its result half (or `xThen`) is then async. */
export function awaitsIn(after: readonly Statement[], skipped: Node | undefined): boolean {
  let awaits = false;
  for (const n of after)
    walk(n, (node) =>
      isFunction(node) || node === skipped
        ? false
        : void ((node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await)) && (awaits = true)),
    );
  return awaits;
}

/** The names the statements assign outside the nodes `skipped` (the code after the question). */
function assignedOutside(statements: readonly Statement[], skipped: readonly Node[]): Set<string> {
  const names = new Set<string>();
  for (const s of statements)
    walk(s, (node) => {
      if (skipped.includes(node)) return false;
      if (node.type === 'AssignmentExpression') for (const b of boundNames(node.left as Node)) names.add(b.name);
      if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier') names.add(node.argument.name);
      return undefined;
    });
  return names;
}

/**
 * The inner result call as this helper's result half makes it: the carried locals it reads from
 * the handler's state (the last argument, checked before) are this one's parameter, which its
 * callers pass; `nested` beside this one's own, as its `mrtrCarried` field.
 */
function handingOn(result: readonly [string, string], carried: { type?: string } | undefined, nested: boolean): readonly [string, string] {
  if (!carried) return result;
  const read = `${carriedRead(carried.type)})`;
  return [result[0], `${result[1].slice(0, -read.length)}${nested ? `${CARRIED}.${CARRIED}` : CARRIED})`];
}

/** Whether a carried object's type names only primitives (`{ found: string; depth: number }`): written as it is in any module. */
function primitiveFields(type: string): boolean {
  const values = type.replace(/[A-Za-z_$][\w$]*\??\s*:/g, '');
  // `unknown` is what the plan that gathers the checker's questions writes before it knows (a local typed so is never carried).
  return /^[\s{};|]*(?:(?:string|number|boolean|null|undefined|unknown|true|false|'[^'\\]*'|"[^"\\]*"|-?\d+(?:\.\d+)?)[\s{};|]*)*$/.test(values);
}
