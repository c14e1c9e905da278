// A project's own tool registry: a loop that registers each declaration it is given with the
// handler the declaration's factory returns,
//   for (const declaration of declarations) {
//     const { name, factory, ...config } = declaration;
//     server.registerTool(name, { ...config, inputSchema: config.inputSchema ? z.object(config.inputSchema) : undefined }, await factory(context));
//   }
// Read from the loop alone: which property names the tool, which is the factory, and where the
// SDK puts the context in the handler's parameters (after the arguments when the registration
// carries an arguments schema, first otherwise). Declarations handed to such a registry are
// read in registry-declarations.ts.
import type { CallExpression, Node } from '@babel/types';
import { boundNames, isFunction, withoutTypeWrappers, type FunctionNode } from './ast.ts';
import type { FileIndex, Indexed } from './file-index.ts';
import { argumentsFirstType, typeDeclarations, type HandlerType } from './registry-handler-type.ts';
import { ARGS_SCHEMA_PROPERTY } from './sdk-surface.ts';

/** What a registry does with each declaration. */
export interface RegistryShape {
  kind: 'tool' | 'prompt';
  /** The declaration's property holding the registered name. */
  nameKey: string;
  /** The declaration's property holding the handler: a method or function (`tool.run.bind(tool)`), or a factory whose result is (`tool.factory(context)`). */
  handlerKey: string;
  factory: boolean;
  /** Passed on by a function handing on this many of its parameters (`(args) => tool.run(args)`): a context after them never reaches the handler. */
  forwards?: number;
  /** The handler is called on the declaration (`tool.run.bind(tool)`, `(...) => tool.run(...)`): its `this` is the declaration. */
  bound?: true;
  /**
   * Where the handler's context parameter is: second when the declaration has `schemaKey`
   * (its schema becomes the registration's), at `fixed` whatever it has, or unknown (the
   * registration's config is not read here).
   */
  arity: { schemaKey: string } | { fixed: 0 | 1 } | 'unknown';
  /** The registry's own handler type, when it puts typed arguments first for every handler (see registry-handler-type.ts). */
  argumentsFirstType?: HandlerType;
}

/** A registry of this module, and where the declarations it registers come from. */
export interface Registry extends RegistryShape {
  /** The function whose parameter at `param` it iterates: calls of it hand it declarations. */
  through?: { fn: string; param: number };
  /** The array literal it iterates (`for (const t of [a, b])`, or a const holding one). */
  iterated?: Extract<Node, { type: 'ArrayExpression' }>;
  /** The registration in the loop. */
  registration: Indexed<CallExpression>;
}

/**
 * Where a value in the loop comes from: the declaration itself, one of its properties, a call of
 * one, or (a const of the loop's) what it was initialised to.
 */
type Origin = 'element' | { key: string } | { call: string } | { value: Node };

/** The registries of a module: registration calls in loops over declarations. */
export function findRegistries(index: FileIndex): Registry[] {
  const found: Registry[] = [];
  for (const { node, ancestors } of index.calls) {
    const kind = registeredKind(node);
    if (!kind || node.arguments.length !== 3) continue;
    const loop = loopAround(ancestors);
    if (!loop) continue;
    const origins = loopOrigins(index, loop, node);
    const [name, config, handler] = node.arguments as [Node, Node, Node];
    // `handler as never`: the project's own handler type disagrees with the SDK's, so where the
    // context goes cannot be read off the config; a rewritten handler would not typecheck.
    if (silencedCast(handler)) continue;
    const nameOrigin = originOf(name, origins);
    const direct = originOf(handler, origins);
    const handlerOrigin = direct ?? forwardedOrigin(handler, origins);
    if (typeof nameOrigin !== 'object' || !('key' in nameOrigin) || typeof handlerOrigin !== 'object' || 'value' in handlerOrigin) continue;
    const factory = 'call' in handlerOrigin;
    const handlerKey = factory ? handlerOrigin.call : handlerOrigin.key;
    const typed = argumentsFirstType(iteratedAnnotation(loop), handlerKey, factory, typeDeclarations(index.otherDeclarations));
    found.push({
      kind,
      nameKey: nameOrigin.key,
      handlerKey,
      factory,
      ...(isFunction(handler) ? { forwards: handler.params.length } : {}),
      ...(direct === undefined ? { bound: true as const } : {}),
      arity: arityOf(config, ARGS_SCHEMA_PROPERTY[kind], origins),
      ...(typed ? { argumentsFirstType: typed } : {}),
      ...sourceOf(index, loop),
      registration: { node, ancestors },
    });
  }
  return found;
}

