// Finds legacy server→client requests: calls matching the push surface in sdk-surface.ts.
import type {
  ArrayExpression,
  CallExpression,
  Identifier,
  MemberExpression,
  Node,
  ObjectExpression,
  OptionalCallExpression,
  OptionalMemberExpression,
} from '@babel/types';
import { argumentParams, keyName, memberPath, propertyOf, stringValue, walk, type FunctionNode } from './ast.ts';
import {
  askedAbout,
  callTarget,
  mayBeLegacyCall,
  propertyName,
  receiverPath,
  staticString,
  throughAliases,
  type CallTarget,
  type Destructured,
} from './call-target.ts';
import { constDeclarations, enclosingFunctions, innermostFunction, namedFunctions, type Declarations, type FileIndex } from './file-index.ts';
import { heldObjects, type HeldObjects } from './held-objects.ts';
import { receiverResolver, type ReceiverResolver } from './receivers.ts';
import { requestMethodOf, schemaMethod, type Scope } from './request-method.ts';
import { invocationOf, type Invocation } from './invoked-members.ts';
import { wrapperCall } from './wrapper-calls.ts';
import {
  LEGACY_CALLS,
  LEGACY_METHOD_NAMES,
  LEGACY_PARAMETER_NAMES,
  REQUEST_METHODS,
  URL_ELICITATION_ERROR,
  URL_THROW_SHAPE,
  type LegacyCallShape,
} from './sdk-surface.ts';
import type { InputKind } from '../core/vocabulary.ts';

export interface LegacySite {
  /** The call; for a URL elicitation thrown as an error, the elicitation's object in the array (or the name there that holds it). */
  call: CallExpression | OptionalCallExpression | ObjectExpression | MemberExpression | OptionalMemberExpression | Identifier;
  /** Where the site is reported, when not at `call` (a thrown URL elicitation: the throw). */
  at?: Node;
  shape: LegacyCallShape;
  /** The identifier the receiver starts with (`ctx` in `ctx.mcpReq.elicitInput`). */
  receiverHead: string;
  /** Known when the call names its request statically. */
  kind?: InputKind;
  /** The request's params expression, when there is one. */
  params?: Node;
  /**
   * Set when the call names a const that holds its request (`send(request)`): the expression
   * that reads the params from it. A rewrite writes this, not the params' text, which would
   * evaluate their initialiser a second time.
   */
  paramsRead?: string;
  /** Innermost enclosing function, if any. */
  enclosing?: FunctionNode;
  /** Every enclosing function, innermost last. */
  functions: FunctionNode[];
  /** Ancestors of the call, outermost first (for statement-shape checks). */
  ancestors: readonly Node[];
  /** The receiver expression (`server.server` in `server.server.createMessage(...)`). */
  receiver: Node;
  /** For an uncertain site: the expression the type checker is asked about (the receiver, or `x` of `x.server`). */
  asked?: Node;
  /**
   * The call goes through a name destructured from a function's parameter (`{ sendRequest }`,
   * `{ mcpReq }`): the handler's context, when that function is the handler.
   */
  destructured?: Destructured;
  /** The call goes through a function handed in as a parameter named like a legacy call. */
  handedIn?: boolean;
  /**
   * Not a call: the method itself, handed on, applied or stored (`helper(ctx.mcpReq.elicitInput)`,
   * `Reflect.apply(server.server.createMessage, ...)`); `call` is that member. Always refused.
   */
  handedOn?: boolean;
  /**
   * A call the request cannot be read from, on an object known to make requests: the method
   * named in brackets by an expression nothing here reads (`ctx.mcpReq[names.ask](...)`), or
   * taken out of the context by a nested destructuring (`const { mcpReq: { elicitInput } } = ctx`).
   * Always refused (`unfollowed-reference`).
   */
  unreadable?: 'computedMethod' | 'nestedPattern' | UnprovenSite;
  /**
   * The legacy method a request names where its kind is not read from it: a request built by
   * hand (`unreadable: 'handRolled'`), or one named only by the SDK's schema it is built or sent
   * with (`sendRequest(request, ElicitResultSchema)`), which is reported and never rewritten.
   */
  requestMethod?: string;
  /**
   * Set when only the method name says it is an MCP request (`x.server.createMessage` where
   * `x` is not known to be an McpServer): the type checker decides, when there is one.
   */
  uncertain?: boolean;
  /**
   * Set on an uncertain site whose receiver this file declares as its own stand-in for the SDK's
   * Server (an interface or type literal with push methods): the checker can tell no more (its
   * calls are marked, never dropped), so it is not asked.
   */
  standIn?: boolean;
  /**
   * Set on a call to a split helper (see plan/split-helper.ts): the call stands for the
   * request the helper made. `result` wraps the answer into what the helper returned.
   */
  via?: {
    helper: string;
    requestText: string;
    result: [before: string, after: string];
    valueType?: string;
    args: Node[];
    /** The arguments the request half, and the result half, take. */
    requestArgs: Node[];
    resultArgs: Node[];
    /** The request half is async and may return the helper's value without asking. */
    maybeAsk?: boolean;
    /** The request half takes the handler's context last. */
    takesContext?: boolean;
    /** The result half is async: `result` is awaited. */
    asyncResult?: boolean;
    /** The request half returns locals with its question, which the handler keeps in its state (their type in a typed file). */
    carried?: { type?: string };
    /** The helper's request over its parameters (plan/push-template.ts), when it can be made again. */
    push?: PushTemplate;
  };
}

