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
import { annotatedType, argumentParams, boundNames, isFunction, isNonReferencePosition, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import { TS_TYPES } from '../analyse/babel.cjs';
import type { NamedCall } from '../analyse/call-graph.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { codeSnippet } from '../core/escape.ts';
import { type Edit, type Span, indentAt, lineEndOf, lineStartOf, promisedType, startsLine } from '../core/vocabulary.ts';
import { maybeAskHelperEdit, type ContinuationFrame } from '../rewrite/edits/maybe-ask-helper.ts';
import { resultPrefix, type CarriedLocal, type PurityContext } from './helper-locals.ts';
import {
  answerBinding,
  callersProblem,
  CARRIED,
  carriedRead,
  carriedThrough,
  declarationOf,
  namesOf,
  paramsUsed,
  requestHalf,
  requiredParam,
  shapeCalls,
  type Answer,
  type HelperSplit,
  type Holder,
} from './split-helper.ts';
import { localTypeText, typeImports, type TypeNames } from './server-type-names.ts';
import { isConnectionCapabilitiesRead, REQUEST_CONTEXT } from '../analyse/capability-reads.ts';
import type { PlannedRequest, SplitShape } from './types.ts';
import { assignedAnswer } from './assigned-answer.ts';
import {
  assertedArgs,
  innerValueType,
  narrowedParams,
  narrowedParamsText,
  passedOn,
  thenCall,
  thenNames as thenParamNames,
  throughProblem,
} from './maybe-ask-through.ts';
import { paramNames, paramsProblem, paramText } from './param-patterns.ts';
import { declaredBy } from './liveness.ts';
import { LIFTED, liftedAwait, liftedText } from './lifted-await.ts';
import { quotedLine, releasedLocals, tryClauses, tryProblem, tryWrap } from './try-split.ts';

/** The split of a helper whose question is not its first statement, or why not (`that ...`). */
export function maybeAskSplit(
  source: string,
  site: LegacySite,
  calls: NamedCall[],
  types: TypeNames | undefined,
  eol: string,
  purity: PurityContext,
): HelperSplit | string {
  const typed = types !== undefined;
  const fn = site.enclosing!;
  const holder = declarationOf(site, fn);
  if (!holder) return 'it is a helper that is not a plain function declaration, a const function or a method.';
  const why = helperProblem(fn) ?? callersProblem(calls, purity);
  if (why) return `it is a helper ${why}`;
  const path = pathTo(source, fn, site);
  if (typeof path === 'string') return `it is a helper ${path}`;
  const question = path[path.length - 1]!;
  const statement = question.list[question.index]!;
  const lift = liftedAwait(statement, site.call);
  const asks = site.via ? `\`${site.via.helper}()\`` : 'its request';
  if (lift && !startsLine(source, statement.start!))
    return `it is a helper whose line ${statement.loc!.start.line} awaits ${asks} in the test of an if that does not start its line.`;
  const replaced = lift && liftedText(source, statement, lift);
  if (replaced && source.slice(replaced.start, replaced.end).includes('\n'))
    return `it is a helper whose line ${statement.loc!.start.line} awaits ${asks} over several lines in an if's test.`;
  if (lift) Object.assign(question, lift, { replaced });
  const bound = lift ? ({ form: 'declare', name: LIFTED } as const) : answerBinding(statement, site.call, source);
  const requestReads = (outside: Span[]) => namesOutside(fn.body, [...outside, ...removedAfter(source, path)]);
  const assigned = bound
    ? undefined
    : assignedAnswer(
        source,
        statement,
        site.call,
        path.flatMap((st) => st.list.slice(0, st.index)),
        requestReads,
      );
  if (typeof assigned === 'string') return `it is a helper ${assigned}`;
  const answer = bound ?? assigned?.answer;
  if (!answer)
    return `it is a helper whose line ${statement.loc!.start.line} awaits ${site.via ? `\`${site.via.helper}()\`` : 'its request'} inside an expression: \`${codeSnippet(source.slice(statement.start!, statement.end!), 40)}\`.`;
  // An inner helper that may answer without asking hands this one its question or its value.
  const through = site.via?.maybeAsk === true;
  const throughWhy = through
    ? throughProblem(
        site,
        path.map((s) => s.list[s.index]!),
      )
    : undefined;
  if (throughWhy) return `it is a helper ${throughWhy}`;
  // An inner helper's carried locals: this one's result half takes them and hands them on.
  const handedOn = site.via?.carried;
  const handable = handedOn && through && site.via!.result[1].endsWith(`${carriedRead(handedOn.type)})`);
  if (handedOn && (!handable || (handedOn.type !== undefined && !primitiveFields(handedOn.type)))) return `it is a helper ${carriedThrough(site.via!.helper)}`;
  const goesOn = through && answer.form === 'declare';
  const valueType = typed ? promisedType(typeText(source, fn.returnType)) : undefined;
  if (typed && valueType === undefined) return 'it is a helper whose return type is not written as a `Promise<...>` (its request half needs it).';
  const innerType = goesOn && types ? innerValueType(site, types) : undefined;
  if (goesOn && types && innerType === undefined) return `it is a helper whose value from \`${site.via!.helper}()\` has no type it can name.`;
  const after = through && !goesOn ? [] : continuation(path, !through && site.via !== undefined && site.via.result.join('') !== '');
  const wrap = site.via && (site.via.result[0] !== '' || site.via.result[1] !== '') ? handingOn(site.via.result, handedOn) : undefined;
  // The lifted await is the question's (or the inner helper's): the code after it reads its value instead.
  const thenNames = new Set(after.flatMap((n) => [...(n === statement && replaced ? namesOutside(n, [replaced]) : referencedNames(n))]));
  const afterNames = new Set([...thenNames, ...(wrap ? namesOf(site.via!.resultArgs) : [])]);
  const releasedRead = releasedAfter(source, path, afterNames);
  if (releasedRead) return `it is a helper ${releasedRead}`;
  // An answer assigned to a local declared before the question is the result half's parameter, not a local to derive again.
  const prefix = resultPrefix(
    purity,
    fn,
    path,
    after,
    new Set([...afterNames].filter((n) => !assigned || n !== assigned.answer.name)),
    // Asked through an inner helper, its own locals travel only through `xThen`, and not beside the inner one's.
    !through || (goesOn && !handedOn),
  );
  if (typeof prefix === 'string') return `it is a helper ${prefix}`;
  const rederived = prefix.statements;
  const afterProblem = continuationProblem(fn, path, rederived, after, holder.method) ?? capabilitiesAfter(after);
  if (afterProblem) return `it is a helper ${afterProblem}`;
  const releasedRederived = releasedAfter(source, path, new Set(rederived.flatMap((s) => [...referencedNames(s)])));
  if (releasedRederived) return `it is a helper ${releasedRederived}`;
  const shared = rederived.find((s) => !startsLine(source, s.start!));
  if (shared)
    return `it is a helper whose code after its request reads what \`${codeSnippet(source.slice(shared.start!, shared.end!), 60)}\` derives, written on a line after other code.`;

  const params = argumentParams(fn).map(paramNames);
  const takesContext = readsCapabilities(fn.body) || site.via?.takesContext === true;
  const request = withContext(requestHalf(source, site), site.via?.takesContext === true);
  const resultNames = new Set([...afterNames, ...rederived.flatMap((s) => [...referencedNames(s)])]);
  const thenReads = new Set([...thenNames, ...rederived.flatMap((s) => [...referencedNames(s)])]);
  const thenUsed = params.map((names) => names.some((n) => thenReads.has(n)));
  const thenArgs = thenParamNames(fn, thenUsed, thenReads);
  const ownCarried = prefix.carried.length > 0;
  const then = goesOn ? withCarriedArg(thenCall(holder.name, thenArgs, holder.method), ownCarried && carriedShape(prefix.carried, typed).value) : undefined;
  const requestNames = new Set([
    ...namesOutside(fn.body, [statementSpan(statement), ...removedAfter(source, path)]),
    ...request.names,
    ...(goesOn ? thenArgs : []),
    ...(lift?.guard ? referencedNames(lift.guard) : []),
  ]);
  const identity = answer.form === 'return' && !wrap;
  const resultType = site.shape.resultType ?? KINDS[site.kind!].resultType;
  // What the helper awaited after its question runs in its result half, on the round that receives the answer.
  const thenAwaits = awaitsIn(after, lift?.lifted);
  const innerAwaits = site.via?.asyncResult === true;
  const shape: SplitShape = {
    kind: site.kind!,
    resultType,
    ...(valueType !== undefined ? { valueType } : {}),
    method: holder.method,
    requestArgs: params.map((names) => names.some((n) => requestNames.has(n))),
    resultArgs: params.map((names) => names.some((n) => resultNames.has(n))),
    identity,
    maybeAsk: true,
    ...(takesContext ? { takesContext: true as const } : {}),
    ...(thenAwaits || innerAwaits ? { asyncResult: true as const } : {}),
    ...(prefix.carried.length > 0
      ? { carried: carriedShape(prefix.carried, typed) }
      : handedOn
        ? { carried: { value: CARRIED, ...(handedOn.type !== undefined ? { type: handedOn.type } : {}) } }
        : {}),
  };
  const semi = semicolon(source, fn, statement);
  const edit = maybeAskHelperEdit(source, eol, {
    declaration: holder.node,
    head: holder.method ? holder.modifiers : `${holder.exported ? 'export ' : ''}function `,
    name: holder.name,
    request: [
      ...requestEdits(
        source,
        fn,
        path,
        through
          ? { passedOn: passedOn(answer, request.text, then ?? '', semi, thenAwaits, ownCarried ? carriedShape(prefix.carried, typed).value : undefined) }
          : asked(source, fn, site, request.text),
        shape,
        types && valueType !== undefined
          ? `Promise<{ ask: ${types('InputRequest')}${shape.carried ? `; carried: ${shape.carried.type}` : ''} } | { value: ${valueType} }>`
          : undefined,
        types && `${REQUEST_CONTEXT}: ${types('ServerContext')}`,
        requestNames,
      ),
      renamed(holder.node, fn, holder.name),
      ...(assigned ? [{ ...assigned.declaration, text: '' }] : []),
    ],
    ...(identity
      ? {}
      : goesOn
        ? goingOn(source, fn, path, answer, shape, {
            thenUsed,
            thenReads,
            innerType,
            holder,
            wrap,
            wrapReads: namesOf(site.via!.resultArgs),
            rederived,
            types,
            awaits: { then: thenAwaits, inner: innerAwaits },
          })
        : {
            result: {
              ...resultHalf(source, fn, path, answer, wrap, shape, types, resultNames),
              rederived: rederived.map((s) => statementLines(source, s)),
            },
          }),
  });
  const imports = types
    ? [
        ...typeImports(types, 'InputRequest'),
        ...(identity ? [] : typeImports(types, resultType)),
        ...(shape.takesContext ? typeImports(types, 'ServerContext') : []),
      ]
    : [];
  const again = prefix.names.length > 0 ? { rederived: prefix.names, ...(prefix.calls.length > 0 ? { rerun: prefix.calls } : {}) } : {};
  return { name: holder.name, ...shape, edit, ...shapeCalls(holder.name, shape), ...(imports.length > 0 ? { types: imports } : {}), ...again };
}

