// A helper that does something before it asks (a guard, a default, a lookup) and may return
// without asking (`if (process.env.X) return { resolved: X }; const projects = await
// api.list(); if (!projects.length) return { error }; const r = await elicitInput(...); ...`).
// It is split in two: `xRequest(...)`, async, runs what came before the question, once, and
// resolves to `{ value }` (what the helper returned without asking) or `{ ask }` (the question);
// `xResult(answer, ...)` is what the helper made of the answer: the code after the question, in
// the blocks around it, then the code after those, async when that code awaits (it ran after
// the answer arrived, and runs once, on the round that receives it). Only the answer and the
// helper's arguments reach the result half: a local set before the question that the code after
// it reads is derived there again when it can be (helper-locals.ts), and the helper is refused
// when not.
import type { Node, Statement } from '@babel/types';
import { annotatedType, argumentParams, referencedNames, type FunctionNode } from '../analyse/ast.ts';
import type { NamedCall } from '../analyse/call-graph.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { type Edit, type Span, indentAt, lineEndOf, lineStartOf, promisedType } from '../core/vocabulary.ts';
import { maybeAskHelperEdit, type ContinuationFrame, type Forward, type MaybeAskHalves } from '../rewrite/edits/maybe-ask-helper.ts';
import type { CarriedLocal, PurityContext } from './helper-locals.ts';
import { assignmentsIn, declaredBy } from './liveness.ts';
import { planPoint, pointQuestions, readsCapabilities, removedAfter, requestNamesOf, statementSpan, type PointPlan, type Step } from './maybe-ask-point.ts';
import { asked, bodyEdits, multilineLiterals, questionEdits, renamed, semicolon, withContext, type PointEdits } from './maybe-ask-request.ts';
import { assertedArgs, narrowedParams, narrowedParamsText, OUTCOME, passedOn, returnsBefore, thenCall, thenValueType } from './maybe-ask-through.ts';
import { paramNames, paramsProblem } from './param-patterns.ts';
import { localTypeText, typeImports, type TypeNames } from './server-type-names.ts';
import { callersProblem, CARRIED, namesOf, paramsUsed, requestContextParam, shapeCalls, type HelperSplit } from './split-helper.ts';
import { declarationOf, type Holder } from './helper-holder.ts';
import { tryWrap } from './try-split.ts';
import { mayBeThenable } from './thenable.ts';
import { entrySource, legacyEntry } from './legacy-entry.ts';
import { paramBindings, pushTemplate } from './push-template.ts';
import type { LegacyEntryCall } from './plan-options.ts';
import { CAUGHT_VALUE, caughtReads, caughtRequestEdits, caughtWrap, type TryStatement } from './try-through.ts';
import type { PlannedRequest, SplitShape } from './types.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';