/**
 * A request written over a helper's parameters (plan/push-template.ts): its text, and the names
 * it reads, each a parameter (`param`) or the property `key` a destructured parameter takes.
 */
export interface PushTemplate {
  text: string;
  names: Array<{ name: string; param: number; key?: string }>;
}

export function findLegacySites(index: FileIndex, imports: ReadonlyMap<string, { from: string; imported: string }> = new Map()): LegacySite[] {
  const sites: LegacySite[] = [];
  const declarations = constDeclarations(index);
  const held = heldObjects(index, declarations);
  // Built only when a call needs its receiver or callee followed (most candidates' calls do not).
  let built: ReceiverResolver | undefined;
  const resolver = () => (built ??= receiverResolver(index, imports));
  for (const { node, ancestors: parents } of [...index.calls, ...index.optionalCalls]) {
    // Most calls are not requests: a cheap look at the callee's name first.
    if (!mayBeLegacyCall(node)) {
      const reflected = reflectedMethod(node, parents, declarations, resolver);
      if (reflected) sites.push(reflected);
      continue;
    }
    const functions = enclosingFunctions(parents);
    const target = callTarget(node, declarations, functions, resolver);
    if (!target || target.unreadableMethod) {
      const site = unreadableSite(node, target, { functions, ancestors: parents }, index, resolver);
      if (site) sites.push(site);
      continue;
    }
    const matched = matchLegacyCall(node, target, { declarations, functions, held });
    if (!matched) {
      const wrapped = wrapperSite(node, target, node.arguments as Node[], { declarations, functions }, parents, resolver);
      if (wrapped) sites.push(wrapped);
      continue;
    }
    const certainty = receiverCertainty(matched.shape, target, functions, resolver);
    const unnamed = matched.shape.method === 'request' && matched.kind === undefined && matched.requestMethod === undefined;
    if (certainty === 'not-sdk' || (unnamed && certainty !== 'known')) continue;
    const standIn = certainty === 'uncertain' && !target.handedIn && target.path !== '' && resolver().isStandIn(target.receiver, functions);
    sites.push({
      ...matched,
      call: node,
      receiver: target.receiver,
      asked: certainty === 'uncertain' ? (target.asked ?? target.receiver) : undefined,
      functions,
      enclosing: functions[functions.length - 1],
      ancestors: parents,
      ...(target.destructured ? { destructured: target.destructured } : {}),
      ...(target.handedIn ? { handedIn: true } : {}),
      ...(certainty === 'uncertain' ? { uncertain: true } : {}),
      ...(standIn ? { standIn: true } : {}),
    });
  }
  sites.push(...handedOnReferences(index, declarations, resolver));
  sites.push(...unprovenSites(index, declarations, sites, resolver));
  // In source order, optional calls among the others.
  return sites.sort((a, b) => a.call.start! - b.call.start!);
}

/**
 * A wrapper's push call (wrapper-calls.ts): `extra.elicit(...)`, `session.requestSampling(...)`,
 * `this.extra.sendRequest({ method: 'roots/list' })`; a `sendRequest` only when something among
 * `args` (what the method receives, when they can be read) names a legacy method.
 */
function wrapperSite(
  node: LegacySite['call'],
  target: CallTarget,
  args: readonly Node[] | undefined,
  scope: Scope,
  ancestors: readonly Node[],
  resolver: () => ReceiverResolver,
): LegacySite | undefined {
  const wrapper = wrapperCall(target, scope.functions, resolver);
  if (!wrapper) return undefined;
  const { shape, holder } = wrapper;
  const method = shape.kind === 'by-method' ? namedMethod(args, scope) : undefined;
  if (shape.kind === 'by-method' && method === undefined) return undefined;
  const functions = [...scope.functions];
  return {
    call: node,
    shape,
    receiverHead: target.path.split('.')[0]!,
    kind: method ? REQUEST_METHODS[method] : (shape.kind as InputKind),
    receiver: holder,
    functions,
    enclosing: functions[functions.length - 1],
    ancestors,
    unreadable: 'contextPush',
  };
}

