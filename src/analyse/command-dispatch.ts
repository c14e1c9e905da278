// A handler registered once per command object, that hands the call to the object's method and
// makes something of what it returns (`registerTool(command.name, config, async (args) => {
// const outcome = await command.execute(args); return format(outcome); })`, `command: Command`).
// A class of this module that implements the command interface and whose method reaches a
// request is migrated as that tool's handler (named by its own readonly `name`): the method
// becomes the resumable part of the call. The handler hands it the context and returns its
// question as it is (`if (isInputRequiredResult(outcome)) return outcome;`); the interface's
// method takes the context too and may return a question. Commands that ask nothing run as
// before: they ignore the context, and never return a question. The retry runs the handler
// again up to the call, so nothing before it there may do anything.
import type { BlockStatement, CallExpression, Node, Statement, TryStatement } from '@babel/types';
import type { FileAnalysis } from './analyse-file.ts';
import { argumentParams, hasSideEffects, isFunction, walk, type FunctionNode } from './ast.ts';
import { callGraphOf } from './call-graph.ts';
import { contextParam, type HandlerSite } from './find-handlers.ts';
import { readonlyInstanceMember } from './registry-declarations.ts';
import { codeSnippet } from '../core/escape.ts';
import { lineOf } from '../core/line-refs.ts';

type ClassNode = Extract<Node, { type: 'ClassDeclaration' }>;
type MethodSignature = Extract<Node, { type: 'TSMethodSignature' }>;

/** One command method dispatched to, migrated as a handler of its own. */
export interface Dispatch {
  /** The method, as the handler of the tool its instance is registered under (`this.name`). */
  handler: HandlerSite;
  /** Each handler's call of it, and the local its answer is bound to (none for a returned call). */
  calls: Array<{ handler: HandlerSite; call: CallExpression; bound?: Bound }>;
  /** The interface's declaration of the method, which takes the context too and may return a question. */
  signature: MethodSignature;
  /** Calls of a per-round bracket around a handler's call (see perRoundBrackets): they run again on each round. */
  rerun: BracketCall[];
}

/** A call that runs on each round: acquiring or releasing a per-round bracket. */
export interface BracketCall {
  text: string;
  line: number;
  why: 'bracket';
}

/** A dispatch that could not become the resumable part of its handler: the call, and why (with what would fix it). */
export interface BlockedDispatch {
  call: CallExpression;
  method: string;
  why: string;
  fix: string;
  /** The handler that dispatches, and the methods of this module it would reach (kept whole: the dispatch calls them by name). */
  handler: HandlerSite;
  methods: FunctionNode[];
}

/**
 * The command methods of this module that handlers dispatch to (see above), each as a handler
 * of its own, and the dispatches to such a method that the handler cannot hand its context
 * through (the method then stays a helper, whose markers name the dispatch).
 */