/** The split of a helper whose question is not its first statement, or why not (`that ...`). */
export function maybeAskSplit(
  source: string,
  site: LegacySite,
  calls: NamedCall[],
  types: TypeNames | undefined,
  eol: string,
  purity: PurityContext,
  entryFor?: LegacyEntryCall,
): HelperSplit | string {
  const fn = site.enclosing!;
  const helper = splitHelperChecks(source, fn, site, calls, purity);
  if (typeof helper === 'string') return helper;
  const { holder, valueType } = helper;
  const point = planPoint({ source, fn, holder, types, purity, others: [], questions: new Set(), carries: false }, site);
  if (typeof point === 'string') return point;
  // No type written: named by `xThen`'s own, when all it resolves to comes out of `xThen`.
  const derived =
    types && valueType === undefined && !fn.returnType && point.goesOn && !returnsBefore(fn, point.statement.start!)
      ? thenValueType(holder.name, point.thenAwaits)
      : undefined;
  const typeWhy = typesProblem(point, valueType ?? derived, types);
  if (typeWhy) return typeWhy;
  const shape = {
    ...pointShape(source, fn, holder, [point], valueType ?? derived, types !== undefined),
    ...(derived ? { localValueType: true as const } : {}),
  };
  const own = pointCarried(point, types !== undefined)?.value;
  const request = pointRequest(source, fn, holder, point, own);
  const at =
    point.caught && 'passedOn' in request
      ? caughtPointEdits(source, point, point.caught, request.passedOn)
      : questionEdits(source, fn, point, request, point.through ? undefined : shape.carried?.value, pointQuestions([point]));
  const push = pushTemplate(source, fn, site, paramBindings(fn));
  // Kept under its name for calls that cannot ask through the halves, when the engine asks and it can be.
  const copied = holder.exported ? entrySource(source, fn, holder, push, types !== undefined) : undefined;
  // Split without it, the calls the engine kept it for would call a function that is gone.
  if (entryFor && !copied) return 'it is a helper that calls outside its handlers need, and it cannot stay under its name for them.';
  const entry = copied && entryFor && legacyEntry(copied, holder.name, shape, semicolon(source, fn, point.statement));
  const edit = maybeAskHelperEdit(source, eol, {
    declaration: holder.node,
    head: holder.method ? holder.modifiers : `${holder.exported ? 'export ' : ''}function `,
    name: holder.name,
    request: [...at.edits, ...requestHalfEdits(source, fn, holder, [point], [at], shape, types, { facts: purity.facts }), ...assignedDropped(point)],
    ...(point.identity ? {} : pointHalves(source, fn, holder, point, shape, types)),
    ...(entry ? { entry } : {}),
  });
  const split = { ...finishedSplit(holder, shape, edit, types, [point]), ...(push ? { push } : {}) };
  return copied ? { ...split, legacyEntry: { declaration: holder.node, ...(entry ? { written: entryFor } : {}) } } : split;
}

/** The helper's own checks (its declaration, its form, its callers), and the value type its request half names. */
export function splitHelperChecks(
  source: string,
  fn: FunctionNode,
  site: LegacySite,
  calls: NamedCall[],
  purity: PurityContext,
): { holder: Holder; valueType: string | undefined } | string {
  const holder = declarationOf(site, fn);
  if (!holder) return 'it is a helper that is not a plain function declaration, a const function or a method.';
  const why = helperProblem(fn) ?? callersProblem(calls, purity);
  if (why) return `it is a helper ${why}`;
  return { holder, valueType: promisedType(typeText(source, fn.returnType)) };
}

/** Why a typed file's halves could not name their types: the helper's value, or the inner helper's value at the point. */
export function typesProblem(point: PointPlan, valueType: string | undefined, types: TypeNames | undefined): string | undefined {
  if (types && valueType === undefined) return 'it is a helper whose return type is not written as a `Promise<...>` (its request half needs it).';
  if (point.goesOn && types && point.innerType === undefined) return `it is a helper whose value from \`${point.site.via!.helper}()\` has no type it can name.`;
  return undefined;
}

/** What other modules and the handlers need of the split: its halves' arguments, what it carries (`carried`, else a point's own), whether its result half awaits. */
export function pointShape(
  source: string,
  fn: FunctionNode,
  holder: Holder,
  points: readonly PointPlan[],
  valueType: string | undefined,
  typed: boolean,
  carried?: NonNullable<SplitShape['carried']>,
): SplitShape {
  const [point] = points as [PointPlan];
  const params = argumentParams(fn).map(paramNames);
  const requestNames = requestNamesOf(source, fn, points);
  const resultNames = new Set(points.flatMap((p) => [...p.resultNames]));
  const own = pointCarried(point, typed);
  const handedOn = point.handedOn && { value: CARRIED, ...(point.handedOn.type !== undefined ? { type: point.handedOn.type } : {}) };
  // Its own carried locals are the value its result half destructures; beside the inner helper's, the type says both.
  const mine = own && { ...carriedShape(point.prefix.carried, typed), ...(own.type !== undefined ? { type: own.type } : {}) };
  const shown = carried ?? mine ?? handedOn;
  return {
    kind: point.site.kind!,
    resultType: point.resultType,
    ...(typed && valueType !== undefined ? { valueType } : {}),
    method: holder.method,
    requestArgs: params.map((names) => names.some((n) => requestNames.has(n))),
    resultArgs: params.map((names) => names.some((n) => resultNames.has(n))),
    identity: points.length === 1 && point.identity,
    maybeAsk: true,
    ...(readsCapabilities(fn.body) || points.some((p) => p.site.via?.takesContext) ? { takesContext: true as const } : {}),
    ...(points.some((p) => p.thenAwaits || p.innerAwaits) ? { asyncResult: true as const } : {}),
    ...(shown ? { carried: shown } : {}),
  };
}