/** The legacy method a request sent with `args` names: by its request (`{ method }`, built by a schema) or its result's schema. */
function namedMethod(args: readonly Node[] | undefined, scope: Scope): string | undefined {
  return args ? (requestMethodOf(args[0], scope) ?? schemaMethod(args[1])) : undefined;
}

/**
 * Requests made in a way nothing proves is the SDK's, so never migrated, but which `check` must
 * not pass: a framework's push method on a handler's context (`extra.elicit(...)`), a function
 * handed in by callers that make a request with it (`sender(params)`), a JSON-RPC request built
 * by hand and sent (`transport.send({ method: 'roots/list', ... })`).
 */
export type UnprovenSite = 'contextPush' | 'sentThrough' | 'handRolled';

function unprovenSites(index: FileIndex, declarations: Declarations, found: readonly LegacySite[], resolver: () => ReceiverResolver): LegacySite[] {
  const sites: LegacySite[] = [];
  const seen = new Set<Node>(found.map((s) => s.call));
  const calls = [...index.calls, ...index.optionalCalls];
  const add = (
    node: CallExpression | OptionalCallExpression,
    ancestors: readonly Node[],
    site: Omit<LegacySite, 'call' | 'functions' | 'enclosing' | 'ancestors'>,
  ) => {
    const functions = enclosingFunctions(ancestors);
    seen.add(node);
    sites.push({ call: node, functions, enclosing: functions[functions.length - 1], ancestors, ...site });
  };
  for (const { node, ancestors } of calls) {
    if (seen.has(node)) continue;
    const functions = enclosingFunctions(ancestors);
    const method = handRolledMethod(node, declarations, functions);
    // The SDK's MCP Client sends its requests to a server: none of them asks the client.
    if (method && !resolver().isMcpClient((node.callee as MemberExpression).object, functions))
      add(node, ancestors, {
        receiver: node.callee,
        shape: SENT_BY_METHOD,
        receiverHead: '',
        kind: REQUEST_METHODS[method],
        unreadable: 'handRolled',
        requestMethod: method,
      });
  }
  // A parameter called as a function, handed a function that makes a request by the callers of
  // this module: the call through it is a request too (followed until nothing new is found).
  const byName = namedFunctions(index);
  const nameOf = new Map([...byName].map(([name, fn]) => [fn as Node, name]));
  const callsOf = new Map<string, Array<CallExpression | OptionalCallExpression>>();
  for (const { node } of calls) if (node.callee.type === 'Identifier') callsOf.set(node.callee.name, [...(callsOf.get(node.callee.name) ?? []), node]);
  const makesRequest = (fn: Node | undefined) => fn !== undefined && [...found, ...sites].some((s) => s.functions.includes(fn as FunctionNode));
  let heldProperties = new Set<string>();
  const handsRequest = (argument: Node | undefined) =>
    argument?.type === 'Identifier'
      ? makesRequest(byName.get(argument.name)) || holdsRequest(index, argument.name, heldProperties)
      : (argument?.type === 'ArrowFunctionExpression' || argument?.type === 'FunctionExpression') && makesRequest(argument);
  for (let grew = true; grew;) {
    grew = false;
    heldProperties = requestingProperties(index, makesRequest);
    for (const { node, ancestors } of calls) {
      if (seen.has(node) || node.callee.type !== 'Identifier') continue;
      const name = node.callee.name;
      const through = parameterOwner(enclosingFunctions(ancestors), name);
      const ownerName = through && nameOf.get(through.owner);
      if (!through || ownerName === undefined) continue;
      if (!(callsOf.get(ownerName) ?? []).some((call) => handsRequest(call.arguments[through.position] as Node | undefined))) continue;
      add(node, ancestors, { receiver: node.callee, shape: SENT_BY_METHOD, receiverHead: name, unreadable: 'sentThrough' });
      grew = true;
    }
  }
  return sites;
}

/**
 * Keys of object properties (and methods) the module sets to a function that makes a request
 * (`sessions[id] = { sender: (params) => server.server.elicitInput(params) }`): a value read
 * back by that key and handed on is such a function too.
 */
function requestingProperties(index: FileIndex, makesRequest: (fn: Node) => boolean): Set<string> {
  const keys = new Set<string>();
  for (const { node: fn, ancestors } of index.functions) {
    const parent = ancestors[ancestors.length - 1];
    const key =
      fn.type === 'ObjectMethod' && !fn.computed
        ? keyName(fn.key)
        : parent?.type === 'ObjectProperty' && parent.value === fn && !parent.computed
          ? keyName(parent.key)
          : undefined;
    if (key !== undefined && makesRequest(fn)) keys.add(key);
  }
  return keys;
}