export function dispatchedMethods(analysis: FileAnalysis, handlers: readonly HandlerSite[]): { dispatches: Dispatch[]; blocked: BlockedDispatch[] } {
  const found = new Map<FunctionNode, Dispatch>();
  const blocked: BlockedDispatch[] = [];
  if (!analysis.typed) return { dispatches: [], blocked };
  for (const handler of handlers) {
    const through = dispatchThrough(analysis, handler);
    if (!through) continue;
    const methods = implementers(analysis, through.typeName).flatMap((cls) => {
      const method = ownMethod(cls, through.method);
      return method && readonlyInstanceMember(cls, through.key) ? [{ cls, method }] : [];
    });
    if (methods.length === 0) continue;
    const signature = interfaceMethod(analysis, through.typeName, through.method);
    const why = through.blocked ?? (signature ? unmatchedArguments(through, signature) : noSignature(through));
    if (why) {
      blocked.push({ method: through.method, ...why, handler, methods: methods.map((m) => m.method) });
      continue;
    }
    for (const { cls, method } of methods) {
      // Its context would take the place of an argument: it stays a helper (marked, if it asks).
      // One that reads fewer arguments than the call passes takes the rest, unread, before it.
      const width = signature!.parameters.length;
      const own = argumentParams(method).length;
      const fillers = own < width ? fillerParams(analysis.source, signature!.parameters.slice(own)) : undefined;
      if (own > width || (own < width && !fillers)) {
        blocked.push({
          method: through.method,
          handler,
          methods: [method],
          call: through.calls[0]!.call,
          why: `\`${cls.id!.name}.${through.method}()\` takes ${argumentParams(method).length} parameter(s) where the call passes ${width} argument(s), so a context added after the last of each would not meet.`,
          fix: 'give it the parameters the call passes',
        });
        continue;
      }
      const entry = found.get(method) ?? {
        handler: {
          kind: handler.kind,
          name: `${cls.id!.name}.${through.method}()`,
          nameText: `this.${through.key}`,
          call: method,
          fn: method,
          ctxIndex: width,
          ancestors: handler.ancestors,
          contextType: 'ServerContext',
          ...(fillers ? { fillers } : {}),
        },
        calls: [],
        signature: signature!,
        rerun: [],
      };
      entry.calls.push(...through.calls.map((c) => ({ handler, ...c })));
      entry.rerun.push(...through.rerun.filter((r) => !entry.rerun.some((e) => e.line === r.line && e.text === r.text)));
      found.set(method, entry);
    }
  }
  return { dispatches: [...found.values()].filter((d) => calledOnlyByDispatch(analysis, d)), blocked };
}

/** Why a dispatch through an object of type `typeName` cannot name the method's new signature. */
function noSignature(through: Through): Omit<BlockedDispatch, 'method' | 'handler' | 'methods'> {
  return {
    call: through.calls[0]!.call,
    why: `\`${through.typeName}\`, the type of the object it calls, is not an interface of this module declaring \`${through.method}()\` as returning a Promise, so the method could not be declared to take the context and return a question.`,
    fix: 'declare the method in an interface here',
  };
}

/** Why the context added after the last argument of the calls would not be the interface's added parameter: their counts differ. */
function unmatchedArguments(through: Through, signature: MethodSignature): Omit<BlockedDispatch, 'method' | 'handler' | 'methods'> | undefined {
  if (through.calls.every((c) => c.call.arguments.length === signature.parameters.length)) return undefined;
  return {
    call: through.calls[0]!.call,
    why: `the interface's \`${through.method}()\` takes ${signature.parameters.length} parameter(s) and a call passes another count of arguments, so a context added after the last of each would not meet.`,
    fix: 'give them the same parameters',
  };
}

interface Through {
  /** `command` of `command.execute(args)`; `key`: the member the registration names the tool by (`command.name`). */
  key: string;
  method: string;
  typeName: string;
  calls: Array<{ call: CallExpression; bound?: Bound }>;
  /** The per-round brackets around the calls, acquired and released on each round. */
  rerun: BracketCall[];
  /** The first call the handler cannot hand its context through, and why. */
  blocked?: Omit<BlockedDispatch, 'method' | 'handler' | 'methods'>;
}

