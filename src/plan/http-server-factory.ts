// The server an HTTP route connects its transport to, and whether createMcpHandler can build the
// same one for each 2026-07-28 request: it must come from a call the route makes for each
// session or request (a factory in effect), which the handler can make too, and the route must
// do nothing else with it than connect it, close it and hear it close.
import type { CallExpression, NewExpression, Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { boundNames, hasSideEffects, isFunction, keyName, memberPath, referencedNames, walk } from '../analyse/ast.ts';
import type { FunctionNode } from '../analyse/ast.ts';
import { declarationOf, destructured, isCloseCall, references, type Reference } from './entry-references.ts';
import { type Refusal, refuse } from './refusal.ts';

export interface ServerFacts {
  factory: CallExpression;
  member?: string;
  connect: CallExpression;
}

/**
 * The server the route connects the transport to: built in the route, for each session or
 * request, by a call the handler can make too (its callee and arguments name nothing of the
 * route), and used for nothing but connect, close and its onclose (a 2025 session's end).
 */
export function serverOf(
  file: FileAnalysis,
  { route, routeParents }: { route: FunctionNode; routeParents: readonly Node[] },
  transport: NewExpression,
  text: (n: Node) => string,
): ServerFacts | { refusal: Refusal } {
  const found = connectOf(route, routeParents, transport);
  if (!found) return { refusal: refuse('http-entry', 'wiring', { use: text(transport) }) };
  const { connect, connectParents } = found;
  const receiver = (connect.callee as { object: Node }).object;
  const connectText = text(connect);
  const unknown = (server: string) => ({ refusal: refuse('http-entry', 'unknownServer', { server, connect: connectText }) });
  if (receiver.type === 'CallExpression') return repeatable(file, route, receiver) ? { factory: receiver, connect } : unknown(text(receiver));
  // `buildServer().server.connect(transport)`: the server is a member of what the call built.
  if (receiver.type === 'MemberExpression' && !receiver.computed && receiver.object.type === 'CallExpression' && receiver.property.type === 'Identifier') {
    const built = receiver.object;
    return repeatable(file, route, built) ? { factory: built, member: receiver.property.name, connect } : unknown(text(receiver));
  }
  if (receiver.type !== 'Identifier') return unknown(text(receiver));
  const name = receiver.name;
  const declared = declarationOf(file, name, connectParents);
  if (!declared) return unknown(name);
  if (declared.scope !== route) return { refusal: refuse('http-entry', 'singleton', { server: name, connect: connectText }) };
  const { declarator } = declared;
  const init = declarator.init?.type === 'AwaitExpression' ? declarator.init.argument : declarator.init;
  const member = declarator.id.type === 'ObjectPattern' ? destructured(declarator.id, name) : undefined;
  if (init?.type !== 'CallExpression' || !repeatable(file, route, init) || (declarator.id.type !== 'Identifier' && !member)) return unknown(name);
  const factory = text(init);
  for (const use of references(route, name, declarator.id)) {
    if (use.node === receiver || isCloseCall(use) || isOncloseSet(use)) continue;
    const held = use.parents.at(-1) ?? use.node;
    return { refusal: refuse('http-entry', 'heldServer', { server: name, use: text(held), line: String(held.loc!.start.line), factory }) };
  }
  for (const other of member?.others ?? []) {
    const [use] = references(route, other.local, declarator.id);
    const held = use && (use.parents.at(-1) ?? use.node);
    if (held) return { refusal: refuse('http-entry', 'heldMember', { member: other.local, factory, use: text(held), line: String(held.loc!.start.line) }) };
  }
  return { factory: init, ...(member ? { member: member.property } : {}), connect };
}

/** The one `server.connect(transport)` the route makes itself, for the transport built at `transport`. */
function connectOf(
  route: FunctionNode,
  routeParents: readonly Node[],
  transport: NewExpression,
): { connect: CallExpression; connectParents: Node[] } | undefined {
  const holder = transportName(route, transport);
  const found: Array<{ connect: CallExpression; connectParents: Node[] }> = [];
  walk(route.body, (node, within) => {
    if (isFunction(node)) return false;
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || keyName(node.callee.property) !== 'connect') return undefined;
    const [argument] = node.arguments;
    const isTransport = argument === transport || (holder !== undefined && argument?.type === 'Identifier' && argument.name === holder);
    if (node.arguments.length === 1 && isTransport) found.push({ connect: node, connectParents: [...routeParents, route, ...within] });
    return undefined;
  });
  return found.length === 1 ? found[0] : undefined;
}

/** The variable the transport is kept in: `const transport = new ...` or `transport = new ...`. */
function transportName(route: FunctionNode, transport: NewExpression): string | undefined {
  let name: string | undefined;
  walk(route.body, (node) => {
    if (node.type === 'VariableDeclarator' && node.init === transport && node.id.type === 'Identifier') name = node.id.name;
    if (node.type === 'AssignmentExpression' && node.right === transport && node.left.type === 'Identifier') name = node.left.name;
    return name === undefined ? undefined : false;
  });
  return name;
}

/** Names the route declares (its parameters included). */
export function routeLocals(file: FileAnalysis, route: FunctionNode): Set<string> {
  const names = new Set(route.params.flatMap((p) => boundNames(p).map((b) => b.name)));
  for (const d of file.index.declarators) if (isInside(d.node, route)) for (const b of boundNames(d.node.id)) names.add(b.name);
  return names;
}

/** A call whose callee and arguments name nothing the route declares: the handler can make it for each request. */
function repeatable(file: FileAnalysis, route: FunctionNode, call: CallExpression): boolean {
  const callee = memberPath(call.callee);
  if (callee === undefined || callee.startsWith('this') || call.arguments.some(hasSideEffects)) return false;
  const locals = routeLocals(file, route);
  return [...referencedNames(call)].every((n) => !locals.has(n));
}

export function isInside(node: Node, outer: Node): boolean {
  return node.start! >= outer.start! && node.end! <= outer.end!;
}

/** `server.onclose = ...` or `server.server.onclose = ...`: what a 2025 session does when it ends. */
function isOncloseSet({ node, parents }: Reference): boolean {
  let i = parents.length - 1;
  let object: Node = node;
  while (parents[i]?.type === 'MemberExpression' && (parents[i] as { object: Node }).object === object) object = parents[i--]!;
  const assignment = parents[i];
  return (
    object.type === 'MemberExpression' && keyName(object.property) === 'onclose' && assignment?.type === 'AssignmentExpression' && assignment.left === object
  );
}