/** What the point's statement becomes in the request half: its question's lines, or the inner helper's outcome handed on (`own`: what this helper carries there). */
export function pointRequest(
  source: string,
  fn: FunctionNode,
  holder: Holder,
  point: PointPlan,
  own: string | undefined,
  suffix = '',
): readonly string[] | { passedOn: readonly string[] } {
  const { site } = point;
  const request = withContext(point.request, site.via?.takesContext === true);
  if (!point.through) return asked(source, fn, site, request.text);
  const then = point.goesOn
    ? withCarriedArg(thenCall(`${holder.name}`, point.thenArgs, holder.method, new Set(), suffix), point.prefix.carried.length > 0 && carriedValue(point))
    : '';
  return { passedOn: passedOn(point.answer, request.text, then, semicolon(source, fn, point.statement), point.thenAwaits, own) };
}

/**
 * What the request half returns beside the question at a point (`{ found }`, `{ at: 2, found }`),
 * with what the inner helper returned beside its own (`mrtrCarried: mrtrOutcome.carried`), and
 * its type in a typed file; undefined when nothing.
 */
export function pointCarried(point: PointPlan, typed: boolean, at?: number): { value: string; type?: string } | undefined {
  const inner = point.handedOn && (at !== undefined || point.prefix.carried.length > 0) ? point.handedOn : undefined;
  const fields = [
    ...(at !== undefined ? [{ name: AT, value: `${AT}: ${at}`, type: `${at}` }] : []),
    ...point.prefix.carried.map((c) => ({ name: c.name, value: c.name, type: c.typeText })),
    ...(inner ? [{ name: CARRIED, value: `${CARRIED}: ${OUTCOME}.carried`, type: inner.type }] : []),
  ];
  if (fields.length === 0) return undefined;
  const value = `{ ${fields.map((f) => f.value).join(', ')} }`;
  return typed ? { value, type: `{ ${fields.map((f) => `${f.name}: ${f.type}`).join('; ')} }` } : { value };
}

/** The carried field that says which of several points asked (maybe-ask-points.ts). */
export const AT = 'at';

/** The point's own carried locals as the request half hands them to `xThen` (`{ found }`). */
function carriedValue(point: PointPlan): string {
  return `{ ${point.prefix.carried.map((c) => c.name).join(', ')} }`;
}

/** `let result;` of an answer assigned to a local declared before the question: the request half drops it. */
export function assignedDropped(point: PointPlan): Edit[] {
  return point.assigned ? [{ ...point.assigned.declaration, text: '' }] : [];
}

/** The request half's edits around its points, its name and signature. */
export function requestHalfEdits(
  source: string,
  fn: FunctionNode,
  holder: Holder,
  points: readonly PointPlan[],
  at: readonly PointEdits[],
  shape: SplitShape,
  types: TypeNames | undefined,
  { facts }: { facts?: TypeFacts | undefined } = {},
): Edit[] {
  const returned =
    types && shape.valueType !== undefined
      ? `Promise<{ ask: ${types('InputRequest')}${shape.carried ? `; carried: ${shape.carried.type}` : ''} } | { value: ${shape.valueType} }>`
      : undefined;
  const signature = {
    returnType: returned,
    typedContext: requestContextParam(types),
    reads: requestNamesOf(source, fn, points),
    semi: semicolon(source, fn, points[0]!.statement),
    awaited: (value: Node) => fn.async === true && mayBeThenable(value, facts),
  };
  return [...bodyEdits(source, fn, at, shape, signature, pointQuestions(points)), ...constsLeft(source, fn, points), renamed(holder.node, fn, holder.name)];
}

/**
 * `let` made `const` for each local the result half declares without its value (helper-locals.ts
 * `bare`) when what set it again went with the code after the question: a lint asks for a const.
 */