/** How a handler dispatches: through a parameter of a function around it, typed by a named type. */
function dispatchThrough(analysis: FileAnalysis, handler: HandlerSite): Through | undefined {
  if (handler.lowLevel || handler.definition || handler.factory || !handler.nameText) return undefined;
  const named = /^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/.exec(handler.nameText);
  if (!named) return undefined;
  const [, object, key] = named as unknown as [string, string, string];
  const fn = handler.fn;
  // The handler asks nothing itself, and hands on a context it names.
  if (analysis.sites.some((s) => s.functions.includes(fn))) return undefined;
  const ctx = contextParam(handler);
  if (ctx && ctx.type !== 'Identifier') return undefined;
  if (argumentParams(fn).some((p) => p.type === 'Identifier' && p.name === object)) return undefined;
  const typeName = parameterType(handler, object);
  if (!typeName) return undefined;
  const calls: Through['calls'] = [];
  const rerun: BracketCall[] = [];
  let method: string | undefined;
  let blocked: Through['blocked'];
  walk(fn.body, (node, parents) => {
    if (isFunction(node)) return false;
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || node.callee.computed) return undefined;
    const { object: o, property } = node.callee;
    if (o.type !== 'Identifier' || o.name !== object || property.type !== 'Identifier' || property.name === key) return undefined;
    if (method !== undefined && method !== property.name) return undefined;
    method = property.name;
    const bound = tailOrBound(analysis.source, fn, node, parents);
    const computed = node.arguments.find((a) => hasSideEffects(a));
    if (computed)
      blocked ??= { call: node, why: 'its arguments compute something, which the retry would compute again.', fix: 'compute the arguments in the method' };
    else if ('why' in bound) blocked ??= { call: node, ...bound };
    else {
      const { result } = bound;
      calls.push({ call: node, ...('returned' in result ? {} : { bound: result }) });
      rerun.push(...bound.rerun);
    }
    return undefined;
  });
  if (!method || (calls.length === 0 && !blocked)) return undefined;
  return { key, method, typeName, calls, rerun, ...(blocked ? { blocked } : {}) };
}

/** The type a parameter `name` of a function around the handler is annotated with, when it is a plain name (`command: Command`). */
function parameterType(handler: HandlerSite, name: string): string | undefined {
  for (const outer of [...handler.ancestors].reverse()) {
    if (!isFunction(outer)) continue;
    const param = argumentParams(outer as FunctionNode).find((p) => p.type === 'Identifier' && p.name === name);
    if (!param) continue;
    const annotation = param.type === 'Identifier' && param.typeAnnotation?.type === 'TSTypeAnnotation' ? param.typeAnnotation.typeAnnotation : undefined;
    return annotation?.type === 'TSTypeReference' && annotation.typeName.type === 'Identifier' && !annotation.typeParameters
      ? annotation.typeName.name
      : undefined;
  }
  return undefined;
}

/**
 * The interface's parameters a method does not declare, as it takes them before its context:
 * named with a `_` (unread), required, `undefined` admitted where the interface's is optional
 * (`signal?: AbortSignal` → `_signal: AbortSignal | undefined`). Undefined when one is not a
 * plain name with a written type.
 */
function fillerParams(source: string, params: MethodSignature['parameters']): string[] | undefined {
  const out: string[] = [];
  for (const p of params) {
    const annotation = p.type === 'Identifier' && p.typeAnnotation?.type === 'TSTypeAnnotation' ? p.typeAnnotation.typeAnnotation : undefined;
    if (p.type !== 'Identifier' || !annotation) return undefined;
    const written = source.slice(annotation.start!, annotation.end!);
    const type = /=>/.test(written) ? `(${written})` : written;
    out.push(`_${p.name}: ${p.optional && !/\bundefined\b/.test(type) ? `${type} | undefined` : type}`);
  }
  return out;
}

/** A call whose answer the handler returns as it is. */
const RETURNED = { returned: true } as const;

/**
 * Where the call's answer goes: RETURNED (`return await command.execute(args)`, an arrow's
 * body), the local a declaration binds it to (`const outcome = await command.execute(args);`),
 * or why the handler cannot hand its context through it: another place, something before it
 * on the way from the body that the retry would do again, a loop, a `finally` that does
 * something on every round. A per-round bracket around it (perRoundBrackets) may run again:
 * its calls are returned, to be named among what runs on each round.
 */
