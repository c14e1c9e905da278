// What a call calls: the method it names and the receiver it is called on, seen through the
// spellings real servers use (aliases of the receiver, bound or destructured methods, a method
// named in brackets, a receiver no dotted path names). find-sites.ts decides which are requests.
import type { CallExpression, Node, OptionalCallExpression } from '@babel/types';
import { memberPath, propertyOf, stringValue, type FunctionNode } from './ast.ts';
import { constString, type Declarations } from './file-index.ts';
import type { ReceiverResolver } from './receivers.ts';
import { LEGACY_METHOD_NAMES, LEGACY_PARAMETER_NAMES, WRAPPER_METHOD_NAMES } from './sdk-surface.ts';

/**
 * False when the call cannot be a legacy request whatever its receiver: a method call whose
 * name neither a legacy shape nor a wrapper's push method has. Calls through a plain name are
 * looked up (`const f = x.m.bind(x)`).
 */
export function mayBeLegacyCall(call: CallExpression | OptionalCallExpression): boolean {
  const callee = unwrappedCallee(call);
  if (callee.type === 'Identifier') return true;
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return false;
  const named = (name: string) => LEGACY_METHOD_NAMES.has(name) || WRAPPER_METHOD_NAMES.has(name);
  if (!callee.computed) return callee.property.type === 'Identifier' && named(callee.property.name);
  // `x['elicitInput'](...)`, and `x[name](...)` with a const name (looked up later).
  // Any other name in brackets may be one too: it is read (or found unreadable) later.
  const written = stringValue(callee.property);
  return written !== undefined ? named(written) : true;
}

/** The callee without what only the type checker sees: `(x.m as any)(...)`, `x.m!(...)` call `x.m` on `x`. */
export function unwrappedCallee(call: CallExpression | OptionalCallExpression): Node {
  let callee: Node = call.callee;
  while (
    callee.type === 'TSAsExpression' ||
    callee.type === 'TSSatisfiesExpression' ||
    callee.type === 'TSNonNullExpression' ||
    callee.type === 'TSTypeAssertion'
  )
    callee = callee.expression;
  return callee;
}

/**
 * A string written out (`'m'`, `` `m` ``), or read from a const initialised to one
 * (`const M = 'm'`) or from a property of a const object literal (`METHODS.elicit` after
 * `const METHODS = { elicit: 'elicitation/create' } as const`).
 */
export function staticString(node: Node | undefined, declarations: Declarations, functions: readonly FunctionNode[]): string | undefined {
  const constant = constString(node, declarations, functions);
  if (constant !== undefined || !node) return constant;
  // `` `elicit${'Input'}` ``, `` `${KIND}/createMessage` `` (`as const` too): a template of static strings.
  const template = node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' ? node.expression : node;
  if (template.type === 'TemplateLiteral') {
    const parts = template.expressions.map((e) => staticString(e, declarations, functions));
    if (parts.some((p) => p === undefined)) return undefined;
    return template.quasis.map((q, i) => (q.value.cooked ?? '') + (parts[i] ?? '')).join('');
  }
  if (node.type !== 'MemberExpression' || node.computed || node.object.type !== 'Identifier' || node.property.type !== 'Identifier') return undefined;
  let object = declarations(node.object.name, functions)?.init;
  while (object?.type === 'TSAsExpression' || object?.type === 'TSSatisfiesExpression') object = object.expression;
  return object?.type === 'ObjectExpression' ? stringValue(propertyOf(object, node.property.name)) : undefined;
}

/** A member's property name: `x.m`, `x['m']`, or `x[M]` with `const M = 'm'`. */
export function propertyName(member: Node, declarations: Declarations, functions: readonly FunctionNode[]): string | undefined {
  if (member.type !== 'MemberExpression' && member.type !== 'OptionalMemberExpression') return undefined;
  if (!member.computed) return member.property.type === 'Identifier' ? member.property.name : undefined;
  return staticString(member.property, declarations, functions);
}

/**
 * A receiver path seen through const aliases of its head: `req.elicitInput` after
 * `const req = ctx.mcpReq` is `ctx.mcpReq.elicitInput`, and `mcpReq.send` after
 * `const { mcpReq } = ctx` is `ctx.mcpReq.send`. A few steps at most (aliases of aliases).
 */
