// Registrations of tools, prompts and resources made where the server is built (outside any
// handler), and the client-capability reads that guard them there. Such a read answers
// undefined on every server a factory builds (the factory runs before initialize) and on every
// 2026-07-28 connection (there is no initialize), so a guarded registration would never be
// made; the SDK itself refuses an input request whose capability the client did not declare.
import type { Node, Statement } from '@babel/types';
import { memberPath, referencedNames, someNode, stringValue, walk, withoutTypeWrappers, type FunctionNode } from './ast.ts';
import { HANDLER_REGISTRARS } from './sdk-surface.ts';

/**
 * Local names bound by `const` to the client's capabilities (`object`), a part of them the SDK
 * gates (`value`), a test of one (`test`), or what reads a capability the SDK does not gate
 * (`other:tasks` for `caps.tasks`, with the capability's name).
 */
export type CapabilityNames = Map<string, CapabilityKind>;
type CapabilityKind = 'object' | 'value' | 'test' | `other:${string}`;

/**
 * The functions of the file by name, to follow `registerConditionalTools(server)` into its body;
 * `'registers'` for an imported one the engine has shown only registers (engine/hook-registrars.ts).
 */
export type LocalFunctions = ReadonlyMap<string, FunctionNode | 'registers'>;

const SERVERISH = /server$/i;