function tailOrBound(
  source: string,
  fn: FunctionNode,
  call: CallExpression,
  parents: readonly Node[],
): { result: typeof RETURNED | Bound; rerun: BracketCall[] } | { why: string; fix: string } {
  const chain = [...parents, call];
  const awaited = chain.length > 1 && chain[chain.length - 2]!.type === 'AwaitExpression';
  const top = chain.length - (awaited ? 2 : 1);
  const parent = chain[top - 1];
  const declaration = chain[top - 2];
  let statement: Node | undefined;
  let result: typeof RETURNED | Bound;
  if (top === 0) result = RETURNED;
  else if (parent?.type === 'ReturnStatement') [statement, result] = [parent, RETURNED];
  else if (
    parent?.type === 'VariableDeclarator' &&
    parent.id.type === 'Identifier' &&
    declaration?.type === 'VariableDeclaration' &&
    declaration.declarations.length === 1
  ) {
    statement = declaration;
    result = { name: parent.id.name, start: declaration.start!, end: declaration.end! };
  } else
    return {
      why: 'its answer is used inside an expression, where a question could not be returned as it is.',
      fix: 'return its answer or bind it to a local',
    };
  const upTo = statement ? chain.indexOf(statement) : 0;
  // The statements of `finally` blocks on the way that release a bracket acquired before their `try`.
  const releases = new Set<Node>();
  const rerun: BracketCall[] = [];
  for (let i = 0; i < upTo; i++) {
    const node = chain[i]!;
    const child = chain[i + 1]!;
    if (node.type === 'BlockStatement') {
      const before = node.body.slice(0, node.body.indexOf(child as never));
      const brackets = child.type === 'TryStatement' ? perRoundBrackets(fn, before, child) : [];
      const acquires = new Set<Node>(brackets.map((b) => b.acquire));
      const effect = before.find((n) => hasSideEffects(n) && !acquires.has(n));
      if (effect) return ranBefore(source, effect);
      for (const b of brackets) {
        releases.add(b.release);
        rerun.push(bracketCall(source, b.acquire.declarations[0]!.init!), bracketCall(source, b.release.expression));
      }
    } else if (node.type === 'TryStatement') {
      if (child !== node.block) return { why: 'it is made in a catch or finally block.', fix: 'make the call in the try block' };
      const effect = node.finalizer?.body.find((n) => hasSideEffects(n) && !releases.has(n));
      if (effect)
        return {
          why: `the finally block around it does something (${snippet(source, effect)}, line ${lineOf(effect)}), which would run again on every round.`,
          fix: `move ${snippet(source, effect)} (line ${lineOf(effect)}) out of the finally`,
        };
    } else if (node.type === 'IfStatement') {
      if (child !== node.test && hasSideEffects(node.test)) return ranBefore(source, node.test);
    } else return { why: 'it is made in a loop or a switch, where the handler could not return its question.', fix: 'make the call outside the loop' };
  }
  return { result, rerun };
}

type Acquire = Extract<Statement, { type: 'VariableDeclaration' }>;
type Release = Extract<Statement, { type: 'ExpressionStatement' }>;

/**
 * The per-round brackets around a `try`: `const release = acquire(...)` among the statements
 * before it, whose local the `finally` only calls (`release();`, its one statement doing so) and
 * nothing else in the handler reads. Each round then acquires and releases its own (a progress
 * heartbeat, a timer, a lock held for the call): nothing crosses from one round to the next,
 * so running it on each round is sound, and it is named among what runs again.
 */
function perRoundBrackets(fn: FunctionNode, before: readonly Statement[], tried: TryStatement): Array<{ acquire: Acquire; release: Release }> {
  const finalizer: BlockStatement | null | undefined = tried.finalizer;
  if (!finalizer) return [];
  const found: Array<{ acquire: Acquire; release: Release }> = [];
  for (const acquire of before) {
    if (acquire.type !== 'VariableDeclaration' || acquire.kind !== 'const' || acquire.declarations.length !== 1) continue;
    const { id, init } = acquire.declarations[0]!;
    if (id.type !== 'Identifier' || !init || !callOrAwaitedCall(init)) continue;
    const releases = finalizer.body.filter(
      (n): n is Release => n.type === 'ExpressionStatement' && callOf(n.expression, id.name) && n.expression.type === 'CallExpression',
    );
    if (releases.length !== 1 || references(fn, id.name) !== 2) continue;
    found.push({ acquire, release: releases[0]! });
  }
  return found;
}

