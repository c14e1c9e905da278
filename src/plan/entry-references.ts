// The bindings around an entry point's wiring: where a name is declared, every use of it, and
// the statement a node stands in. Shared by the stdio and HTTP entry-point planners, which
// answer the same question (is this server built by a call the codemod can repeat, and used
// for nothing else?) about different transports.
import type { Node, Statement, VariableDeclaration, VariableDeclarator } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { boundNames, isFunction, isNonReferencePosition, walk } from '../analyse/ast.ts';
import type { FunctionNode } from '../analyse/ast.ts';

/** The server as a member of what a call returned (`const { server, cleanup } = createServer()`), with the other members. */
export interface ServerMember {
  property: string;
  /** The other plain members, and each statement that calls one (filled by the planner). */
  others: Array<{ key: string; local: string; calls: Statement[] }>;
}

export interface Reference {
  node: Node;
  parents: readonly Node[];
}

/**
 * Every reference to `name` under `scope` but the binding `binding`. A function inside that
 * declares `name` itself (`function buildServer() { const server = ... }`) holds none; a
 * block that does counts as a use (the safe direction).
 */
export function references(scope: Node, name: string, binding: Node): Reference[] {
  const found: Reference[] = [];
  walk(scope, (node, parents) => {
    if (node === binding) return false;
    if (node !== scope && isFunction(node) && declaresOwn(node, name)) return false;
    if (node.type !== 'Identifier' || node.name !== name) return undefined;
    const parent = parents[parents.length - 1];
    if (!parent || !isNonReferencePosition(node, parent)) found.push({ node, parents: [...parents] });
    return undefined;
  });
  return found;
}

/** Whether `fn` binds `name` itself: a parameter, or a declaration of its body outside any function within. */
function declaresOwn(fn: FunctionNode, name: string): boolean {
  if (fn.params.some((p) => boundNames(p).some((b) => b.name === name))) return true;
  let own = false;
  walk(fn.body, (node) => {
    if (own) return false;
    if (node.type === 'FunctionDeclaration' && node.id?.name === name) own = true;
    if (node !== fn.body && isFunction(node)) return false;
    if (node.type === 'VariableDeclarator' && boundNames(node.id).some((b) => b.name === name)) own = true;
    return undefined;
  });
  return own;
}

/** `x.connect(<node>)` with nothing else. */
export function isConnectArgument({ node, parents }: Reference): boolean {
  const call = parents[parents.length - 1];
  if (call?.type !== 'CallExpression' || call.arguments.length !== 1 || call.arguments[0] !== node) return false;
  const callee = call.callee;
  return callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && callee.property.name === 'connect';
}

/** The statement `call;` or `await call;` is, if it is one. */
export function statementOf(parents: readonly Node[]): Statement | undefined {
  let i = parents.length - 1;
  if (parents[i]?.type === 'AwaitExpression') i--;
  const statement = parents[i];
  return statement?.type === 'ExpressionStatement' ? statement : undefined;
}

/** `server.close()`: the handle serveStdio returns closes too. */
export function isCloseCall({ node, parents }: Reference): boolean {
  const member = parents[parents.length - 1];
  const call = parents[parents.length - 2];
  return (
    member?.type === 'MemberExpression' &&
    member.object === node &&
    !member.computed &&
    member.property.type === 'Identifier' &&
    member.property.name === 'close' &&
    call?.type === 'CallExpression' &&
    call.callee === member &&
    call.arguments.length === 0
  );
}

/** `cleanup(...);` or `await cleanup(...);`: the statement, which then runs for every server built. */
export function callStatement({ node, parents }: Reference): Statement | undefined {
  const call = parents[parents.length - 1];
  if (call?.type !== 'CallExpression' || call.callee !== node) return undefined;
  return statementOf(parents.slice(0, -1));
}

/** `{ server, cleanup }` holding `serverName`: its key and the other plain members. */
export function destructured(pattern: Extract<Node, { type: 'ObjectPattern' }>, serverName: string): ServerMember | undefined {
  let property: string | undefined;
  const others: ServerMember['others'] = [];
  for (const p of pattern.properties) {
    if (p.type !== 'ObjectProperty' || p.computed || p.key.type !== 'Identifier' || p.value.type !== 'Identifier') return undefined;
    if (p.value.name === serverName) property = p.key.name;
    else others.push({ key: p.key.name, local: p.value.name, calls: [] });
  }
  return property === undefined ? undefined : { property, others };
}

/** The nearest declaration of `name` around `parents`, in a scope that declares it once. */
export function declarationOf(
  file: FileAnalysis,
  name: string,
  parents: readonly Node[],
): { declarator: VariableDeclarator; declaration: VariableDeclaration; scope: Node } | undefined {
  const functions = parents.filter(isFunction) as FunctionNode[];
  for (const scope of [...functions.reverse(), null]) {
    const here = file.index.declarators.filter((d) => d.scope === scope && boundNames(d.node.id).some((b) => b.name === name));
    if (here.length > 1) return undefined;
    const [found] = here;
    if (found) {
      if (found.declaration.declarations.length !== 1 || found.declaration.kind === 'var') return undefined;
      return { declarator: found.node, declaration: found.declaration, scope: scope ?? file.program };
    }
  }
  return undefined;
}

export function scopeOf(parents: readonly Node[]): Node {
  for (let i = parents.length - 1; i >= 0; i--) if (isFunction(parents[i]!)) return parents[i]!;
  return parents[0]!;
}

export function enclosingStatement(parents: readonly Node[]): Statement {
  for (let i = parents.length - 1; i >= 0; i--) {
    const p = parents[i]!;
    const up = parents[i - 1];
    if (up && (up.type === 'Program' || up.type === 'BlockStatement')) return p as Statement;
  }
  return parents[1] as Statement;
}