/** `server.server.getClientCapabilities()`: the connection's client capabilities. */
function isCapabilitiesRead(node: Node): boolean {
  if (node.type !== 'CallExpression' || node.arguments.length > 0) return false;
  const callee = node.callee;
  if ((callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') || callee.computed) return false;
  if (callee.property.type !== 'Identifier' || callee.property.name !== 'getClientCapabilities') return false;
  const receiver = memberPath(callee.object);
  return receiver !== undefined && SERVERISH.test(receiver.split('.').pop()!);
}

/** The capabilities object: the read itself, `read || {}`, `read ?? {}`, or a const holding one. */
function isCapabilities(node: Node, names: CapabilityNames): boolean {
  const n = withoutTypeWrappers(node);
  if (isCapabilitiesRead(n)) return true;
  if (n.type === 'Identifier') return names.get(n.name) === 'object';
  return n.type === 'LogicalExpression' && (n.operator === '||' || n.operator === '??') && n.right.type === 'ObjectExpression' && isCapabilities(n.left, names);
}

/** One declared capability or a part of it: `caps.elicitation`, `caps?.elicitation?.url`. */
function isCapabilityValue(node: Node, names: CapabilityNames): boolean {
  const n = withoutTypeWrappers(node);
  if (n.type === 'Identifier') return names.get(n.name) === 'value';
  if (n.type !== 'MemberExpression' && n.type !== 'OptionalMemberExpression') return false;
  if (n.computed && stringValue(n.property) === undefined) return false;
  if (isCapabilities(n.object, names)) return GATED.has(propertyName(n)!);
  return isCapabilityValue(n.object, names);
}

function propertyName(n: Extract<Node, { type: 'MemberExpression' | 'OptionalMemberExpression' }>): string | undefined {
  if (n.computed) return stringValue(n.property);
  return n.property.type === 'Identifier' ? n.property.name : undefined;
}

/**
 * The first capability `node` reads that the SDK does not gate (`tasks` in `caps?.tasks`,
 * `'experimental' in caps`, a const of one), if any: a guard on it decides what the tool does,
 * so it is kept and marked, never dropped.
 */
export function ungatedCapability(node: Node, names: CapabilityNames): string | undefined {
  let found: string | undefined;
  walk(node, (n) => {
    if (found !== undefined) return;
    if ((n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && isCapabilities(n.object, names)) {
      const name = propertyName(n);
      if (name === undefined || !GATED.has(name)) found = name ?? '[computed]';
    } else if (n.type === 'BinaryExpression' && n.operator === 'in' && isCapabilities(n.right, names)) {
      const name = stringValue(n.left);
      if (name === undefined || !GATED.has(name)) found = name ?? '[computed]';
    } else if (n.type === 'Identifier' && names.get(n.name)?.startsWith('other:')) found = names.get(n.name)!.slice('other:'.length);
  });
  return found;
}

/**
 * The capabilities whose requests the SDK itself refuses when the client did not declare them
 * (an input request of a migrated handler): a guard on one can go. Any other (`tasks`,
 * `experimental`) decides what the tool does, and its guard stays.
 */
const GATED = new Set(['elicitation', 'sampling', 'roots']);

/**
 * Capabilities the 2026-07-28 revision removed (SEP-2663 took tasks out of the protocol, and the
 * v2 SDK runs no client task): what registers behind one does not depend on when it is read,
 * since no migrated server can serve it (the guard stays, marked).
 */
export const REMOVED_CAPABILITIES = new Set(['tasks']);

const NOTHING = (n: Node) => (n.type === 'Identifier' && n.name === 'undefined') || n.type === 'NullLiteral';

/**
 * A test that holds only when the client declared capabilities: `caps.elicitation`,
 * `caps.elicitation !== undefined`, `!!caps.sampling`, `'roots' in caps`, `a && b` of such.
 */
export function isCapabilityTest(node: Node, names: CapabilityNames): boolean {
  const n = withoutTypeWrappers(node);
  if (isCapabilityValue(n, names)) return true;
  if (n.type === 'Identifier') return names.get(n.name) === 'test';
  if (n.type === 'UnaryExpression' && n.operator === '!') {
    const inner = withoutTypeWrappers(n.argument);
    return inner.type === 'UnaryExpression' && inner.operator === '!' && isCapabilityValue(inner.argument, names);
  }
  if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'Boolean' && n.arguments.length === 1)
    return isCapabilityValue(n.arguments[0]!, names);
  if (n.type === 'LogicalExpression')
    return (n.operator === '&&' || n.operator === '||') && isCapabilityTest(n.left, names) && isCapabilityTest(n.right, names);
  if (n.type !== 'BinaryExpression') return false;
  if (n.operator === 'in') return GATED.has(stringValue(n.left) ?? '') && isCapabilities(n.right, names);
  if (n.operator !== '!==' && n.operator !== '!=') return false;
  const [left, right] = [withoutTypeWrappers(n.left), withoutTypeWrappers(n.right)];
  if (left.type === 'UnaryExpression' && left.operator === 'typeof') return stringValue(right) === 'undefined' && isCapabilityValue(left.argument, names);
  return (isCapabilityValue(left, names) && NOTHING(right)) || (isCapabilityValue(right, names) && NOTHING(left));
}

function otherKind(capability: string | undefined): CapabilityKind | undefined {
  return capability === undefined ? undefined : `other:${capability}`;
}

/** Whether `node` reads the client's capabilities, directly or through a const of `names`. */
export function readsCapabilities(node: Node, names: CapabilityNames): boolean {
  if (someNode(node, isCapabilitiesRead)) return true;
  for (const name of referencedNames(node)) if (names.has(name)) return true;
  return false;
}

/** `const caps = server.server.getClientCapabilities() || {}`, `const tasks = caps.tasks` or `const canAsk = caps.elicitation !== undefined`: the names it binds. */
export function capabilityDeclaration(statement: Statement, names: CapabilityNames): Array<[string, CapabilityKind]> | undefined {
  if (statement.type !== 'VariableDeclaration' || statement.kind !== 'const') return undefined;
  const bound: Array<[string, CapabilityKind]> = [];
  const seen: CapabilityNames = new Map(names);
  for (const d of statement.declarations) {
    if (d.id.type !== 'Identifier' || !d.init) return undefined;
    const kind = isCapabilities(d.init, seen)
      ? 'object'
      : isCapabilityValue(d.init, seen)
        ? 'value'
        : isCapabilityTest(d.init, seen)
          ? 'test'
          : otherKind(ungatedCapability(d.init, seen));
    if (!kind) return undefined;
    bound.push([d.id.name, kind]);
    seen.set(d.id.name, kind);
  }
  return bound;
}

/** The capability consts a block declares at its top, in order, with those of the blocks around it. */
export function capabilityNames(statements: readonly Statement[], outer: CapabilityNames = new Map()): CapabilityNames {
  const names: CapabilityNames = new Map(outer);
  for (const s of statements) for (const [name, kind] of capabilityDeclaration(s, names) ?? []) names.set(name, kind);
  return names;
}

/** `server.registerTool(...)`, `server.prompt(...)`: a registration call on a server. */
export function isRegistrationCall(node: Node): boolean {
  if (node.type !== 'CallExpression') return false;
  const callee = node.callee;
  if ((callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') || callee.computed || callee.property.type !== 'Identifier')
    return false;
  const method = callee.property.name;
  if (!Object.hasOwn(HANDLER_REGISTRARS, method)) return false;
  if (method.startsWith('register')) return true;
  const receiver = memberPath(callee.object);
  return receiver !== undefined && SERVERISH.test(receiver.split('.').pop()!);
}

/** The statements of a block, or the one statement of a braceless branch. */
export function statementsOf(node: Statement): readonly Statement[] {
  return node.type === 'BlockStatement' ? node.body : [node];
}

/**
 * Whether running `statement` only registers tools, prompts or resources: a registration call,
 * a call of a function of this file that only registers, or a block of them, possibly behind a
 * capability guard (which the rewrite drops).
 */
export function onlyRegisters(
  statement: Statement,
  functions: LocalFunctions,
  names: CapabilityNames = new Map(),
  visiting = new Set<FunctionNode>(),
): boolean {
  if (statement.type === 'ExpressionStatement') {
    const call = withoutTypeWrappers(statement.expression);
    if (isRegistrationCall(call)) return true;
    if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier') return false;
    const fn = functions.get(call.callee.name);
    return fn === 'registers' || (fn !== undefined && functionOnlyRegisters(fn, functions, visiting));
  }
  if (statement.type === 'BlockStatement') return blockOnlyRegisters(statement.body, functions, names, visiting);
  if (statement.type === 'IfStatement' && !statement.alternate && (isCapabilityTest(statement.test, names) || testsRemovedCapability(statement.test, names)))
    return blockOnlyRegisters(statementsOf(statement.consequent), functions, names, visiting);
  return false;
}

/** A guard reading a capability the revision removed (`caps.tasks?.requests`), and nothing but capabilities. */
function testsRemovedCapability(test: Node, names: CapabilityNames): boolean {
  const capability = ungatedCapability(test, names);
  return capability !== undefined && REMOVED_CAPABILITIES.has(capability) && onlyCapabilities(test, names);
}

/** `a && !b`, `x !== undefined`, `'x' in caps` of capability reads or capability consts alone. */
function onlyCapabilities(test: Node, names: CapabilityNames): boolean {
  const n = withoutTypeWrappers(test);
  if (n.type === 'LogicalExpression') return onlyCapabilities(n.left, names) && onlyCapabilities(n.right, names);
  if (n.type === 'UnaryExpression' && n.operator === '!') return onlyCapabilities(n.argument, names);
  if (n.type === 'BinaryExpression' && n.operator === 'in') return stringValue(n.left) !== undefined && isCapabilities(n.right, names);
  if (n.type === 'BinaryExpression' && (n.operator === '!==' || n.operator === '!='))
    return (
      (NOTHING(withoutTypeWrappers(n.right)) && capabilityChain(n.left, names)) || (NOTHING(withoutTypeWrappers(n.left)) && capabilityChain(n.right, names))
    );
  return capabilityChain(n, names);
}

/** A capability const, or properties read down from the capabilities (`caps.tasks?.requests?.elicitation`). */
function capabilityChain(node: Node, names: CapabilityNames): boolean {
  let n = withoutTypeWrappers(node);
  while ((n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && propertyName(n) !== undefined) {
    if (isCapabilities(n.object, names)) return true;
    n = withoutTypeWrappers(n.object);
  }
  return n.type === 'Identifier' && names.has(n.name);
}

/** The body of a function that only registers (a capability const, a bare `return;` aside). */
export function functionOnlyRegisters(fn: FunctionNode, functions: LocalFunctions, visiting = new Set<FunctionNode>()): boolean {
  if (visiting.has(fn) || fn.body.type !== 'BlockStatement' || fn.async || fn.generator) return false;
  visiting.add(fn);
  try {
    return blockOnlyRegisters(fn.body.body, functions, new Map(), visiting);
  } finally {
    visiting.delete(fn);
  }
}

function blockOnlyRegisters(statements: readonly Statement[], functions: LocalFunctions, outer: CapabilityNames, visiting: Set<FunctionNode>): boolean {
  const names = capabilityNames(statements, outer);
  const own = new Set([...names.keys()].filter((n) => !outer.has(n)));
  let registers = false;
  for (const s of statements) {
    if (capabilityDeclaration(s, names) || s.type === 'EmptyStatement') continue;
    if (s.type === 'ReturnStatement' && !s.argument) continue;
    // `if (!caps.elicitation) return;`: a guard that ends the function for clients without it.
    if (isEarlyReturnGuard(s, names)) continue;
    if (!onlyRegisters(s, functions, names, visiting)) return false;
    // A capability const a handler reads would hold what the server was built with, not the
    // connection's: such a block does not only register.
    const body = s.type === 'IfStatement' ? s.consequent : s;
    if ([...referencedNames(body)].some((n) => own.has(n))) return false;
    registers = true;
  }
  return registers;
}

/** `if (!caps.elicitation) return;` (or `{ return; }`): the rest runs only for clients that declared it. */
export function isEarlyReturnGuard(statement: Statement, names: CapabilityNames): boolean {
  if (statement.type !== 'IfStatement' || statement.alternate) return false;
  const test = withoutTypeWrappers(statement.test);
  if (test.type !== 'UnaryExpression' || test.operator !== '!' || !isCapabilityTest(test.argument, names)) return false;
  const body = statementsOf(statement.consequent);
  return body.length === 1 && body[0]!.type === 'ReturnStatement' && !body[0]!.argument;
}