function constsLeft(source: string, fn: FunctionNode, points: readonly PointPlan[]): Edit[] {
  const questions = pointQuestions(points);
  const gone = points.flatMap((p) => [statementSpan(p.statement), ...removedAfter(source, p.path, questions)]);
  const wholes = new Set(points.flatMap((p) => [...p.prefix.bare.values()]));
  const sets = assignmentsIn([fn.body as Statement]);
  return [...wholes].flatMap((whole) => {
    const { name } = declaredBy(whole)[0]!;
    const left = sets.some((a) => a.name === name && !gone.some((g) => g.start <= a.start && a.start < g.end));
    return left || !source.startsWith('let ', whole.start!) ? [] : [{ start: whole.start!, end: whole.start! + 3, text: 'const' }];
  });
}

/** The result half of one point (`xResult`; `xThen` and `xResult` when it goes on with an inner helper's value). */
function pointHalves(
  source: string,
  fn: FunctionNode,
  holder: Holder,
  point: PointPlan,
  shape: SplitShape,
  types: TypeNames | undefined,
): Pick<MaybeAskHalves, 'result' | 'forward'> {
  if (point.goesOn) return goingOn(source, fn, holder, point, shape, types);
  return { result: resultHalf(source, fn, point, shape, types) };
}

/** The split as the tree takes it: its shape, its edit, how its halves are called, the types they name, what runs again. */
export function finishedSplit(holder: Holder, shape: SplitShape, edit: Edit, types: TypeNames | undefined, points: readonly PointPlan[]): HelperSplit {
  const imports = types
    ? [
        ...typeImports(types, 'InputRequest'),
        ...(shape.identity ? [] : typeImports(types, shape.resultType)),
        ...(shape.takesContext ? typeImports(types, 'ServerContext') : []),
      ]
    : [];
  const rederived = [...new Set(points.flatMap((p) => p.prefix.names))];
  const rerun = points.flatMap((p) => p.prefix.calls);
  const again = rederived.length > 0 ? { rederived, ...(rerun.length > 0 ? { rerun } : {}) } : {};
  const moduleTypes = points.flatMap((p) => p.prefix.carried.flatMap((c) => c.typeImports ?? []));
  return {
    name: holder.name,
    ...shape,
    edit,
    ...shapeCalls(holder.name, shape),
    ...(imports.length > 0 ? { types: imports } : {}),
    ...(moduleTypes.length > 0 ? { moduleTypes } : {}),
    ...again,
  };
}

/** A result half's parameters with the carried locals last (`{ found }: { found: string }`, or `mrtrCarried` handed on). */
function withCarried(params: string, shape: SplitShape, typed: boolean): string {
  return shape.carried ? `${params}, ${shape.carried.value}${typed ? `: ${shape.carried.type}` : ''}` : params;
}

/** A call of `xThen` (`xThen(\0, a)`) with the carried locals last, when there are (`carried`). */
function withCarriedArg(call: string, carried: string | false): string {
  return carried ? `${call.slice(0, -1)}, ${carried})` : call;
}

/** The carried locals as the request half returns them (`{ found }`) and as the result half takes them, with their type in a typed file. */
export function carriedShape(carried: readonly CarriedLocal[], typed: boolean): NonNullable<SplitShape['carried']> {
  const value = `{ ${carried.map((c) => c.name).join(', ')} }`;
  return typed ? { value, type: `{ ${carried.map((c) => `${c.name}: ${c.typeText}`).join('; ')} }` } : { value };
}

/**
 * The halves after the call of an inner maybe-ask helper whose value this one uses: `xThen(value,
 * ...)`, the code after the call, and `xResult(answer, ...)`, which hands it what the inner
 * result half made of the answer. `suffix` names a point's `xThen` among several (`xThen2`).
 */
