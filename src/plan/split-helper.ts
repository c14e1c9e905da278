// A helper that makes the request for its callers (`async function confirm(ctx, msg) {
// const a = await ctx.mcpReq.elicitInput(...); return a.action === 'accept'; }`) cannot
// suspend them. When it has this simple shape, it is split in two: `confirmRequest(...)`
// builds the request each calling handler asks with, and `confirmResult(answer, ...)` is
// what the helper made of the answer, which the handler computes when it resumes.
import type { Node, Statement } from '@babel/types';
import { annotatedType, argumentParams, hasSideEffects, referencedNames, thisParam, walk, type FunctionNode } from '../analyse/ast.ts';
import type { NamedCall } from '../analyse/call-graph.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { type Edit, promisedType } from '../core/vocabulary.ts';
import { splitHelperEdit, type HelperHalves } from '../rewrite/edits/split-helper.ts';
import { argumentsProblem, type PurityContext } from './helper-locals.ts';
import { localTypeText, typeImports, type TypeNames } from './server-type-names.ts';
import { REQUEST_CONTEXT } from '../analyse/capability-reads.ts';
import { paramNames, paramsProblem, paramText } from './param-patterns.ts';
import type { RerunCall, SplitShape } from './types.ts';
import type { LegacyEntryCall } from './plan-options.ts';
import { entrySource, legacyEntry } from './legacy-entry.ts';
import { paramBindings, pushTemplate } from './push-template.ts';
import { answerBinding, declarationOf, type Answer, type Holder } from './helper-holder.ts';
import { answerNames, returnsMaybeThenable } from './thenable.ts';

export interface HelperSplit extends SplitShape {
  name: string;
  /** Replaces the helper's declaration with the two functions (or methods). */
  edit: Edit;
  /** Call text of the request builder for the arguments of one call (and its receiver, for a method). */
  requestCall(args: string[], receiver?: string): string;
  /** Wraps an answer into what the helper returned, for the arguments of one call; identity when it returned the answer. */
  resultCall(answer: string, args: string[], receiver?: string): string;
  /** The locals its result half derives again, and the calls that makes: they run again on the retry. */
  rederived?: string[];
  rerun?: RerunCall[];
  /** The import specifiers of the server package's types its halves name, when they are not the answer's alone (`type InputRequest`, `type ElicitResult as McpElicitResult`). */
  types?: string[];
  /** It can be kept under its name for calls that cannot ask through its halves (plan/legacy-entry.ts): `written` for that first call. */
  legacyEntry?: { declaration: Node; written?: LegacyEntryCall };
  /** Types its carried locals name that the module imports for them (from modules it imports already). */
  moduleTypes?: Array<{ name: string; from: string }>;
}

/**
 * The split, or why the helper cannot be split (`it is a helper that ...`). `site` is the
 * request the helper makes, or (a helper calling a helper) its call of a split helper.
 */