export function throughAliases(path: string, declarations: Declarations, functions: readonly FunctionNode[]): string {
  for (let step = 0; step < 4; step++) {
    const dot = path.indexOf('.');
    const head = dot === -1 ? path : path.slice(0, dot);
    const declared = head === 'this' ? undefined : declarations(head, functions);
    const aliased = declared?.from
      ? joinPath(memberPath(declared.from.object), declared.from.property)
      : declared?.init
        ? memberPath(declared.init)
        : undefined;
    if (aliased === undefined || aliased === head) return path;
    path = dot === -1 ? aliased : `${aliased}${path.slice(dot)}`;
  }
  return path;
}

/**
 * A receiver as a dotted path (`server.server`, `this.#mcp`), a call of a path without
 * arguments kept as such (`getServer().server`), and `?` for what no path names
 * (`servers[0].server`, `(await connect()).server`): a request is found whatever holds it.
 */
export function receiverPath(node: Node): string {
  // `(ctx as ServerContext).mcpReq`, `ctx.mcpReq!`: the type assertion does not change the object.
  while (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'TSNonNullExpression' || node.type === 'TSTypeAssertion')
    node = node.expression;
  const named = memberPath(node);
  if (named !== undefined) return named;
  if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && !node.computed && node.property.type === 'Identifier')
    return `${receiverPath(node.object)}.${node.property.name}`;
  if (node.type === 'CallExpression' && node.arguments.length === 0) {
    const callee = memberPath(node.callee);
    if (callee !== undefined) return `${callee}()`;
  }
  return '?';
}

const joinPath = (object: string | undefined, property: string) => (object === undefined ? undefined : `${object}.${property}`);

/** A call through a name destructured from a function's parameter (`{ sendRequest }`, `{ mcpReq }`). */
export interface Destructured {
  fn: FunctionNode;
  param: Node;
  property: string;
}

/** What a call calls: a method name and its receiver, seen through `const f = x.m.bind(x)`, `const f = x.m` and `const { m } = x`. */
export interface CallTarget {
  method: string;
  /** The receiver as a dotted path (`server.server`, `this.#server`, `ctx.mcpReq`); '' when unknown. */
  path: string;
  /** The receiver expression, for the type checker. */
  receiver: Node;
  /** What the checker is asked about when the receiver is in doubt: `x` of `x.server`, which should be an McpServer. */
  asked?: Node;
  /** A function handed in as a parameter named like a legacy call (`async function ask(elicitInput, ...)`), or taken out of one (`({ createMessage }) => ...`). */
  handedIn?: boolean;
  /** The call goes through a name destructured from a handler parameter (`async (args, { sendRequest }) => ...`). */
  destructured?: Destructured;
  /** The method is named in brackets by an expression nothing here reads (`x[names.ask](...)`); `method` is ''. */
  unreadableMethod?: true;
  /** The callee is a property of an object parameter, taken out by destructuring it (`async (args, { elicit }) => ...`). */
  fromParameter?: { fn: FunctionNode; param: Node };
}

export function callTarget(
  call: CallExpression | OptionalCallExpression,
  declarations: Declarations,
  functions: readonly FunctionNode[],
  resolver: () => ReceiverResolver,
): CallTarget | undefined {
  const callee = unwrappedCallee(call);
  if (callee.type !== 'Identifier') return memberTarget(callee, declarations, functions, resolver);
  const declared = declarations(callee.name, functions);
  if (!declared) return bareNameTarget(callee, functions, resolver);
  if (declared.from) {
    // `const { m } = x.y`, and `const { m } = await connect()`, whose object no path names.
    const object = declared.from.object;
    return { method: declared.from.property, path: throughAliases(receiverPath(object), declarations, functions), receiver: object };
  }
  const init = declared.init;
  // `x.m.bind(x)`, `x?.m?.bind(x)`
  const bound =
    (init?.type === 'CallExpression' || init?.type === 'OptionalCallExpression') &&
    (init.callee.type === 'MemberExpression' || init.callee.type === 'OptionalMemberExpression') &&
    !init.callee.computed &&
    init.callee.property.type === 'Identifier' &&
    init.callee.property.name === 'bind'
      ? init.callee.object
      : init;
  return bound ? memberTarget(bound, declarations, functions, resolver) : undefined;
}