export function goingOn(
  source: string,
  fn: FunctionNode,
  holder: Holder,
  point: PointPlan,
  shape: SplitShape,
  types: TypeNames | undefined,
  suffix = '',
): Required<Pick<MaybeAskHalves, 'result' | 'forward'>> {
  const { path, answer, wrap, thenUsed, thenReads, prefix } = point;
  const awaits = { then: point.thenAwaits, inner: point.innerAwaits };
  const value = `${(answer as { name: string }).name}${point.innerType ? `: ${point.innerType}` : ''}`;
  const returnType = types ? shape.valueType : undefined;
  const promised = (async: boolean) => (returnType && async ? `Promise<${returnType}>` : returnType);
  const narrowed = types ? narrowedParams(fn, path) : new Set<string>();
  // `xThen` takes this helper's own carried locals: `xResult` hands it what the handler kept.
  const own = point.prefix.carried.length > 0;
  const call = withCarriedArg(thenCall(holder.name, point.thenArgs, holder.method, narrowed, suffix), own && CARRIED);
  // `xResult` derives again what the inner result call reads, and takes out of the carried locals those it passes.
  const again = neededBy(prefix.statements, wrapReadsOf(point));
  const taken = prefix.carried.filter((c) => wrapReadsOf(point).has(c.name)).map((c) => c.name);
  return {
    result: {
      params: ((params) => (own ? withCarried(params, { ...shape, carried: carriedShape(prefix.carried, types !== undefined) }, types !== undefined) : params))(
        narrowedParamsText(source, fn, thenUsed, value, narrowed, { names: thenReads, typed: types !== undefined }),
      ),
      ...(returnType && !shape.localValueType ? { returnType: promised(awaits.then)! } : {}),
      ...(awaits.then ? { async: true } : {}),
      frames: frames(source, path, false),
      verbatim: multilineLiterals(fn),
      rederived: prefix.statements.map((s) => statementLines(source, s, prefix.bare.get(s))),
    },
    forward: {
      params: withCarried(
        paramsUsed(source, fn, shape.resultArgs, `mrtrAnswer${types ? `: ${localTypeText(types, shape.resultType)}` : ''}`, forwardReads(point)),
        { ...shape, ...(shape.carried ? { carried: { ...shape.carried, value: CARRIED } } : {}) },
        types !== undefined,
      ),
      ...(returnType ? { returnType: promised(awaits.then || awaits.inner)! } : {}),
      ...(awaits.then || awaits.inner ? { async: true } : {}),
      ...forwardCall(call, wrap ? `${awaits.inner ? 'await ' : ''}${wrap[0]}mrtrAnswer${assertedArgs(wrap[1], narrowed)}` : 'mrtrAnswer', source, point, types),
      rederived: again.map((s) => statementLines(source, s, prefix.bare.get(s))),
      ...(taken.length > 0 ? { declares: `const { ${taken.join(', ')} } = ${CARRIED};` } : {}),
    },
  };
}

/** `xResult`'s call of `xThen` with the inner value, made in the try again where the call was alone in one (try-through.ts). */
function forwardCall(call: string, value: string, source: string, point: PointPlan, types: TypeNames | undefined): Pick<Forward, 'call' | 'caught'> {
  if (!point.caught) return { call: call.replace('\0', value) };
  const type = types && point.innerType;
  return { call: call.replace('\0', CAUGHT_VALUE), caught: { ...caughtWrap(source, point.caught), name: CAUGHT_VALUE, value, ...(type ? { type } : {}) } };
}

/** The request half's edits at a point whose call is alone in a try: the lines after the try in its list go, replaced by going on. */
function caughtPointEdits(source: string, point: PointPlan, statement: TryStatement, passed: readonly string[]): PointEdits {
  const removed = removedAfter(source, point.path, new Set([point.statement]));
  const { edits, span } = caughtRequestEdits(source, statement, point.statement, passed);
  return { edits: [...removed.map((r) => ({ ...r, text: '' })), ...edits], spans: [span, ...removed], text: passed.join('\n') };
}

/** The names the inner result call's arguments read. */
function wrapReadsOf(point: PointPlan): Set<string> {
  return point.wrap ? namesOf(point.site.via!.resultArgs) : new Set<string>();
}

/** The names `xResult` reads to go on from a point: the inner result call's, those it passes `xThen`, and what it derives again for them. */
export function forwardReads(point: PointPlan): Set<string> {
  const again = neededBy(point.prefix.statements, wrapReadsOf(point));
  const caught = point.caught ? caughtReads(point.caught) : [];
  return new Set([...wrapReadsOf(point), ...point.thenArgs, ...again.flatMap((s) => [...referencedNames(s)]), ...caught]);
}