function silencedCast(node: Node): boolean {
  if (node.type === 'ParenthesizedExpression') return silencedCast(node.expression);
  if (node.type !== 'TSAsExpression') return false;
  const type = node.typeAnnotation.type;
  return type === 'TSNeverKeyword' || type === 'TSAnyKeyword' || type === 'TSUnknownKeyword' || silencedCast(node.expression);
}

function registeredKind(call: CallExpression): 'tool' | 'prompt' | undefined {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return undefined;
  return callee.property.name === 'registerTool' ? 'tool' : callee.property.name === 'registerPrompt' ? 'prompt' : undefined;
}

/** The loop a registration sits in: its element pattern, what it iterates, its body, and the function it is in. */
interface Loop {
  element: Node;
  iterable: Node;
  body: Node;
  /** The function whose scope the body's consts are in. */
  scope: FunctionNode | undefined;
  /** The function the loop is written in (whose parameter it may iterate). */
  within: FunctionNode | undefined;
  withinAncestors: readonly Node[];
}

/** `for (const d of xs) ...` or `xs.forEach((d) => ...)` around the call, with no other function between. */
function loopAround(ancestors: readonly Node[]): Loop | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i]!;
    if (a.type === 'ForOfStatement' && ancestors[i + 1] === a.body) {
      if (a.left.type !== 'VariableDeclaration' || a.left.declarations.length !== 1) return undefined;
      const within = innermost(ancestors, i);
      return {
        element: a.left.declarations[0]!.id,
        iterable: a.right,
        body: a.body,
        scope: within?.fn,
        within: within?.fn,
        withinAncestors: within?.ancestors ?? [],
      };
    }
    if (!isFunction(a)) continue;
    const holder = ancestors[i - 1];
    const callee = holder?.type === 'CallExpression' && holder.arguments[0] === a ? holder.callee : undefined;
    const each =
      callee?.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && /^(forEach|map)$/.test(callee.property.name);
    if (!each || !a.params[0] || !callee || callee.type !== 'MemberExpression') return undefined;
    const within = innermost(ancestors, i - 1);
    return { element: a.params[0], iterable: callee.object, body: a.body, scope: a, within: within?.fn, withinAncestors: within?.ancestors ?? [] };
  }
  return undefined;
}

function innermost(ancestors: readonly Node[], below: number): { fn: FunctionNode; ancestors: readonly Node[] } | undefined {
  for (let i = below - 1; i >= 0; i--) if (isFunction(ancestors[i]!)) return { fn: ancestors[i] as FunctionNode, ancestors: ancestors.slice(0, i) };
  return undefined;
}

/** What each name of the loop's element, and each const the body declares before the call, comes from. */
function loopOrigins(index: FileIndex, loop: Loop, call: CallExpression): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  bindPattern(loop.element, 'element', origins);
  // A name the body declares twice (in two blocks) is not followed.
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { node, declaration, scope } of index.declarators) {
    if ((scope ?? undefined) !== loop.scope || node.start! < loop.body.start! || node.end! > call.start! || !node.init) continue;
    for (const b of boundNames(node.id)) (seen.has(b.name) ? twice : seen).add(b.name);
    const from = declaration.kind === 'const' ? (originOf(node.init, origins) ?? { value: node.init }) : undefined;
    bindPattern(node.id, from, origins);
  }
  for (const name of twice) origins.delete(name);
  return origins;
}