/** `x.m(...)`, `x['m'](...)`, or the member a const holds: its method and receiver. */
function memberTarget(member: Node, declarations: Declarations, functions: readonly FunctionNode[], resolver: () => ReceiverResolver): CallTarget | undefined {
  if (member.type !== 'MemberExpression' && member.type !== 'OptionalMemberExpression') return undefined;
  const method = propertyName(member, declarations, functions);
  // `x[name](...)` with a name nothing here reads: which method it calls is unknown.
  if (method === undefined && member.computed)
    return { method: '', unreadableMethod: true, path: throughAliases(receiverPath(member.object), declarations, functions), receiver: member.object };
  if (method === undefined) return undefined;
  const path = throughAliases(receiverPath(member.object), declarations, functions);
  // `mcpReq.send(...)` with `mcpReq` destructured from the handler's context.
  const destructured = path === 'mcpReq' ? destructuredFrom(path, functions, resolver) : undefined;
  const object = member.object;
  const asked = askedAbout(object);
  return { method, path, receiver: object, ...(asked ? { asked } : {}), ...(destructured ? { destructured } : {}) };
}

/**
 * `x` of a receiver `x.server`: the checker is asked whether it is an McpServer (its `.server`
 * has the SDK's type only when the SDK's declarations are installed; `x`'s own may be the project's).
 */
export function askedAbout(object: Node): Node | undefined {
  return (object.type === 'MemberExpression' || object.type === 'OptionalMemberExpression') &&
    !object.computed &&
    object.property.type === 'Identifier' &&
    object.property.name === 'server'
    ? object.object
    : undefined;
}

function destructuredFrom(name: string, functions: readonly FunctionNode[], resolver: () => ReceiverResolver): Destructured | undefined {
  const b = resolver().bindingOf(name, functions);
  return b?.kind === 'param' && b.pattern ? { fn: b.fn, param: b.param, property: b.pattern.property } : undefined;
}

/** A call through a plain name no const declares: a function handed in, or the context's own destructured. */
function bareNameTarget(
  callee: Extract<Node, { type: 'Identifier' }>,
  functions: readonly FunctionNode[],
  resolver: () => ReceiverResolver,
): CallTarget | undefined {
  // Only a name of the legacy surface may be a function handed in, or a property named so taken
  // out of a parameter (most calls are neither).
  if (!LEGACY_PARAMETER_NAMES.has(callee.name) && !takenFromParameter(callee.name, functions)) return undefined;
  const b = resolver().bindingOf(callee.name, functions);
  // `async (args, { sendRequest }) => ...`: the handler's own context, destructured.
  if (b?.kind === 'param' && b.pattern && b.pattern.property === 'sendRequest') {
    return { method: 'sendRequest', path: 'ctx', receiver: callee, destructured: { fn: b.fn, param: b.param, property: b.pattern.property } };
  }
  // `({ createMessage }) => createMessage(...)`, `(args, { elicit: ask }) => ask(...)`: a request
  // method taken out of an object handed in, whatever held it.
  if (b?.kind === 'param' && b.pattern && PATTERN_NAMES.has(b.pattern.property))
    return { method: b.pattern.property, path: '', receiver: callee, handedIn: true, fromParameter: { fn: b.fn, param: b.param } };
  // A function handed in under a legacy call's name, or a bare `send(...)` / `sendRequest(...)`
  // we cannot trace: still a site when its request names a legacy method, with no known receiver.
  if (b?.kind === 'param' && !b.pattern && LEGACY_PARAMETER_NAMES.has(callee.name)) return { method: callee.name, path: '', receiver: callee, handedIn: true };
  return !b && /^send(Request)?$/.test(callee.name) ? { method: callee.name, path: '', receiver: callee } : undefined;
}

/** Properties that name a request when taken out of an object parameter (`send` and `request` are too common). */
const PATTERN_NAMES: ReadonlySet<string> = new Set(
  [...LEGACY_METHOD_NAMES, ...WRAPPER_METHOD_NAMES].filter((name) => name !== 'send' && name !== 'request' && name !== 'sendRequest'),
);

/** Whether a parameter of `functions` destructures a property named like a request into `name` (a cheap look before the binding is asked for). */
function takenFromParameter(name: string, functions: readonly FunctionNode[]): boolean {
  return functions.some((fn) =>
    fn.params.some((param) => {
      const pattern = param.type === 'AssignmentPattern' ? param.left : param;
      return (
        pattern.type === 'ObjectPattern' &&
        pattern.properties.some(
          (p) =>
            p.type === 'ObjectProperty' &&
            !p.computed &&
            p.key.type === 'Identifier' &&
            PATTERN_NAMES.has(p.key.name) &&
            p.value.type === 'Identifier' &&
            p.value.name === name,
        )
      );
    }),
  );
}