/** The statements of `statements` (in order) that derive the names `reads` reads, and those they read in turn. */
function neededBy(statements: readonly Statement[], reads: ReadonlySet<string>): Statement[] {
  const wanted = new Set(reads);
  const kept: Statement[] = [];
  for (const s of [...statements].reverse()) {
    if (!declaredBy(s).some((d) => wanted.has(d.name))) continue;
    kept.unshift(s);
    for (const n of referencedNames(s)) wanted.add(n);
  }
  return kept;
}

/** Whether a handler's `mrtr.value` names the answer's type: the result half is not passed by its name alone. */
export function maybeAskNamesType(r: PlannedRequest): boolean {
  const [before, after] = r.resultWrap ?? ['', ''];
  return !(/^[A-Za-z_$][\w$]*\($/.test(before) && after === ')');
}

/** Why the helper's own form keeps it whole (`that ...`). */
function helperProblem(fn: FunctionNode): string | undefined {
  if (!fn.async || fn.generator || fn.body.type !== 'BlockStatement') return 'that is not an async function with a block body.';
  return paramsProblem(fn);
}

/**
 * A statement the result half runs again: its text from its first line's indentation, and that
 * indentation. A declaration cut before its value (`whole`: what it was cut from) ends as that did.
 */
function statementLines(source: string, statement: Statement, whole?: Statement): { span: Span; indent: string; close?: string } {
  const close = whole && source[whole.end! - 1] === ';' ? { close: ';' } : {};
  return { span: statementSpan(statement), indent: indentAt(source, statement.start!), ...close };
}

/** The result half: the answer (and the arguments the code after it reads), then that code, re-entered as the blocks around it say. */
export function resultHalf(
  source: string,
  fn: FunctionNode,
  point: PointPlan,
  shape: SplitShape,
  types: TypeNames | undefined,
): NonNullable<MaybeAskHalves['result']> {
  const { answer, wrap } = point;
  const raw = answer.form === 'return' || wrap ? 'mrtrAnswer' : answer.name;
  const wrapped = wrap ? `${wrap[0]}${raw}${wrap[1]}` : raw;
  const first = answer.form === 'return' ? `return ${wrapped};` : wrap ? `const ${answer.name} = ${wrapped};` : undefined;
  const params = paramsUsed(source, fn, shape.resultArgs, `${raw}${types ? `: ${localTypeText(types, shape.resultType)}` : ''}`, point.resultNames);
  return {
    params: withCarried(params, shape, types !== undefined),
    ...(types && shape.valueType ? { returnType: shape.asyncResult ? `Promise<${shape.valueType}>` : shape.valueType } : {}),
    ...(shape.asyncResult ? { async: true } : {}),
    ...(first ? { first } : {}),
    frames: frames(source, point.path, wrap !== undefined),
    verbatim: multilineLiterals(fn),
    rederived: point.prefix.statements.map((s) => statementLines(source, s, point.prefix.bare.get(s))),
  };
}

/** Each list on the way, innermost first: its indentation, the lines after its statement, how it is re-entered (a try only when something runs in it: see continuation). */
function frames(source: string, path: readonly Step[], wrapped: boolean): ContinuationFrame[] {
  const out: ContinuationFrame[] = [];
  let inner = wrapped;
  for (let k = path.length - 1; k >= 0; k--) {
    const step = path[k]!;
    const s = step.list[step.index]!;
    const rest = step.list.slice(step.lifted ? step.index : step.index + 1);
    const end = step.block ? lineStartOf(source, step.block.end! - 1) : lineEndOf(source, s.end!) + 1;
    const lines = rest.length > 0 ? { start: step.lifted ? lineStartOf(source, s.start!) : lineEndOf(source, s.end!) + 1, end } : undefined;
    const wrap = inner ? tryWrap(source, s, step.released !== undefined) : undefined;
    const replaced = step.replaced;
    out.push({ indent: indentAt(source, s.start!), ...(lines ? { after: lines } : {}), ...(wrap ? { tried: wrap } : {}), ...(replaced ? { replaced } : {}) });
    inner ||= rest.length > 0;
  }
  return out;
}

export function typeText(source: string, annotation: Node | null | undefined): string {
  const type = annotatedType(annotation);
  return type ? source.slice(type.start!, type.end!) : '';
}