function callOrAwaitedCall(node: Node): boolean {
  return node.type === 'CallExpression' || (node.type === 'AwaitExpression' && node.argument.type === 'CallExpression');
}

/** `name()`, with no arguments. */
function callOf(node: Node, name: string): boolean {
  return node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === name && node.arguments.length === 0;
}

/** How many identifiers in the function name `name` (its declaration included), property names aside. */
function references(fn: FunctionNode, name: string): number {
  let count = 0;
  walk(fn, (node, parents) => {
    if (node.type !== 'Identifier' || node.name !== name) return undefined;
    const parent = parents[parents.length - 1];
    const property = (parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') && parent.property === node && !parent.computed;
    const key = parent?.type === 'ObjectProperty' && parent.key === node && !parent.computed && !parent.shorthand;
    if (!property && !key) count++;
    return undefined;
  });
  return count;
}

function bracketCall(source: string, node: Node): BracketCall {
  return { text: codeSnippet(source.slice(node.start!, node.end!)), line: node.loc!.start.line, why: 'bracket' };
}

function ranBefore(source: string, effect: Node): { why: string; fix: string } {
  const line = lineOf(effect);
  return {
    why: `the handler runs ${snippet(source, effect)} (line ${line}) before it, and the retry would run that again.`,
    fix: `move ${snippet(source, effect)} (line ${line}) after it`,
  };
}

/** A statement or expression, quoted short for a reason. */
function snippet(source: string, node: Node): string {
  return `\`${codeSnippet(source.slice(node.start!, node.end!).replace(/;$/, ''), 60)}\``;
}

/** The local a dispatch call's answer is declared as, and its declaration's span. */
export interface Bound {
  name: string;
  start: number;
  end: number;
}

/** The interface of this module named `typeName`, and its declaration of `method`. */
function interfaceMethod(analysis: FileAnalysis, typeName: string, method: string): MethodSignature | undefined {
  for (const statement of analysis.program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'TSInterfaceDeclaration' || declaration.id.name !== typeName) continue;
    const members = declaration.body.body.filter((m) => m.type === 'TSMethodSignature' && m.key.type === 'Identifier' && m.key.name === method);
    const member = members.length === 1 ? (members[0] as MethodSignature) : undefined;
    return member && promisedOf(member) ? member : undefined;
  }
  return undefined;
}

/** `T` of a method signature declared to return `Promise<T>`. */
export function promisedOf(signature: MethodSignature): Node | undefined {
  return promiseType(signature.typeAnnotation?.typeAnnotation);
}

/** `T` of a type written `Promise<T>`. */
export function promiseType(returned: Node | undefined): Node | undefined {
  return returned?.type === 'TSTypeReference' &&
    returned.typeName.type === 'Identifier' &&
    returned.typeName.name === 'Promise' &&
    returned.typeParameters?.params.length === 1
    ? returned.typeParameters.params[0]
    : undefined;
}

/** The classes of this module that say they implement `typeName`. */
function implementers(analysis: FileAnalysis, typeName: string): ClassNode[] {
  const found: ClassNode[] = [];
  for (const statement of analysis.program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'ClassDeclaration' || !declaration.id) continue;
    const names = (declaration.implements ?? []).map((i) =>
      i.type === 'TSExpressionWithTypeArguments' && i.expression.type === 'Identifier' ? i.expression.name : '',
    );
    if (names.includes(typeName)) found.push(declaration);
  }
  return found;
}