/** Whether the module declares `name` as one of `properties` read back (`const { sender } = x`, `const sender = x.sender`). */
function holdsRequest(index: FileIndex, name: string, properties: ReadonlySet<string>): boolean {
  if (properties.size === 0) return false;
  return index.declarators.some(({ node }) => {
    if (node.id.type === 'Identifier')
      return node.id.name === name && node.init?.type === 'MemberExpression' && !node.init.computed && properties.has(keyName(node.init.property) ?? '');
    if (node.id.type !== 'ObjectPattern') return false;
    return node.id.properties.some(
      (p) => p.type === 'ObjectProperty' && !p.computed && p.value.type === 'Identifier' && p.value.name === name && properties.has(keyName(p.key) ?? ''),
    );
  });
}

/** The shape an unproven request is recorded with: a request sent by its method (`ctx.mcpReq.send`). */
const SENT_BY_METHOD = LEGACY_CALLS.find((s) => s.receiver === 'ctx.mcpReq' && s.kind === 'by-method')!;

/** The innermost enclosing function with a parameter `name`, and the parameter's position. */
function parameterOwner(functions: readonly FunctionNode[], name: string): { owner: FunctionNode; position: number } | undefined {
  for (const owner of [...functions].reverse()) {
    const position = argumentParams(owner).findIndex((p) => p?.type === 'Identifier' && p.name === name);
    if (position !== -1) return { owner, position };
  }
  return undefined;
}

/**
 * `x.send(request)` or `x.request(request)` whose request names a server→client method: an
 * object `{ method: 'roots/list', ... }` (written there or in a const), one built by the SDK's
 * schema, or a call building one with the method among its arguments (`createRequest(id, 'roots/list', {})`).
 */