export function splitHelper(
  source: string,
  site: LegacySite,
  calls: NamedCall[],
  types: TypeNames | undefined,
  eol: string,
  purity: PurityContext,
  entryFor?: LegacyEntryCall,
): HelperSplit | string {
  const helper = splittable(source, site, calls, purity);
  if (typeof helper === 'string') return `it is a helper ${helper}`;
  const { fn, holder } = helper;
  // The inner one's request half reads the client's capabilities: this one hands it the handler's context (optional: requestContextParam).
  const context = site.via?.takesContext ? requestContextParam(types) : undefined;
  const params = argumentParams(fn).map(paramNames);
  const resultType = site.shape.resultType ?? KINDS[site.kind!].resultType;
  const request = requestHalf(source, site);
  // An inner helper's result half turns the bare answer into what this helper awaited.
  const inner = site.via;
  if (inner?.carried) return `it is a helper ${carriedThrough(inner.helper)}`;
  const wrap = inner && (inner.result[0] !== '' || inner.result[1] !== '') ? inner.result : undefined;
  const postNames = new Set([...helper.post.flatMap((s) => [...referencedNames(s)]), ...(wrap ? namesOf(inner!.resultArgs) : [])]);
  const identity = helper.answer.form === 'return' && !wrap;
  const returnType = annotatedType(fn.returnType);
  const shape: SplitShape = {
    kind: site.kind!,
    resultType,
    valueType: identity ? resultType : returnType ? promisedType(source.slice(returnType.start!, returnType.end!)) : undefined,
    method: holder.method,
    requestArgs: params.map((names) => names.some((n) => request.names.has(n))),
    resultArgs: params.map((names) => names.some((n) => postNames.has(n))),
    identity,
    ...(site.via?.maybeAsk ? { maybeAsk: true as const } : {}),
    ...(context ? { takesContext: true as const } : {}),
    // The inner result half is async: this one awaits it, and is async too. So it is where it
    // returns a promise, which the async helper resolved for its caller.
    ...(!identity && (site.via?.asyncResult || (fn.async && returnsMaybeThenable(helper.post, purity.facts, answerNames(helper.first, site))))
      ? { asyncResult: true as const }
      : {}),
  };
  const push = pushTemplate(source, fn, site, paramBindings(fn));
  // Kept under its name for calls that cannot ask through the halves, when the engine asks and it can be.
  const copied = holder.exported ? entrySource(source, fn, holder, push, types !== undefined) : undefined;
  if (entryFor && !copied) return 'it is a helper that calls outside its handlers need, and it cannot stay under its name for them.';
  const entry = copied && entryFor && legacyEntry(copied, holder.name, shape, helper.first && source[helper.first.end! - 1] !== ';' ? '' : ';');
  const halves: HelperHalves = {
    declaration: holder.node,
    head: holder.method ? holder.modifiers : `${holder.exported ? 'export ' : ''}function `,
    name: holder.name,
    requestParams: context
      ? withContextParam(source, fn, shape.requestArgs, context, request.names)
      : paramsUsed(source, fn, shape.requestArgs, undefined, request.names),
    requestText: context ? `${request.text.slice(0, -1)}${request.text.endsWith('()') ? '' : ', '}${REQUEST_CONTEXT})` : request.text,
    ...(shape.maybeAsk ? { maybeAsk: true } : {}),
    ...(identity ? {} : { result: resultHalf(source, helper, shape, wrap && { around: wrap, awaited: site.via?.asyncResult === true }, types, postNames) }),
    ...(entry ? { entry } : {}),
  };
  const edit = splitHelperEdit(source, eol, halves);
  const split = {
    name: holder.name,
    ...shape,
    edit,
    ...shapeCalls(holder.name, shape),
    ...(push ? { push } : {}),
    ...(context && types ? { types: typeImports(types, 'ServerContext') } : {}),
  };
  return copied ? { ...split, legacyEntry: { declaration: holder.node, ...(entry ? { written: entryFor } : {}) } } : split;
}

/** A helper of the shape that splits: its declaration, how its first statement takes the answer, and the statements after. */
interface Splittable {
  fn: FunctionNode;
  holder: Holder;
  answer: Answer;
  first: Statement | undefined;
  post: Statement[];
}

/** The parts of a helper whose request is its first statement, or why it does not split (`that ...`). */
function splittable(source: string, site: LegacySite, calls: NamedCall[], purity: PurityContext): Splittable | string {
  const fn = site.enclosing!;
  const holder = declarationOf(site, fn);
  if (!holder) return 'that is not a plain function declaration, a const function or a method.';
  // `(ctx, table) => confirm(ctx, ...)`: an arrow that returns its call (async or not).
  const returnsCall = fn.body === site.call;
  if (!returnsCall && (!fn.async || fn.body.type !== 'BlockStatement')) return 'that is not an async function with a block body.';
  const params = paramsProblem(fn);
  if (params) return params;
  const body = fn.body.type === 'BlockStatement' ? fn.body.body : [];
  const [first, ...post] = body;
  // The request is the helper's first statement (askedFirst; other helpers split as maybe-ask-split.ts says).
  const answer = returnsCall ? ({ form: 'return' } as const) : answerBinding(first!, site.call, source)!;
  let awaits = false;
  let usesThis = false;
  for (const s of post) walk(s, (n) => void ((n.type === 'AwaitExpression' && (awaits = true)) || (n.type === 'ThisExpression' && (usesThis = true))));
  if (awaits) return 'that awaits more after its request.';
  // A function's result half becomes a plain function: `this` would not be the helper's (a
  // method's halves stay methods).
  if (usesThis && !holder.method) return 'that uses `this`.';
  return callersProblem(calls, purity) ?? { fn, holder, answer, first, post };
}