/** The class's own async instance method `name`, with a block body and plain parameters. */
export function ownMethod(cls: ClassNode, name: string): Extract<FunctionNode, { type: 'ClassMethod' }> | undefined {
  const method = cls.body.body.find(
    (m): m is Extract<FunctionNode, { type: 'ClassMethod' }> =>
      m.type === 'ClassMethod' && m.kind === 'method' && !m.static && !m.computed && m.key.type === 'Identifier' && m.key.name === name,
  );
  if (!method?.async || method.body.type !== 'BlockStatement' || method.returnType?.type !== 'TSTypeAnnotation') return undefined;
  return method.params.every((p) => p.type === 'Identifier' && !p.optional) ? method : undefined;
}

/** Whether nothing in the module calls the method but the handlers' dispatch (a call without the context would not resume). */
function calledOnlyByDispatch(analysis: FileAnalysis, d: Dispatch): boolean {
  const name = (d.handler.fn as Extract<FunctionNode, { type: 'ClassMethod' }>).key as { name: string };
  const dispatched = new Set<Node>(d.calls.map((c) => c.call));
  return callGraphOf(analysis.index).calls.every((c) => c.callee !== name.name || dispatched.has(c.call));
}

/** A dispatch through a type another module of the project declares (`command: Command`, imported): its classes are found by the engine. */
export interface ImportedDispatch {
  handler: HandlerSite;
  /** The type's local name, and where it comes from. */
  typeName: string;
  from: string;
  imported: string;
  method: string;
  key: string;
  /** How many arguments each call passes. */
  width: number;
  calls: Array<{ call: CallExpression; bound?: Bound }>;
  /** Calls of a per-round bracket around a call (see perRoundBrackets): they run again on each round. */
  rerun: BracketCall[];
}

/**
 * The handlers of this module that dispatch through a type imported from a relative module and
 * implemented by no class here, with nothing in the way (see dispatchThrough): the engine looks
 * for the type's classes across the run (see engine/dispatch-links.ts).
 */
export function importedDispatches(analysis: FileAnalysis): ImportedDispatch[] {
  if (!analysis.typed) return [];
  const found: ImportedDispatch[] = [];
  for (const handler of analysis.handlers) {
    const through = dispatchThrough(analysis, handler);
    const origin = through && analysis.importedNames.get(through.typeName);
    if (!through || through.blocked || !origin?.from.startsWith('.') || implementers(analysis, through.typeName).length > 0) continue;
    const widths = new Set(through.calls.map((c) => c.call.arguments.length));
    if (widths.size !== 1) continue;
    found.push({
      handler,
      typeName: through.typeName,
      from: origin.from,
      imported: origin.imported,
      method: through.method,
      key: through.key,
      width: [...widths][0]!,
      calls: through.calls,
      rerun: through.rerun,
    });
  }
  return found;
}

/**
 * The methods of this module's classes that handlers of other modules dispatch to (the engine
 * linked them: see engine/dispatch-links.ts), each as a handler of its own, as a dispatch here
 * makes it (dispatchedMethods).
 */
export function linkedMethodHandlers(
  analysis: FileAnalysis,
  methods: ReadonlyArray<{ cls: string; method: string; key: string; width: number; fillers?: readonly string[] }>,
): HandlerSite[] {
  const classes = new Map<string, ClassNode>();
  for (const statement of analysis.program.body) {
    const d = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (d?.type === 'ClassDeclaration' && d.id) classes.set(d.id.name, d);
  }
  return methods.flatMap(({ cls, method, key, width, fillers }) => {
    const owner = classes.get(cls);
    const fn = owner && ownMethod(owner, method);
    if (!fn || !readonlyInstanceMember(owner, key) || argumentParams(fn).length + (fillers?.length ?? 0) !== width) return [];
    const handler: HandlerSite = {
      kind: 'tool',
      name: `${cls}.${method}()`,
      nameText: `this.${key}`,
      call: fn,
      fn,
      ctxIndex: width,
      ancestors: [],
      contextType: 'ServerContext',
      ...(fillers?.length ? { fillers: [...fillers] } : {}),
    };
    return [handler];
  });
}