/**
 * The inner result call as this helper's result half makes it: the carried locals it reads from
 * the handler's state (the last argument, checked before) are this one's parameter, which its
 * callers pass.
 */
function handingOn(result: readonly [string, string], carried: { type?: string } | undefined): readonly [string, string] {
  if (!carried) return result;
  const read = `${carriedRead(carried.type)})`;
  return [result[0], `${result[1].slice(0, -read.length)}${CARRIED})`];
}

/** A result half's parameters with the carried locals last (`{ found }: { found: string }`, or `mrtrCarried` handed on). */
function withCarried(params: string, shape: SplitShape, typed: boolean): string {
  return shape.carried ? `${params}, ${shape.carried.value}${typed ? `: ${shape.carried.type}` : ''}` : params;
}

/** A call of `xThen` (`xThen(\0, a)`) with the carried locals last, when there are (`carried`). */
function withCarriedArg(call: string, carried: string | false): string {
  return carried ? `${call.slice(0, -1)}, ${carried})` : call;
}

/** Whether a carried object's type names only primitives (`{ found: string; depth: number }`): written as it is in any module. */
function primitiveFields(type: string): boolean {
  const values = type.replace(/[A-Za-z_$][\w$]*\??\s*:/g, '');
  return /^[\s{};|]*(?:(?:string|number|boolean|null|undefined|true|false|'[^'\\]*'|"[^"\\]*"|-?\d+(?:\.\d+)?)[\s{};|]*)*$/.test(values);
}

/** The carried locals as the request half returns them (`{ found }`) and as the result half takes them, with their type in a typed file. */
function carriedShape(carried: readonly CarriedLocal[], typed: boolean): NonNullable<SplitShape['carried']> {
  const value = `{ ${carried.map((c) => c.name).join(', ')} }`;
  return typed ? { value, type: `{ ${carried.map((c) => `${c.name}: ${c.typeText}`).join('; ')} }` } : { value };
}

/** A request half's text with the handler's context passed last, when the inner helper's request half takes it. */
function withContext(request: { text: string; names: Set<string> }, add: boolean): { text: string; names: Set<string> } {
  if (!add) return request;
  return { ...request, text: `${request.text.slice(0, -1)}${request.text.endsWith('()') ? '' : ', '}${REQUEST_CONTEXT})` };
}

/**
 * The halves after the call of an inner maybe-ask helper whose value this one uses: `xThen(value,
 * ...)`, the code after the call, and `xResult(answer, ...)`, which hands it what the inner
 * result half made of the answer.
 */
function goingOn(
  source: string,
  fn: FunctionNode,
  path: readonly Step[],
  answer: Answer,
  shape: SplitShape,
  then: {
    thenUsed: boolean[];
    thenReads: ReadonlySet<string>;
    innerType: string | undefined;
    holder: Holder;
    wrap: readonly [string, string] | undefined;
    /** The names the inner result call's arguments read: `xResult` derives again those the helper derived before the call. */
    wrapReads: ReadonlySet<string>;
    rederived: Statement[];
    types: TypeNames | undefined;
    /** The code after the call awaits (`xThen` is async), the inner result half is async (awaited in `xResult`). */
    awaits: { then: boolean; inner: boolean };
  },
): Pick<Parameters<typeof maybeAskHelperEdit>[2], 'result' | 'forward'> {
  const { types, wrap, awaits } = then;
  const value = `${(answer as { name: string }).name}${then.innerType ? `: ${then.innerType}` : ''}`;
  const returnType = types ? shape.valueType : undefined;
  const promised = (async: boolean) => (returnType && async ? `Promise<${returnType}>` : returnType);
  const narrowed = types ? narrowedParams(fn, path) : new Set<string>();
  const thenArgs = thenParamNames(fn, then.thenUsed, then.thenReads);
  // `xThen` takes this helper's own carried locals: `xResult` hands it what the handler kept.
  const own = shape.carried !== undefined && shape.carried.value !== CARRIED;
  const call = withCarriedArg(thenCall(then.holder.name, thenArgs, then.holder.method, narrowed), own && CARRIED);
  // `xResult` derives again what the inner result call reads, and hands `xThen` its names.
  const again = neededBy(then.rederived, then.wrapReads);
  const forwardReads = new Set([...then.wrapReads, ...thenArgs, ...again.flatMap((s) => [...referencedNames(s)])]);
  return {
    result: {
      params: ((params) => (own ? withCarried(params, shape, types !== undefined) : params))(
        narrowedParamsText(source, fn, then.thenUsed, value, narrowed, { names: then.thenReads, typed: types !== undefined }),
      ),
      ...(returnType ? { returnType: promised(awaits.then)! } : {}),
      ...(awaits.then ? { async: true } : {}),
      frames: frames(source, path, false),
      verbatim: multilineLiterals(fn),
      rederived: then.rederived.map((s) => statementLines(source, s)),
    },
    forward: {
      params: withCarried(
        paramsUsed(source, fn, shape.resultArgs, `mrtrAnswer${types ? `: ${localTypeText(types, shape.resultType)}` : ''}`, forwardReads),
        { ...shape, ...(shape.carried ? { carried: { ...shape.carried, value: CARRIED } } : {}) },
        types !== undefined,
      ),
      ...(returnType ? { returnType: promised(awaits.then || awaits.inner)! } : {}),
      ...(awaits.then || awaits.inner ? { async: true } : {}),
      call: call.replace('\0', wrap ? `${awaits.inner ? 'await ' : ''}${wrap[0]}mrtrAnswer${assertedArgs(wrap[1], narrowed)}` : 'mrtrAnswer'),
      rederived: again.map((s) => statementLines(source, s)),
    },
  };
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

/** One list on the way from the helper's body to its question: the statement of it on the way, and the compound that holds the next list. */
interface Step {
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

/** The lists from the helper's body down to the statement that asks, or why the question cannot be reached so (`that ...`). */
function pathTo(source: string, fn: FunctionNode, site: LegacySite): Step[] | string {
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
function continuation(path: readonly Step[], wrapped: boolean): Statement[] {
  const out: Statement[] = [];
  for (let k = path.length - 1; k >= 0; k--) {
    const step = path[k]!;
    if (out.length > 0 || wrapped) out.push(...tryClauses(step.list[step.index]!, step.released !== undefined));
    out.push(...step.list.slice(step.lifted ? step.index : step.index + 1));
  }
  return out;
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
function readsCapabilities(node: Node): boolean {
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
function awaitsIn(after: readonly Statement[], skipped: Node | undefined): boolean {
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
 * The request half as edits of the helper's text: renamed, its unused parameters dropped, its
 * returns wrapped (`return { value: x }`), the question returned (`return { ask: ... }`) with
 * nothing after it in its list, and a `return { value: undefined }` where the body could end.
 */
function requestEdits(
  source: string,
  fn: FunctionNode,
  path: readonly Step[],
  ask: readonly string[] | { passedOn: readonly string[] },
  shape: SplitShape,
  returnType: string | undefined,
  typedContext: string | undefined,
  reads: ReadonlySet<string>,
): Edit[] {
  const last = path[path.length - 1]!;
  const statement = last.list[last.index]!;
  const removed = removedAfter(source, path);
  const inRemoved = (n: Node) => removed.some((r) => r.start <= n.start! && n.end! <= r.end);
  const semi = semicolon(source, fn, statement);
  const outer = indentAt(source, statement.start!);
  const indent = last.guard ? `${outer}${blockIndent(source, statement) ?? '  '}` : outer;
  const [first, ...rest] = 'passedOn' in ask ? [] : ask;
  // The locals the result half reads that cannot be derived again go with the question.
  const carried = shape.carried ? `carried: ${shape.carried.value}` : undefined;
  const question =
    'passedOn' in ask
      ? ask.passedOn.join(`\n${indent}`)
      : rest.length === 0
        ? `return { ask: ${first}${carried ? `, ${carried}` : ''} }${semi}`
        : [
            'return {',
            `${indent}  ask: ${first}`,
            ...rest.slice(0, -1),
            `${rest[rest.length - 1]},`,
            ...(carried ? [`${indent}  ${carried},`] : []),
            `${indent}}${semi}`,
          ].join('\n');
  const guarded = last.guard && `if (${source.slice(last.guard.start!, last.guard.end!)}) {\n${indent}${question}\n${outer}}`;
  const edits: Edit[] = [...removed.map((r) => ({ ...r, text: '' })), { ...statementSpan(statement), text: guarded || question }];
  edits.push(...unboundReceivers(fn, [statementSpan(statement), ...removed], question));
  walk(fn.body, (node) => {
    if (node === statement || inRemoved(node)) return false;
    if (isFunction(node)) return false;
    if (node.type !== 'ReturnStatement') return undefined;
    if (node.argument)
      edits.push(
        { start: node.argument.start!, end: node.argument.start!, text: '{ value: ' },
        { start: node.argument.end!, end: node.argument.end!, text: ' }' },
      );
    else edits.push({ start: node.start! + 'return'.length, end: node.start! + 'return'.length, text: ' { value: undefined }' });
    return false;
  });
  const body = fn.body as Extract<Node, { type: 'BlockStatement' }>;
  if (!endsExiting(body.body, last.guard ? undefined : statement)) {
    const close = body.end! - 1;
    const indent = body.body[0] ? indentAt(source, body.body[0].start!) : `${indentAt(source, close)}  `;
    edits.push({ start: lineStartOf(source, close), end: lineStartOf(source, close), text: `${indent}return { value: undefined }${semi}\n` });
  }
  edits.push(...signatureEdits(source, fn, shape, returnType, shape.takesContext ? (typedContext ?? REQUEST_CONTEXT) : undefined, reads));
  return edits;
}

/**
 * `const server = this.requireServer();` whose local only the request read (its receiver, gone
 * from the question): the local goes, the call stays for what it does (a guard that throws when
 * no server was injected). Edits that drop `const server = `.
 */
function unboundReceivers(fn: FunctionNode, replaced: readonly Span[], question: string): Edit[] {
  const edits: Edit[] = [];
  const body = fn.body as Extract<Node, { type: 'BlockStatement' }>;
  walk(body, (node) => {
    if (isFunction(node)) return false;
    if (node.type !== 'VariableDeclaration' || node.declarations.length !== 1) return undefined;
    const { id, init } = node.declarations[0]!;
    const call = init?.type === 'AwaitExpression' ? init.argument : init;
    if (id.type !== 'Identifier' || call?.type !== 'CallExpression' || replaced.some((r) => r.start <= node.start! && node.end! <= r.end)) return undefined;
    if (new RegExp(`(?<![\\w$.])${id.name.replace(/[$]/g, '\\$')}(?![\\w$])`).test(question)) return undefined;
    const read = (at: Node) => at !== id && !replaced.some((r) => r.start <= at.start! && at.end! <= r.end);
    let readElsewhere = false;
    walk(body, (ref, parents) => {
      const parent = parents[parents.length - 1];
      if (ref.type === 'Identifier' && ref.name === id.name && !(parent && isNonReferencePosition(ref, parent)) && read(ref)) readElsewhere = true;
      return undefined;
    });
    if (!readElsewhere) edits.push({ start: node.start!, end: init!.start!, text: '' });
    return false;
  });
  return edits;
}

/**
 * The question's lines, as `return { ask: <question> }` writes them: its lines after the first
 * one level deeper (those inside a template literal are data, and stay as they are).
 */
function asked(source: string, fn: FunctionNode, site: LegacySite, text: string): string[] {
  const [first, ...rest] = text.split('\n');
  if (rest.length === 0) return [first!];
  const from = site.params && !site.via && !site.paramsRead ? site.params.start! : undefined;
  const literals = multilineLiterals(fn);
  const statementIndent = indentAt(source, site.call.start!);
  const next = rest.find((l) => l.trim() !== '');
  const unit =
    next && /^[ \t]*/.exec(next)![0].startsWith(statementIndent) && /^[ \t]*/.exec(next)![0].length > statementIndent.length
      ? /^[ \t]*/.exec(next)![0].slice(statementIndent.length)
      : '  ';
  let at = from;
  return [
    first!,
    ...rest.map((line) => {
      at = at === undefined ? undefined : source.indexOf('\n', at) + 1;
      const data = at === undefined || literals.some((v) => v.start < at! && at! < v.end);
      return data || line.trim() === '' ? line.replace(/\r$/, '') : unit + line.replace(/\r$/, '');
    }),
  ];
}

/**
 * The request half's parameters (those it reads, then `context`, the handler's context, when it
 * takes it) and return type (`returned`: a value or a question).
 */
function signatureEdits(
  source: string,
  fn: FunctionNode,
  shape: SplitShape,
  returned: string | undefined,
  context: string | undefined,
  reads: ReadonlySet<string>,
): Edit[] {
  const edits: Edit[] = [];
  const own = argumentParams(fn);
  const texts = own.map((p) => paramText(source, p, reads));
  const pruned = own.some((p, i) => shape.requestArgs[i] && texts[i] !== source.slice(p.start!, p.end!));
  if (own.length > 0 && (shape.requestArgs.some((used) => !used) || context || pruned)) {
    const first = own[0]!;
    const last = own[own.length - 1]!;
    // The `this` parameter, when there is one, stays where it is.
    const used = own.flatMap((p, i) => (shape.requestArgs[i] ? [context && p.type === 'Identifier' ? requiredParam(source, p) : texts[i]!] : []));
    const kept = [...used, context].filter(Boolean).join(', ');
    const start = kept === '' && fn.params.length > own.length ? fn.params[0]!.end! : first.start!;
    edits.push({ start, end: last.end!, text: kept });
  } else if (context) {
    // No parameter of its own (a `this` one, if any, stays first): the context goes inside the parentheses.
    const from = fn.type === 'ClassMethod' || fn.type === 'ObjectMethod' ? fn.key.end! : fn.start!;
    const at = fn.params.length > 0 ? fn.params[fn.params.length - 1]!.end! : source.indexOf('(', from) + 1;
    edits.push({ start: at, end: at, text: fn.params.length > 0 ? `, ${context}` : context });
  }
  const returnType = annotatedType(fn.returnType);
  if (returned !== undefined && returnType) edits.push({ start: returnType.start!, end: returnType.end!, text: returned });
  return edits;
}

/** Whether a list, read up to `question` (which returns the question), ends by returning or throwing on every path. */
function endsExiting(list: readonly Statement[], question: Statement | undefined): boolean {
  const last = question && list.includes(question) ? question : list[list.length - 1];
  return last !== undefined && exits(last, question);
}

function exits(s: Statement, question: Statement | undefined): boolean {
  if (s === question || s.type === 'ReturnStatement' || s.type === 'ThrowStatement') return true;
  if (s.type === 'BlockStatement') return endsExiting(s.body, question);
  if (s.type === 'TryStatement')
    return (
      (s.finalizer !== null && s.finalizer !== undefined && endsExiting(s.finalizer.body, question)) ||
      (endsExiting(s.block.body, question) && (!s.handler || endsExiting(s.handler.body.body, question)))
    );
  return s.type === 'IfStatement' && s.alternate !== null && s.alternate !== undefined && exits(s.consequent, question) && exits(s.alternate, question);
}

/**
 * The whole lines after the question in its own list (the request half ends with the question),
 * and after each block around it that can only be left through the question's return or
 * another exit (`try { ...; <question> } finally { ... }`): what follows such a block is dead.
 */
function removedAfter(source: string, path: readonly Step[]): Span[] {
  const question = path[path.length - 1]!;
  // Asked under a guard (`if (guard) { <question> }`), the code after the if still runs when it did not hold.
  if (question.guard) return [];
  const spans: Span[] = [];
  for (let k = path.length - 1; k >= 0; k--) {
    const step = path[k]!;
    const s = step.list[step.index]!;
    if (k < path.length - 1 && !exits(s, question.list[question.index]!)) break;
    if (step.index + 1 < step.list.length && step.block) spans.push({ start: lineEndOf(source, s.end!) + 1, end: lineStartOf(source, step.block.end! - 1) });
  }
  return spans;
}

/** A statement the result half runs again: its text from its first line's indentation, and that indentation. */
function statementLines(source: string, statement: Statement): { span: Span; indent: string } {
  return { span: statementSpan(statement), indent: indentAt(source, statement.start!) };
}

function statementSpan(statement: Statement): Span {
  return { start: statement.start!, end: statement.end! };
}

/** The result half: the answer (and the arguments the code after it reads), then that code, re-entered as the blocks around it say. */
function resultHalf(
  source: string,
  fn: FunctionNode,
  path: readonly Step[],
  answer: Answer,
  wrap: readonly [string, string] | undefined,
  shape: SplitShape,
  types: TypeNames | undefined,
  reads: ReadonlySet<string>,
): NonNullable<Parameters<typeof maybeAskHelperEdit>[2]['result']> {
  const raw = answer.form === 'return' || wrap ? 'mrtrAnswer' : answer.name;
  const wrapped = wrap ? `${wrap[0]}${raw}${wrap[1]}` : raw;
  const first = answer.form === 'return' ? `return ${wrapped};` : wrap ? `const ${answer.name} = ${wrapped};` : undefined;
  const params = paramsUsed(source, fn, shape.resultArgs, `${raw}${types ? `: ${localTypeText(types, shape.resultType)}` : ''}`, reads);
  return {
    params: withCarried(params, shape, types !== undefined),
    ...(types && shape.valueType ? { returnType: shape.asyncResult ? `Promise<${shape.valueType}>` : shape.valueType } : {}),
    ...(shape.asyncResult ? { async: true } : {}),
    ...(first ? { first } : {}),
    frames: frames(source, path, wrap !== undefined),
    verbatim: multilineLiterals(fn),
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

/** The `;` that ends the helper's simple statements, as the question's statement (or, for an if, the body's first such) writes it. */
function semicolon(source: string, fn: FunctionNode, statement: Statement): string {
  const simple =
    statement.type === 'IfStatement'
      ? (fn.body as Extract<Node, { type: 'BlockStatement' }>).body.find((s) => s.type !== 'IfStatement' && !/Block|Try|Loop|While|For|Switch/.test(s.type))
      : statement;
  return !simple || source[simple.end! - 1] === ';' ? ';' : '';
}

/** The indentation one block deeper than the if statement, as its consequent's first line has it. */
function blockIndent(source: string, statement: Statement): string | undefined {
  const inner = statement.type === 'IfStatement' && statement.consequent.type === 'BlockStatement' ? statement.consequent.body[0] : undefined;
  const own = indentAt(source, statement.start!);
  const deeper = inner && indentAt(source, inner.start!);
  return deeper && deeper.startsWith(own) && deeper.length > own.length ? deeper.slice(own.length) : undefined;
}

/** Template literals over several lines: their lines are data, never re-indented. */
function multilineLiterals(fn: FunctionNode): Span[] {
  const spans: Span[] = [];
  walk(fn.body, (node) => {
    if (node.type === 'TemplateLiteral' && node.loc && node.loc.start.line !== node.loc.end.line) spans.push({ start: node.start!, end: node.end! });
    return undefined;
  });
  return spans;
}

/** The names `node` reads outside the spans given (what the request half, which leaves them out, reads). */
function namesOutside(node: Node, spans: readonly Span[]): Set<string> {
  const names = new Set<string>();
  walk(node, (current, parents) => {
    if (TS_TYPES.has(current.type) || spans.some((s) => s.start <= current.start! && current.end! <= s.end)) return false;
    const parent = parents[parents.length - 1];
    if (current.type === 'Identifier' && !(parent && isNonReferencePosition(current, parent))) names.add(current.name);
    return undefined;
  });
  return names;
}

/** The helper's name where it is declared, as the request half's. */
function renamed(declaration: Node, fn: FunctionNode, name: string): Edit {
  const held = declaration.type === 'ExportNamedDeclaration' ? declaration.declaration! : declaration;
  const id =
    fn.type === 'FunctionDeclaration'
      ? fn.id!
      : fn.type === 'ClassMethod'
        ? fn.key
        : (held as Extract<Node, { type: 'VariableDeclaration' }>).declarations[0]!.id;
  return { start: id.start!, end: id.start! + name.length, text: `${name}Request` };
}

function typeText(source: string, annotation: Node | null | undefined): string {
  const type = annotatedType(annotation);
  return type ? source.slice(type.start!, type.end!) : '';
}