/**
 * Whether the helper's request is its first statement (or what an arrow returns), and it hands
 * on what it gets: else see maybe-ask-split.ts (which also goes on with the value of an inner
 * helper that may answer without asking).
 */
export function askedFirst(source: string, site: LegacySite): boolean {
  const fn = site.enclosing!;
  if (fn.body === site.call) return true;
  const first = fn.body.type === 'BlockStatement' ? fn.body.body[0] : undefined;
  const answer = first && answerBinding(first, site.call, source);
  return answer !== undefined && !(site.via?.maybeAsk && answer.form === 'declare');
}

/** Why a caller's call cannot become a request and a result computed on resume, if one cannot. */
export function callersProblem(calls: NamedCall[], purity: PurityContext): string | undefined {
  for (const call of calls) {
    const parent = call.ancestors[call.ancestors.length - 1];
    const returned = parent?.type === 'ReturnStatement' || (parent?.type === 'ArrowFunctionExpression' && parent.body === call.call);
    if (!parent || (parent.type !== 'AwaitExpression' && !returned)) return 'whose result a caller does not await (or return) where it calls it.';
    const args = argumentsProblem(purity, call);
    if (args) return args;
    const callee = call.call.callee;
    if (callee.type === 'MemberExpression' && hasSideEffects(callee.object)) return 'called on a receiver that computes something.';
  }
  return undefined;
}

/**
 * What the request half returns, and the names it reads: the request itself, or the inner
 * helper's request builder called with this helper's arguments.
 */
export function requestHalf(source: string, site: LegacySite): { text: string; names: Set<string> } {
  const inner = site.via;
  if (inner) return { text: inner.requestText, names: namesOf(inner.requestArgs) };
  const text = `${KINDS[site.kind!].builder}(${site.paramsRead ?? (site.params ? source.slice(site.params.start!, site.params.end!) : '')})`;
  const names = site.paramsRead ? new Set([site.paramsRead.split('.')[0]!]) : site.params ? referencedNames(site.params) : new Set<string>();
  return { text, names };
}

/** The result half: what the helper made of the answer (`wrap`: what an inner helper made of it first). */
function resultHalf(
  source: string,
  helper: Splittable,
  shape: SplitShape,
  wrap: { around: readonly [string, string]; awaited: boolean } | undefined,
  types: TypeNames | undefined,
  reads: ReadonlySet<string>,
): NonNullable<HelperHalves['result']> {
  const { fn, answer, first, post } = helper;
  const raw = answer.form === 'return' || wrap ? 'mrtrAnswer' : answer.name;
  const wrapped = wrap ? `${wrap.awaited ? 'await ' : ''}${wrap.around[0]}${raw}${wrap.around[1]}` : raw;
  return {
    params: paramsUsed(source, fn, shape.resultArgs, `${raw}${types ? `: ${localTypeText(types, shape.resultType)}` : ''}`, reads),
    returnType: types && shape.valueType && shape.asyncResult ? `Promise<${shape.valueType}>` : types ? shape.valueType : undefined,
    ...(shape.asyncResult ? { async: true } : {}),
    bodyStart: first ? first.start! : undefined,
    body:
      answer.form === 'return'
        ? { returns: wrapped }
        : { declares: wrap ? `const ${answer.name} = ${wrapped};` : undefined, from: post[0]?.start ?? fn.body.end! - 1, to: fn.body.end! - 1 },
  };
}