function handRolledMethod(call: CallExpression | OptionalCallExpression, declarations: Declarations, functions: readonly FunctionNode[]): string | undefined {
  const callee = call.callee;
  if ((callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') || callee.computed) return undefined;
  if (callee.property.type !== 'Identifier' || (callee.property.name !== 'send' && callee.property.name !== 'request')) return undefined;
  return requestMethodOf(call.arguments[0] as Node | undefined, { declarations, functions });
}

/**
 * A call the request cannot be read from, on the request context or the SDK's Server: its
 * method named by an expression nothing here reads, or taken by a nested destructuring.
 */
function unreadableSite(
  call: CallExpression | OptionalCallExpression,
  target: CallTarget | undefined,
  where: { functions: FunctionNode[]; ancestors: readonly Node[] },
  index: FileIndex,
  resolver: () => ReceiverResolver,
): LegacySite | undefined {
  const { functions, ancestors } = where;
  const shape = target ? unreadableMethodShape(target, functions, resolver) : nestedPatternShape(call, functions, index);
  if (!shape) return undefined;
  return {
    call,
    shape,
    receiverHead: target ? target.path.split('.')[0]! : 'mcpReq',
    receiver: target ? target.receiver : call.callee,
    functions,
    enclosing: functions[functions.length - 1],
    ancestors,
    unreadable: target ? 'computedMethod' : 'nestedPattern',
  };
}

/**
 * `elicitInput(...)` after `const { mcpReq: { elicitInput } } = ctx`, or with the context's
 * parameter so destructured: the request context's own method, by a path nothing else follows.
 */
function nestedPatternShape(call: CallExpression | OptionalCallExpression, functions: readonly FunctionNode[], index: FileIndex): LegacyCallShape | undefined {
  const callee = call.callee;
  if (callee.type !== 'Identifier' || !LEGACY_PARAMETER_NAMES.has(callee.name)) return undefined;
  const shape = LEGACY_CALLS.find((s) => s.receiver === 'ctx.mcpReq' && s.method === callee.name);
  if (!shape) return undefined;
  const scopes = new Set<FunctionNode | null>([null, ...functions]);
  const patterns = [
    ...functions.flatMap((fn) => fn.params as Node[]),
    ...index.declarators.filter((d) => scopes.has(d.scope) && d.declaration.kind === 'const').map((d) => d.node.id as Node),
  ];
  return patterns.some((p) => underRequestContext(p, callee.name, false)) ? shape : undefined;
}

/** Whether `pattern` binds `name` inside the value of an `mcpReq` property (`{ mcpReq: { name } }`). */
function underRequestContext(pattern: Node, name: string, inside: boolean): boolean {
  switch (pattern.type) {
    case 'Identifier':
      return inside && pattern.name === name;
    case 'AssignmentPattern':
      return underRequestContext(pattern.left, name, inside);
    case 'ObjectPattern':
      return pattern.properties.some(
        (p) =>
          p.type === 'ObjectProperty' &&
          (p.value.type !== 'Identifier' || inside) &&
          underRequestContext(p.value as Node, name, inside || (!p.computed && p.key.type === 'Identifier' && p.key.name === 'mcpReq')),
      );
    default:
      return false;
  }
}

/**
 * A method named by an expression nothing here reads, called on the request context or on the
 * SDK's own low-level Server: it may be any of their requests (refuse rather than guess).
 */
function unreadableMethodShape(target: CallTarget, functions: readonly FunctionNode[], resolver: () => ReceiverResolver): LegacyCallShape | undefined {
  const parts = target.path.split('.');
  const byMethod = (receiver: LegacyCallShape['receiver']) => LEGACY_CALLS.find((s) => s.receiver === receiver && s.kind === 'by-method');
  if (throughRequestContext(parts)) return byMethod('ctx.mcpReq');
  return target.path !== '' && resolver().roleOf(target.receiver, functions) === 'server' ? byMethod('*.server') : undefined;
}

/**
 * `Reflect.get(ctx.mcpReq, 'elicitInput')`: a legacy method of the SDK's own objects taken out
 * by name, to be called later; like a method handed on, it cannot be followed.
 */
function reflectedMethod(
  call: CallExpression | OptionalCallExpression,
  ancestors: readonly Node[],
  declarations: Declarations,
  resolver: () => ReceiverResolver,
): LegacySite | undefined {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || memberPath(callee) !== 'Reflect.get' || call.arguments.length < 2) return undefined;
  const [object, key] = call.arguments as Node[];
  const functions = enclosingFunctions(ancestors);
  const method = staticString(key, declarations, functions);
  if (method === undefined || !LEGACY_METHOD_NAMES.has(method)) return undefined;
  return handedOnSite(call, { object: object!, method, invoked: {} }, ancestors, declarations, resolver);
}

/**
 * The site of legacy method `method` of `object` taken without being called (at `node`): on an
 * object known to be the SDK's (a look-alike's method may be handed anywhere), or, when it is
 * `invoked` all the same (`.call`, `.apply`, `.bind`, `Reflect.apply`), on an object in doubt,
 * a wrapper's push method included.
 */
function handedOnSite(
  node: LegacySite['call'],
  use: { object: Node; method: string; invoked: Invocation | undefined },
  ancestors: readonly Node[],
  declarations: Declarations,
  resolver: () => ReceiverResolver,
): LegacySite | undefined {
  const { object, method, invoked } = use;
  const functions = enclosingFunctions(ancestors);
  const scope = { declarations, functions };
  const target: CallTarget = { method, path: throughAliases(receiverPath(object), declarations, functions), receiver: object };
  const parts = target.path.split('.');
  const shape = LEGACY_CALLS.find((s) => s.method === method && receiverMatches(s, parts, target));
  if (!shape) return invoked ? wrapperSite(node, target, invoked.args, scope, ancestors, resolver) : undefined;
  const certainty = receiverCertainty(shape, target, functions, resolver);
  // A request sent by its method cannot be told from an HTTP client's `request` unless its arguments name one.
  const inDoubt = certainty === 'uncertain' && invoked !== undefined && (shape.kind !== 'by-method' || namedMethod(invoked.args, scope) !== undefined);
  if (certainty !== 'known' && !inDoubt) return undefined;
  return {
    call: node,
    shape,
    receiverHead: parts[0]!,
    ...(shape.kind !== 'by-method' ? { kind: shape.kind } : {}),
    receiver: object,
    functions,
    enclosing: functions[functions.length - 1],
    ancestors,
    handedOn: true,
    ...(inDoubt ? { uncertain: true, asked: askedAbout(object) ?? object } : {}),
  };
}

/**
 * The legacy methods of the SDK's own objects used otherwise than called: handed to a helper,
 * applied, stored in an object. What they ask cannot be followed, and `check` must never pass a
 * file that still pushes a request: each is a site, refused (`unfollowed-reference`). Uses the
 * call analysis follows (a call, `const f = x.m` or `x.m.bind(x)` then called) and feature
 * tests (`typeof x.m`, `if (x.m)`) are not.
 */
function handedOnReferences(index: FileIndex, declarations: Declarations, resolver: () => ReceiverResolver): LegacySite[] {
  const sites: LegacySite[] = [];
  let functionsByName: ReadonlyMap<string, FunctionNode> | undefined;
  for (const { node, ancestors } of index.legacyMembers) {
    if (!handedOn(node, ancestors) && !storedAndHandedOn(node, ancestors)) continue;
    if (toLegacyParameter(node, ancestors, (functionsByName ??= namedFunctions(index)))) continue;
    const method = propertyName(node, declarations, enclosingFunctions(ancestors));
    const site =
      method === undefined
        ? undefined
        : handedOnSite(node, { object: node.object, method, invoked: invocationOf(node, ancestors) }, ancestors, declarations, resolver);
    if (site) sites.push(site);
  }
  return sites;
}

/** The method as it is passed around, `x.m` or its bound copy `x.m.bind(x)`, and what holds that. */
function heldForm(member: Node, ancestors: readonly Node[]): { held: Node; holder: Node | undefined } {
  const parent = ancestors[ancestors.length - 1];
  const call = ancestors[ancestors.length - 2];
  const bound =
    (parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') &&
    parent.object === member &&
    !parent.computed &&
    parent.property.type === 'Identifier' &&
    parent.property.name === 'bind' &&
    (call?.type === 'CallExpression' || call?.type === 'OptionalCallExpression') &&
    call.callee === parent;
  return bound ? { held: call, holder: ancestors[ancestors.length - 3] } : { held: member, holder: parent };
}

/**
 * Whether the method (or its bound copy) is handed to a function of this module whose parameter
 * there is named like a legacy call (`confirm(server.server.elicitInput.bind(...), ...)` with
 * `async function confirm(elicitInput, ...)`): the calls through that parameter are the sites.
 */
function toLegacyParameter(member: Node, ancestors: readonly Node[], functionsByName: ReadonlyMap<string, FunctionNode>): boolean {
  const { held, holder: call } = heldForm(member, ancestors);
  if (call?.type !== 'CallExpression' || call.callee.type !== 'Identifier') return false;
  const fn = functionsByName.get(call.callee.name);
  const param = fn && argumentParams(fn)[call.arguments.indexOf(held as (typeof call.arguments)[number])];
  return param?.type === 'Identifier' && LEGACY_PARAMETER_NAMES.has(param.name);
}

/**
 * Whether the method is stored in a const (`const ask = ctx.mcpReq.elicitInput`, or bound) that
 * is also used otherwise than called (`confirmWith(ask)`): the calls through it are followed,
 * where it goes otherwise is not. Names are matched within the const's function, shadowing aside.
 */
function storedAndHandedOn(member: Node, ancestors: readonly Node[]): boolean {
  const { held, holder: declarator } = heldForm(member, ancestors);
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== held || declarator.id.type !== 'Identifier') return false;
  const name = declarator.id.name;
  const scope = innermostFunction(ancestors) ?? ancestors[0];
  let usedOtherwise = false;
  walk(scope!, (node, parents) => {
    if (usedOtherwise) return false;
    const around = parents[parents.length - 1];
    if (node.type !== 'Identifier' || node.name !== name || node === declarator.id || !around) return undefined;
    // Read as the method itself is (handedOn): called, or tested, is followed; anything else is not.
    const key = around.type === 'ObjectProperty' && around.key === node && !around.computed && !around.shorthand;
    usedOtherwise = !key && handedOn(node, parents);
    return undefined;
  });
  return usedOtherwise;
}

/** Whether a member named like a legacy method is used in a way the call analysis does not follow. */
function handedOn(member: Node, ancestors: readonly Node[]): boolean {
  const parent = ancestors[ancestors.length - 1];
  if (!parent) return false;
  switch (parent.type) {
    case 'CallExpression':
    case 'OptionalCallExpression':
      return parent.callee !== member;
    case 'MemberExpression':
    case 'OptionalMemberExpression': {
      if (parent.object !== member) return false;
      // `const f = x.m.bind(x)`: followed where `f` is called; bound and handed on, it is not.
      const { held, holder } = heldForm(member, ancestors);
      return !(held !== member && holder?.type === 'VariableDeclarator' && holder.init === held);
    }
    case 'VariableDeclarator':
      return (
        parent.init === member &&
        ancestors[ancestors.length - 2]?.type === 'VariableDeclaration' &&
        (ancestors[ancestors.length - 2] as { kind: string }).kind !== 'const'
      );
    case 'UnaryExpression':
      return parent.operator !== 'typeof' && parent.operator !== 'delete' && parent.operator !== '!';
    case 'AssignmentExpression':
      return parent.right === member;
    case 'IfStatement':
    case 'ConditionalExpression':
    case 'WhileStatement':
      return parent.test !== member;
    case 'LogicalExpression':
      return parent.left !== member;
    case 'TSNonNullExpression':
    case 'TSAsExpression':
    case 'ExpressionStatement':
      return false;
    default:
      return true;
  }
}

/**
 * `x.mcpReq`, `this.ctx.mcpReq`, `this.#context.mcpReq`: the request context of a handler's
 * context, however the context is held (`mcpReq` is the SDK's name; nothing else is called so).
 */
const throughRequestContext = (parts: readonly string[]) => parts.length >= 2 && parts[parts.length - 1] === 'mcpReq';

/** Whether a receiver (its path split at the dots) is what a legacy shape is called on. */
function receiverMatches(shape: LegacyCallShape, parts: readonly string[], target: CallTarget): boolean {
  if (shape.receiver === 'ctx.mcpReq')
    return throughRequestContext(parts) || (parts.length === 1 && parts[0] === 'mcpReq' && target.destructured !== undefined);
  return shape.receiver === 'ctx' ? parts.length === 1 : true;
}

/**
 * Whether the receiver of a `*.server` shape is the SDK's low-level Server: known from where it
 * came from (receivers.ts), certainly not (a local class's own method, an object literal, an
 * McpServer, which has no such method), or in doubt: whatever nothing here explains (another
 * module's object, a parameter, a `let`, a store's value), or a function handed in. A method
 * named like a request is never dropped for its receiver's name alone: only the type checker
 * (asked about each site in doubt) or where the receiver came from may show it is not one.
 */
function receiverCertainty(
  shape: LegacyCallShape,
  target: CallTarget,
  functions: readonly FunctionNode[],
  resolver: () => ReceiverResolver,
): 'known' | 'uncertain' | 'not-sdk' {
  if (target.handedIn) return 'uncertain';
  if (shape.receiver !== '*.server') return 'known';
  if (target.path === '') return 'uncertain';
  const role = resolver().roleOf(target.receiver, functions);
  if (role === 'server') return 'known';
  return role === undefined ? 'uncertain' : 'not-sdk';
}

type Matched = Omit<LegacySite, 'call' | 'functions' | 'enclosing' | 'ancestors' | 'receiver'>;

function matchLegacyCall(call: CallExpression | OptionalCallExpression, target: CallTarget, scope: Scope): Matched | undefined {
  if (target.path === '') return matchUntraced(call, target, scope);
  const parts = target.path.split('.');
  const shape = LEGACY_CALLS.find((s) => s.method === target.method && receiverMatches(s, parts, target));
  if (!shape) return undefined;
  const receiverHead = parts[0]!;
  const { request, held } = requestArgument(call, scope);
  if (shape.kind === 'by-method') return matchByMethod(call, { shape, receiverHead }, request, held, scope);
  const kind = shape.kind === 'elicit' && request && stringValue(propertyOf(request, 'mode')) === 'url' ? 'elicitUrl' : shape.kind;
  if (shape.kind === 'roots') return { shape, receiverHead, kind };
  return { shape, receiverHead, kind, params: request, ...(held ? { paramsRead: held } : {}) };
}

/**
 * The call's first argument; for `send(request, Schema)` with `const request = { method, params }`
 * written before, its initialiser (read statically) and the const's name (the rewrite reads it).
 */
function requestArgument(call: CallExpression | OptionalCallExpression, scope: Scope): { request?: Node; held?: string } {
  const first = call.arguments[0] as Node | undefined;
  if (first?.type !== 'Identifier') return { request: first };
  const init = scope.declarations(first.name, scope.functions)?.init;
  return init?.type === 'ObjectExpression' ? { request: init, held: first.name } : { request: first };
}

/**
 * `send({ method, params })`: the request names its kind. A request we cannot read statically is
 * still reported (it may well be an elicitation), but never rewritten; a `request` so only on the
 * SDK's own Server (findLegacySites), since `request({ method, url })` is what HTTP clients take,
 * and a `sendRequest(x)` or `request(x)` only when something names its method: the SDK's schema it
 * is built with or sent with (`sendRequest(request, ElicitResultSchema)`).
 */
function matchByMethod(
  call: CallExpression | OptionalCallExpression,
  matched: Pick<Matched, 'shape' | 'receiverHead'>,
  request: Node | undefined,
  held: string | undefined,
  scope: Scope,
): Matched | undefined {
  const { shape } = matched;
  const schema = call.arguments[1] as Node | undefined;
  if (request?.type !== 'ObjectExpression') {
    const named = requestMethodOf(request, scope) ?? schemaMethod(schema);
    if (named) return { ...matched, requestMethod: named };
    // `sendRequest(x)` on an arbitrary identifier, or `request(x)` on anything, is too generic to flag without types.
    return shape.receiver === 'ctx' || shape.method === 'request' ? undefined : matched;
  }
  const requestMethod = staticString(propertyOf(request, 'method'), scope.declarations, scope.functions);
  if (requestMethod === undefined) {
    const named = schemaMethod(schema);
    return named ? { ...matched, requestMethod: named } : matched;
  }
  const named = REQUEST_METHODS[requestMethod];
  if (!named) return undefined; // some other request (ping, a custom method): not ours
  // `send(request, CreateMessageResultSchema)`: the schema says what the answer was typed as.
  const typed = schema?.type === 'Identifier' ? /^(\w+Result)Schema$/.exec(schema.name)?.[1] : undefined;
  const written = propertyOf(request, 'params');
  // `params: elicitationParams`, a literal built before: read through its name, its mode seen.
  const followed = written?.type === 'Identifier' ? scope.held?.(written.name, scope.functions) : undefined;
  const params = followed ?? written;
  const read = followed ? (held ? `${held}.params` : (written as Identifier).name) : held && params ? `${held}.params` : undefined;
  const kind = named === 'elicit' && params && stringValue(propertyOf(params, 'mode')) === 'url' ? 'elicitUrl' : named;
  return { ...matched, shape: typed ? { ...shape, resultType: typed } : shape, kind, params, ...(read ? { paramsRead: read } : {}) };
}

/** A call with no known receiver: a function handed in under a legacy name, or a bare `send({ method })`. */
function matchUntraced(call: CallExpression | OptionalCallExpression, target: CallTarget, scope: Scope): Matched | undefined {
  const { method } = target;
  const first = call.arguments[0] as Node | undefined;
  const fixed = target.handedIn
    ? (LEGACY_CALLS.find((s) => s.receiver === '*.server' && s.method === method) ??
      (method === 'requestSampling' ? LEGACY_CALLS.find((s) => s.method === 'requestSampling') : undefined))
    : undefined;
  if (fixed && fixed.kind !== 'by-method')
    return { shape: fixed, receiverHead: '', kind: fixed.kind, ...(fixed.kind === 'roots' || !first ? {} : { params: first }) };
  const requestMethod = first?.type === 'ObjectExpression' ? staticString(propertyOf(first, 'method'), scope.declarations, scope.functions) : undefined;
  const kind = requestMethod ? REQUEST_METHODS[requestMethod] : undefined;
  const shape = LEGACY_CALLS.find((s) => s.receiver === 'ctx' && s.kind === 'by-method')!;
  return kind ? { shape, receiverHead: '', kind, params: propertyOf(first!, 'params') } : undefined;
}

/** `throw new UrlElicitationRequiredError([{ mode: 'url', ... }, ...])`: the 2025 way to send a user to a URL. */
export interface UrlElicitationThrow {
  statement: Node;
  /** The elicitation objects, when the array is written out (each a literal, or a name holding one). */
  elicitations?: ObjectExpression[];
  /** For each elicitation, the name that holds it (`[prerequisite]`), when it is not written in the array. */
  reads?: Array<string | undefined>;
  /** The array's elements as written (a literal, or the name that holds one). */
  written?: Array<ObjectExpression | Identifier>;
  functions: FunctionNode[];
  ancestors: readonly Node[];
}

export function findUrlElicitationThrows(index: FileIndex): UrlElicitationThrow[] {
  const found: UrlElicitationThrow[] = [];
  const held = heldObjects(index, constDeclarations(index));
  for (const { node, ancestors: parents } of index.throws) {
    const error = node.argument;
    if (error.type !== 'NewExpression' || error.callee.type !== 'Identifier' || error.callee.name !== URL_ELICITATION_ERROR) continue;
    const list = error.arguments[0];
    const functions = enclosingFunctions(parents);
    const elements = list?.type === 'ArrayExpression' ? list.elements.map((e) => heldElement(e, functions, held)) : undefined;
    const written = elements?.every((e) => e !== undefined) ? elements : undefined;
    found.push({
      statement: node,
      elicitations: written?.map((e) => e.object),
      ...(written?.some((e) => e.read)
        ? { reads: written.map((e) => e.read), written: (list as ArrayExpression).elements as Array<ObjectExpression | Identifier> }
        : {}),
      functions,
      ancestors: parents,
    });
  }
  return found;
}

/** An element of the array: a literal, or a name holding one. */
function heldElement(element: Node | null, functions: readonly FunctionNode[], held: HeldObjects): { object: ObjectExpression; read?: string } | undefined {
  if (element?.type === 'ObjectExpression') return { object: element };
  const object = element?.type === 'Identifier' ? held(element.name, functions) : undefined;
  return object ? { object, read: (element as Identifier).name } : undefined;
}

/**
 * The elicitations of a thrown URL elicitation error, each a site of one round: asked like
 * `await elicitInput({ mode: 'url', ... })`, resumed after the throw.
 */
export function urlThrowSites(t: UrlElicitationThrow): LegacySite[] {
  const functions = t.functions;
  const ancestors = [...t.ancestors, t.statement];
  return (t.elicitations ?? []).map((element, i) => ({
    // A held literal is asked where the throw names it.
    call: t.written?.[i] ?? element,
    at: t.statement,
    shape: URL_THROW_SHAPE,
    receiverHead: '',
    kind: 'elicitUrl' as const,
    params: element,
    ...(t.reads?.[i] ? { paramsRead: t.reads[i] } : {}),
    receiver: element,
    functions,
    enclosing: functions[functions.length - 1],
    ancestors,
  }));
}
