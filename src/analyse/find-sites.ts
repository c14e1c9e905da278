// Finds legacy server→client requests: calls matching the push surface in sdk-surface.ts.
import type { CallExpression, Node, ObjectExpression, OptionalCallExpression } from '@babel/types';
import { memberPath, propertyOf, stringValue, type FunctionNode } from './ast.ts';
import { constDeclarations, enclosingFunctions, type Declarations, type FileIndex } from './file-index.ts';
import { receiverResolver, type ReceiverResolver } from './receivers.ts';
import { LEGACY_CALLS, LEGACY_PARAMETER_NAMES, REQUEST_METHODS, URL_ELICITATION_ERROR, URL_THROW_SHAPE, type LegacyCallShape } from './sdk-surface.ts';
import type { InputKind } from '../core/vocabulary.ts';

export interface LegacySite {
  /** The call; for a URL elicitation thrown as an error, the elicitation's object in the array. */
  call: CallExpression | OptionalCallExpression | ObjectExpression;
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
  destructured?: { fn: FunctionNode; param: Node; property: string };
  /** The call goes through a function handed in as a parameter named like a legacy call. */
  handedIn?: boolean;
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
  };
}

export function findLegacySites(index: FileIndex, imports: ReadonlyMap<string, { from: string; imported: string }> = new Map()): LegacySite[] {
  const sites: LegacySite[] = [];
  const declarations = constDeclarations(index);
  // Built only when a call needs its receiver or callee followed (most candidates' calls do not).
  let built: ReceiverResolver | undefined;
  const resolver = () => (built ??= receiverResolver(index, imports));
  for (const { node, ancestors: parents } of [...index.calls, ...index.optionalCalls]) {
    // Most calls are not requests: a cheap look at the callee's name first.
    if (!mayBeLegacyCall(node)) continue;
    const functions = enclosingFunctions(parents);
    const target = callTarget(node, declarations, functions, resolver);
    if (!target) continue;
    const matched = matchLegacyCall(node, target, declarations, functions);
    if (!matched) continue;
    const certainty = receiverCertainty(matched.shape, target, functions, resolver);
    if (certainty === 'not-sdk') continue;
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
  // In source order, optional calls among the others.
  return sites.sort((a, b) => a.call.start! - b.call.start!);
}

const LEGACY_METHODS = new Set(LEGACY_CALLS.map((shape) => shape.method));

/**
 * False when the call cannot be a legacy request whatever its receiver: a method call whose
 * name no legacy shape has. Calls through a plain name are looked up (`const f = x.m.bind(x)`).
 */
function mayBeLegacyCall(call: CallExpression | OptionalCallExpression): boolean {
  const callee = call.callee;
  if (callee.type === 'Identifier') return true;
  if ((callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') && !callee.computed && callee.property.type === 'Identifier')
    return LEGACY_METHODS.has(callee.property.name);
  return false;
}

/** What a call calls: a method name and its receiver, seen through `const f = x.m.bind(x)`, `const f = x.m` and `const { m } = x`. */
interface CallTarget {
  method: string;
  /** The receiver as a dotted path (`server.server`, `this.#server`, `ctx.mcpReq`); '' when unknown. */
  path: string;
  /** The receiver expression, for the type checker. */
  receiver: Node;
  /** What the checker is asked about when the receiver is in doubt: `x` of `x.server`, which should be an McpServer. */
  asked?: Node;
  /** A function handed in as a parameter named like a legacy call (`async function ask(elicitInput, ...)`). */
  handedIn?: boolean;
  /** The call goes through a name destructured from a handler parameter (`async (args, { sendRequest }) => ...`). */
  destructured?: LegacySite['destructured'];
}

function callTarget(
  call: CallExpression | OptionalCallExpression,
  declarations: Declarations,
  functions: readonly FunctionNode[],
  resolver: () => ReceiverResolver,
): CallTarget | undefined {
  const fromMember = (member: Node): CallTarget | undefined => {
    if ((member.type !== 'MemberExpression' && member.type !== 'OptionalMemberExpression') || member.computed || member.property.type !== 'Identifier')
      return undefined;
    const path = memberPath(member.object);
    if (path === undefined) return undefined;
    const head = path.split('.')[0]!;
    // `mcpReq.send(...)` with `mcpReq` destructured from the handler's context.
    const destructured = path === 'mcpReq' ? destructuredFrom(head) : undefined;
    // `x.server.m(...)`: the checker is asked whether `x` is an McpServer (its `.server` has the
    // SDK's type only when the SDK's declarations are installed; `x`'s own may be the project's).
    const object = member.object;
    const asked =
      (object.type === 'MemberExpression' || object.type === 'OptionalMemberExpression') &&
      !object.computed &&
      object.property.type === 'Identifier' &&
      object.property.name === 'server'
        ? object.object
        : undefined;
    return { method: member.property.name, path, receiver: object, ...(asked ? { asked } : {}), ...(destructured ? { destructured } : {}) };
  };
  const destructuredFrom = (name: string): CallTarget['destructured'] => {
    const b = resolver().bindingOf(name, functions);
    return b?.kind === 'param' && b.pattern ? { fn: b.fn, param: b.param, property: b.pattern.property } : undefined;
  };
  const callee = call.callee;
  if (callee.type !== 'Identifier') return fromMember(callee);
  const declared = declarations(callee.name, functions);
  if (!declared) {
    // Only a name of the legacy surface may be a function handed in (most calls are not).
    if (!LEGACY_PARAMETER_NAMES.has(callee.name)) return undefined;
    const b = resolver().bindingOf(callee.name, functions);
    // `async (args, { sendRequest }) => ...`: the handler's own context, destructured.
    if (b?.kind === 'param' && b.pattern && b.pattern.property === 'sendRequest') {
      return { method: 'sendRequest', path: 'ctx', receiver: callee, destructured: { fn: b.fn, param: b.param, property: b.pattern.property } };
    }
    // A function handed in under a legacy call's name, or a bare `send(...)` / `sendRequest(...)`
    // we cannot trace: still a site when its request names a legacy method, with no known receiver.
    if (b?.kind === 'param' && !b.pattern && LEGACY_PARAMETER_NAMES.has(callee.name))
      return { method: callee.name, path: '', receiver: callee, handedIn: true };
    return !b && /^send(Request)?$/.test(callee.name) ? { method: callee.name, path: '', receiver: callee } : undefined;
  }
  if (declared.from) {
    const path = memberPath(declared.from.object);
    return path === undefined ? undefined : { method: declared.from.property, path, receiver: declared.from.object };
  }
  let init = declared.init;
  // `x.m.bind(x)`, `x?.m?.bind(x)`
  if (
    (init?.type === 'CallExpression' || init?.type === 'OptionalCallExpression') &&
    (init.callee.type === 'MemberExpression' || init.callee.type === 'OptionalMemberExpression') &&
    !init.callee.computed &&
    init.callee.property.type === 'Identifier' &&
    init.callee.property.name === 'bind'
  )
    init = init.callee.object;
  return init ? fromMember(init) : undefined;
}

/**
 * Whether the receiver of a `*.server` shape is the SDK's low-level Server: known from where it
 * came from (receivers.ts), certainly not (a local class's own method, an object literal), or in
 * doubt: named like a server, a local stand-in interface with push methods, a function handed
 * in, or a request naming a legacy method. Other receivers in doubt are not taken for one.
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
  if (role !== undefined) return 'not-sdk';
  const parts = target.path.split('.');
  if (/server$/i.test(parts[parts.length - 1]!) || shape.method === 'request') return 'uncertain';
  const head = target.receiver.type === 'Identifier' ? target.receiver : undefined;
  return head && resolver().isDuckTyped(head, functions) ? 'uncertain' : 'not-sdk';
}

function matchLegacyCall(
  call: CallExpression | OptionalCallExpression,
  target: CallTarget,
  declarations: Declarations,
  functions: readonly FunctionNode[],
): Omit<LegacySite, 'call' | 'functions' | 'enclosing' | 'ancestors' | 'receiver'> | undefined {
  const { method } = target;
  if (target.path === '') {
    const fixed = target.handedIn
      ? (LEGACY_CALLS.find((s) => s.receiver === '*.server' && s.method === method) ??
        (method === 'requestSampling' ? LEGACY_CALLS.find((s) => s.method === 'requestSampling') : undefined))
      : undefined;
    if (fixed && fixed.kind !== 'by-method') {
      const first = call.arguments[0] as Node | undefined;
      return { shape: fixed, receiverHead: '', kind: fixed.kind, ...(fixed.kind === 'roots' || !first ? {} : { params: first }) };
    }
    const first = call.arguments[0] as Node | undefined;
    const requestMethod = first?.type === 'ObjectExpression' ? stringValue(propertyOf(first, 'method')) : undefined;
    const kind = requestMethod ? REQUEST_METHODS[requestMethod] : undefined;
    const shape = LEGACY_CALLS.find((s) => s.receiver === 'ctx' && s.kind === 'by-method')!;
    return kind ? { shape, receiverHead: '', kind, params: propertyOf(first!, 'params') } : undefined;
  }
  const parts = target.path.split('.');
  for (const shape of LEGACY_CALLS) {
    if (shape.method !== method) continue;
    const receiverMatches =
      shape.receiver === 'ctx.mcpReq'
        ? (parts.length === 2 && parts[1] === 'mcpReq') || (parts.length === 1 && parts[0] === 'mcpReq' && target.destructured !== undefined)
        : shape.receiver === 'ctx'
          ? parts.length === 1
          : true;
    if (!receiverMatches) continue;
    let first = call.arguments[0] as Node | undefined;
    // `send(request, Schema)` with `const request = { method, params }` written before: read
    // statically from its initialiser, and written as a read of the const.
    let held: string | undefined;
    if (first?.type === 'Identifier') {
      const init = declarations(first.name, functions)?.init;
      if (init?.type === 'ObjectExpression') [held, first] = [first.name, init];
    }
    if (shape.kind !== 'by-method') {
      const kind = shape.kind === 'elicit' && first && stringValue(propertyOf(first, 'mode')) === 'url' ? 'elicitUrl' : shape.kind;
      if (shape.kind === 'roots') return { shape, receiverHead: parts[0]!, kind };
      return { shape, receiverHead: parts[0]!, kind, params: first, ...(held ? { paramsRead: held } : {}) };
    }
    // `send({ method, params })`: the request names its kind. A request we cannot read
    // statically is still reported (it may well be an elicitation), but never rewritten.
    if (first && first.type === 'ObjectExpression') {
      const requestMethod = stringValue(propertyOf(first, 'method'));
      if (requestMethod === undefined) return shape.method === 'request' ? undefined : { shape, receiverHead: parts[0]! };
      const kind = REQUEST_METHODS[requestMethod];
      if (!kind) return undefined; // some other request (ping, a custom method): not ours
      // `send(request, CreateMessageResultSchema)`: the schema says what the answer was typed as.
      const schema = call.arguments[1];
      const typed = schema?.type === 'Identifier' ? /^(\w+Result)Schema$/.exec(schema.name)?.[1] : undefined;
      const params = propertyOf(first, 'params');
      return {
        shape: typed ? { ...shape, resultType: typed } : shape,
        receiverHead: parts[0]!,
        kind,
        params,
        ...(held && params ? { paramsRead: `${held}.params` } : {}),
      };
    }
    // `sendRequest(x)` on an arbitrary identifier, or `request(x)` on anything, is too generic to flag without types.
    if (shape.receiver === 'ctx' || shape.method === 'request') return undefined;
    return { shape, receiverHead: parts[0]! };
  }
  return undefined;
}

/** `throw new UrlElicitationRequiredError([{ mode: 'url', ... }, ...])`: the 2025 way to send a user to a URL. */
export interface UrlElicitationThrow {
  statement: Node;
  /** The elicitation objects, when the array is written out. */
  elicitations?: Node[];
  functions: FunctionNode[];
  ancestors: readonly Node[];
}

export function findUrlElicitationThrows(index: FileIndex): UrlElicitationThrow[] {
  const found: UrlElicitationThrow[] = [];
  for (const { node, ancestors: parents } of index.throws) {
    const error = node.argument;
    if (error.type !== 'NewExpression' || error.callee.type !== 'Identifier' || error.callee.name !== URL_ELICITATION_ERROR) continue;
    const list = error.arguments[0];
    const elicitations = list?.type === 'ArrayExpression' && list.elements.every((e) => e?.type === 'ObjectExpression') ? (list.elements as Node[]) : undefined;
    found.push({ statement: node, elicitations, functions: enclosingFunctions(parents), ancestors: parents });
  }
  return found;
}

/**
 * The elicitations of a thrown URL elicitation error, each a site of one round: asked like
 * `await elicitInput({ mode: 'url', ... })`, resumed after the throw.
 */
export function urlThrowSites(t: UrlElicitationThrow): LegacySite[] {
  const functions = t.functions;
  const ancestors = [...t.ancestors, t.statement];
  return (t.elicitations ?? []).map((element) => ({
    call: element as ObjectExpression,
    at: t.statement,
    shape: URL_THROW_SHAPE,
    receiverHead: '',
    kind: 'elicitUrl' as const,
    params: element,
    receiver: element,
    functions,
    enclosing: functions[functions.length - 1],
    ancestors,
  }));
}