/** The text of the helper's parameters a half takes: its `this` parameter, `first` (the answer), then those `used` (a pattern's properties it `reads`). */
export function paramsUsed(source: string, fn: FunctionNode, used: boolean[], first?: string, reads?: ReadonlySet<string>): string {
  const own = thisParam(fn);
  return [
    own && source.slice(own.start!, own.end!),
    first,
    ...argumentParams(fn)
      .filter((_, i) => used[i])
      .map((p) => paramText(source, p, reads)),
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * A parameter as the context after it needs it: `explicit?: string` becomes `explicit: string |
 * undefined` (a required parameter cannot follow an optional one; callers pass undefined for it).
 */
export function requiredParam(source: string, p: Node): string {
  const text = source.slice(p.start!, p.end!);
  if (p.type !== 'Identifier' || !p.optional) return text;
  const type = annotatedType(p.typeAnnotation);
  if (!type) return p.name;
  const simple = type.type === 'TSTypeReference' || type.type === 'TSUnionType' || /^TS\w+Keyword$/.test(type.type);
  const typeText = source.slice(type.start!, type.end!);
  return `${p.name}: ${simple ? typeText : `(${typeText})`} | undefined`;
}

/** A request half's parameters, those it reads then the handler's `context`. */
function withContextParam(source: string, fn: FunctionNode, used: boolean[], context: string, reads: ReadonlySet<string>): string {
  const own = thisParam(fn);
  const kept = argumentParams(fn).filter((_, i) => used[i]);
  const text = (p: Node) => (p.type === 'Identifier' ? requiredParam(source, p) : paramText(source, p, reads));
  return [own && source.slice(own.start!, own.end!), ...kept.map(text), context].filter(Boolean).join(', ');
}

/** Why a helper cannot ask through one that carries locals: its result half could not name what they are, or is not handed them. */
export function carriedThrough(helper: string): string {
  return `that asks through \`${helper}()\`, whose result half takes locals kept in the handler's state that this one cannot hand on: call \`${helper}()\` from the handler.`;
}

/** How a handler reads what a split helper's request half returned with its question (the result half's last argument). */
export function carriedRead(type: string | undefined): string {
  return `mrtr.locals${type !== undefined ? `<{ ${CARRIED}: ${type} }>` : ''}().${CARRIED}`;
}

/** The type of what `xRequest` returns with its question, named through it: for a module that cannot name the types it holds. */
function carriedTypeOf(name: string): string {
  return `Extract<Awaited<ReturnType<typeof ${name}Request>>, { carried: unknown }>['carried']`;
}

/** Names a type text may use anywhere: the language's own and its utility types. */
const UNIVERSAL_TYPES = new Set(
  'string number boolean bigint symbol object null undefined unknown any never void true false readonly keyof typeof Array ReadonlyArray Record Partial Required Readonly Pick Omit'.split(
    ' ',
  ),
);

/** Whether a type text names no type but the language's own (its property names aside): any module can write it. */
export function selfContained(type: string): boolean {
  const bare = type.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`/g, "''");
  return [...bare.matchAll(/[A-Za-z_$][\w$]*(?![\w$]*\s*\??:)/g)].every(([name]) => UNIVERSAL_TYPES.has(name));
}

/** The name a handler keeps the locals a split helper's request half returned with its question under, in its state's locals. */
export const CARRIED = 'mrtrCarried';

/** The calls of a split helper's halves (`confirmRequest(...)`, `confirmResult(answer, ...)`), for one call's argument texts. */
export function shapeCalls(name: string, shape: SplitShape): Pick<HelperSplit, 'requestCall' | 'resultCall'> {
  const select = (args: string[], used: boolean[]) => args.filter((_, i) => used[i]);
  const through = (receiver: string | undefined) => (receiver ? `${receiver}.` : '');
  // The context goes after the helper's parameters: an argument a call leaves out is passed as undefined before it.
  const full = (args: string[]) => (shape.takesContext ? shape.requestArgs.map((_, i) => args[i] ?? 'undefined') : args);
  // What the request half returned with its question, as the handler's state keeps it.
  const carried = shape.carried ? [carriedRead(shape.carried.opaque ? carriedTypeOf(name) : shape.carried.type)] : [];
  return {
    requestCall: (args, receiver) => `${through(receiver)}${name}Request(${select(full(args), shape.requestArgs).join(', ')})`,
    resultCall: (answerText, args, receiver) =>
      shape.identity ? answerText : `${through(receiver)}${name}Result(${[answerText, ...select(args, shape.resultArgs), ...carried].join(', ')})`,
  };
}

export function namesOf(nodes: readonly Node[]): Set<string> {
  return new Set(nodes.flatMap((n) => [...referencedNames(n)]));
}

/** How the helper's first statement takes the answer: as a name (or a pattern's text), or by returning it. */

/**
 * The context parameter of a request half: optional, as a legacy entry (legacy-entry.ts) of this
 * helper or of one calling it has no context to hand on; the capabilities then come from the
 * connection alone, as they did.
 */
export function requestContextParam(types: TypeNames | undefined): string {
  return types ? `${REQUEST_CONTEXT}?: ${types('ServerContext')}` : `${REQUEST_CONTEXT} = undefined`;
}