/** Binds the names of a pattern whose value comes from `from` (a property of the element, when destructured from it). */
function bindPattern(pattern: Node, from: Origin | undefined, origins: Map<string, Origin>): void {
  if (pattern.type === 'Identifier') {
    if (from === undefined) origins.delete(pattern.name);
    else origins.set(pattern.name, from);
    return;
  }
  if (pattern.type !== 'ObjectPattern') return;
  for (const p of pattern.properties) {
    if (p.type === 'RestElement') {
      // What the rest holds is the element's other properties: read from as the element is.
      if (p.argument.type === 'Identifier') bindPattern(p.argument, from === 'element' ? 'element' : undefined, origins);
      continue;
    }
    const key = !p.computed && p.key.type === 'Identifier' ? p.key.name : undefined;
    const value = p.value.type === 'AssignmentPattern' ? p.value.left : p.value;
    if (value.type === 'Identifier') bindPattern(value, from === 'element' && key ? { key } : undefined, origins);
    else bindPattern(value, undefined, origins);
  }
}

function originOf(wrapped: Node, origins: ReadonlyMap<string, Origin>, depth = 0): Origin | undefined {
  if (depth > 8) return undefined;
  const node = withoutTypeWrappers(wrapped);
  switch (node.type) {
    case 'AwaitExpression':
      return originOf(node.argument, origins, depth + 1);
    case 'Identifier': {
      const origin = origins.get(node.name);
      // A const of the loop that holds something else: followed to what it holds.
      return origin !== undefined && typeof origin === 'object' && 'value' in origin ? (originOf(origin.value, origins, depth + 1) ?? origin) : origin;
    }
    case 'MemberExpression':
      return !node.computed && node.property.type === 'Identifier' && originOf(node.object, origins, depth + 1) === 'element'
        ? { key: node.property.name }
        : undefined;
    case 'CallExpression': {
      const callee = originOf(node.callee, origins, depth + 1);
      return typeof callee === 'object' && 'key' in callee ? { call: callee.key } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A handler of the declaration passed on with its `this`: `tool.run.bind(tool)`, or a function
 * handing its parameters on, in order, to `tool.run(...)` (the context with them).
 */
function forwardedOrigin(handler: Node, origins: ReadonlyMap<string, Origin>): Origin | undefined {
  if (handler.type === 'CallExpression' && handler.arguments.length === 1) {
    const callee = handler.callee;
    const bind = callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && callee.property.name === 'bind';
    const method = bind ? originOf(callee.object, origins) : undefined;
    return method && typeof method === 'object' && 'key' in method && originOf(handler.arguments[0] as Node, origins) === 'element' ? method : undefined;
  }
  if (!isFunction(handler) || handler.params.some((p) => p.type !== 'Identifier')) return undefined;
  let body: Node = handler.body;
  if (body.type === 'BlockStatement' && body.body.length === 1 && body.body[0]!.type === 'ReturnStatement' && body.body[0]!.argument)
    body = body.body[0]!.argument;
  if (body.type === 'AwaitExpression') body = body.argument;
  if (body.type !== 'CallExpression' || body.callee.type !== 'MemberExpression') return undefined;
  const forwards =
    body.arguments.length === handler.params.length &&
    body.arguments.every((a, i) => a.type === 'Identifier' && a.name === (handler.params[i] as { name: string }).name);
  const method = forwards ? originOf(body.callee, origins) : undefined;
  return method && typeof method === 'object' && 'key' in method ? method : undefined;
}

/** Where the context parameter sits, from the registration's config (`schemaProperty`: inputSchema, argsSchema). */
function arityOf(config: Node, schemaProperty: string, origins: ReadonlyMap<string, Origin>): RegistryShape['arity'] {
  const held = heldValue(config, origins);
  if (held) return arityOf(held, schemaProperty, origins);
  if (config.type !== 'ObjectExpression') return originOf(config, origins) === 'element' ? { schemaKey: schemaProperty } : 'unknown';
  // The last property that sets the schema decides (a spread of the declaration sets its own).
  let arity: RegistryShape['arity'] = { fixed: 0 };
  for (const p of config.properties) {
    if (p.type === 'SpreadElement') {
      const spread = spreadArity(p.argument, schemaProperty, origins);
      if (spread) arity = spread;
    } else if (!p.computed && p.type === 'ObjectProperty' && keyOf(p.key) === schemaProperty) arity = schemaArity(p.value as Node, origins);
    else if (p.computed) return 'unknown';
  }
  return arity;
}

function keyOf(key: Node): string | undefined {
  return key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined;
}

/** A spread in the config: of the declaration (its own schema), of `d.schema && { inputSchema: ... }`, or of something unknown. */
function spreadArity(argument: Node, schemaProperty: string, origins: ReadonlyMap<string, Origin>): RegistryShape['arity'] | undefined {
  if (originOf(argument, origins) === 'element') return { schemaKey: schemaProperty };
  const inner = argument.type === 'ParenthesizedExpression' ? argument.expression : argument;
  if (inner.type === 'LogicalExpression' && inner.operator === '&&' && inner.right.type === 'ObjectExpression') {
    const tested = originOf(inner.left, origins);
    const sets = inner.right.properties.some((p) => p.type === 'ObjectProperty' && !p.computed && keyOf(p.key) === schemaProperty);
    if (!sets) return undefined;
    return typeof tested === 'object' && 'key' in tested ? { schemaKey: tested.key } : 'unknown';
  }
  return inner.type === 'ObjectExpression' ? undefined : 'unknown';
}

/** The schema property's value: the declaration's own, one built only when it has one, none, or always one. */
function schemaArity(value: Node, origins: ReadonlyMap<string, Origin>): RegistryShape['arity'] {
  const held = heldValue(value, origins);
  if (held) return schemaArity(held, origins);
  if (isUndefined(value)) return { fixed: 0 };
  // A name of something other than the loop's: what it holds is not read here.
  if (value.type === 'Identifier' && originOf(value, origins) === undefined) return 'unknown';
  const direct = originOf(value, origins);
  if (typeof direct === 'object' && 'key' in direct) return { schemaKey: direct.key };
  const test =
    value.type === 'ConditionalExpression' && isUndefined(value.alternate)
      ? value.test
      : value.type === 'LogicalExpression' && value.operator === '&&'
        ? value.left
        : undefined;
  const tested = test ? originOf(test, origins) : undefined;
  if (typeof tested === 'object' && 'key' in tested) return { schemaKey: tested.key };
  return test ? 'unknown' : { fixed: 1 };
}

/** What a const of the loop was initialised to, when it is not read from the declaration. */
function heldValue(node: Node, origins: ReadonlyMap<string, Origin>): Node | undefined {
  const origin = node.type === 'Identifier' ? originOf(node, origins) : undefined;
  return origin !== undefined && typeof origin === 'object' && 'value' in origin ? origin.value : undefined;
}

function isUndefined(node: Node): boolean {
  return (node.type === 'Identifier' && node.name === 'undefined') || (node.type === 'UnaryExpression' && node.operator === 'void');
}

/** Where the loop's declarations come from: a parameter of the function it is in, or an array literal. */
function sourceOf(index: FileIndex, loop: Loop): Pick<Registry, 'through' | 'iterated'> {
  const iterable = loop.iterable;
  if (iterable.type === 'ArrayExpression') return { iterated: iterable };
  if (iterable.type !== 'Identifier') return {};
  const param = loop.within ? loop.within.params.findIndex((p) => p.type === 'Identifier' && p.name === iterable.name) : -1;
  if (loop.within && param >= 0) {
    const name = functionName(loop.within, loop.withinAncestors);
    return name ? { through: { fn: name, param } } : {};
  }
  const declared = index.declarators.filter((d) => d.declaration.kind === 'const' && d.node.id.type === 'Identifier' && d.node.id.name === iterable.name);
  const init = declared.length === 1 ? declared[0]!.node.init : undefined;
  return init?.type === 'ArrayExpression' ? { iterated: init } : {};
}

/** The type annotation of the parameter the loop iterates (`declarations: ToolDeclaration[]`), if it iterates one. */
function iteratedAnnotation(loop: Loop): Node | null | undefined {
  const iterable = loop.iterable;
  const param = iterable.type === 'Identifier' ? loop.within?.params.find((p) => p.type === 'Identifier' && p.name === iterable.name) : undefined;
  return param?.type === 'Identifier' ? param.typeAnnotation : undefined;
}

/** The name a function is called by: its own, its variable's, or its method's. */
function functionName(fn: FunctionNode, ancestors: readonly Node[]): string | undefined {
  if ((fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') && fn.id) return fn.id.name;
  if ((fn.type === 'ClassMethod' || fn.type === 'ObjectMethod') && fn.key.type === 'Identifier') return fn.key.name;
  const parent = ancestors[ancestors.length - 1];
  return parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier' ? parent.id.name : undefined;
}
