// The v1 SDK's `McpServer.tool(...)` overloads, read from a call's arguments the way the v1 SDK
// reads them at run time (`tool(name, ...rest)` in its mcp.js): a string after the name is the
// description; then an object that is a raw zod shape (empty, or with a zod schema among its
// values) is the input schema, and an object of plain values is the annotations; the last
// argument is the callback. v2's McpServer has no `tool()`: a call read here is rewritten to
// `registerTool(name, config, cb)` (rewrite/tool-registrations.ts); one that cannot be read is
// left, and the handler it registers is not migrated (plan/v1-registrations.ts).
import type { CallExpression, Comment, Node } from '@babel/types';
import { codeSnippet } from '../core/escape.ts';
import { propertyOf, type FunctionNode } from './ast.ts';
import type { Imports } from './bindings.ts';
import type { Declarations } from './file-index.ts';

/** What one `tool(...)` call registers, each part the argument that gives it. */
export interface ToolOverload {
  name: Node;
  description?: Node;
  /** The raw zod shape (`{ table: z.string() }`, or a const holding one). */
  shape?: Node;
  annotations?: Node;
  callback: Node;
}

/** Why a call cannot be read as one of the overloads (a phrase for a marker). */
export interface Unreadable {
  unreadable: string;
}

/** What reading an argument looks names up in: the consts the call sees, and the file's imports. */
export interface OverloadScope {
  source: string;
  declarations: Declarations;
  functions: readonly FunctionNode[];
  imports: Imports;
  /**
   * The value of a const another module of the project exports, by the local name it is imported
   * under, with that module's own scope (a shape kept in a module of schemas); absent when the
   * other modules cannot be read.
   */
  importedConst?: (local: string) => ScopedValue | undefined;
}

/** A value and the scope its names are read in. */
export interface ScopedValue {
  node: Node;
  scope: OverloadScope;
}

type Part = 'description' | 'shape' | 'annotations';

/** The overload `call` (a `x.tool(...)` call) is, or why it cannot be told. */
export function readToolOverload(call: CallExpression, scope: OverloadScope): ToolOverload | Unreadable {
  const args = call.arguments;
  if (args.some((a) => a.type === 'SpreadElement')) return { unreadable: 'an argument is spread' };
  if (call.typeParameters) return { unreadable: 'it is given type arguments' };
  if (args.length < 2 || args.length > 5) return { unreadable: `it has ${args.length} argument${args.length === 1 ? '' : 's'} (the v1 SDK takes 2 to 5)` };
  const rest = args.slice(1, -1) as Node[];
  const read: ToolOverload = { name: args[0]!, callback: args[args.length - 1]! };
  if (rest.length > 0 && kindOf(rest[0]!, scope) === 'description') read.description = rest.shift();
  if (rest.length > 0) {
    const first = kindOf(rest[0]!, scope);
    if (first === 'shape') read.shape = rest.shift();
    else if (first === 'annotations' && rest.length === 1) read.annotations = rest.shift();
  }
  if (rest.length > 0 && read.shape && kindOf(rest[0]!, scope) === 'annotations') read.annotations = rest.shift();
  if (rest.length > 0) return { unreadable: `\`${snippet(rest[0]!, scope)}\` cannot be told to be a description, a raw zod shape or annotations` };
  const callback = constValue(read.callback, scope);
  if (isString(callback) || callback.node.type === 'ObjectExpression' || callback.node.type === 'ArrayExpression')
    return { unreadable: `its last argument, \`${snippet(read.callback, scope)}\`, is not a callback` };
  return read;
}

/**
 * What an argument between the name and the callback is: a string (the description), an
 * object literal (or a const holding one) that is a raw shape or annotations, or unknown.
 */
function kindOf(node: Node, scope: OverloadScope): Part | undefined {
  const value = constValue(node, scope);
  if (isString(value)) return 'description';
  if (value.node.type !== 'ObjectExpression') return undefined;
  const values: Node[] = [];
  let spread = false;
  for (const p of value.node.properties) {
    if (p.type === 'ObjectProperty') values.push(p.value as Node);
    else spread = true;
  }
  // As the v1 SDK decides: an object holding a zod schema is a shape, and so is an empty one (a
  // tool without parameters); one of plain values is annotations.
  if (values.some((v) => isZodSchema(v, value.scope, 0))) return 'shape';
  if (spread) return undefined;
  if (values.length === 0) return 'shape';
  return values.every(isPlainValue) ? 'annotations' : undefined;
}

/**
 * The value a const holds (`SHAPE`, `DESCRIPTIONS.list` of a const object, a const another
 * module exports), with the scope it is read in; or the node itself.
 */
function constValue(node: Node, scope: OverloadScope): ScopedValue {
  const bare = unwrapped(node);
  if (bare.type === 'Identifier') {
    const init = scope.declarations(bare.name, scope.functions)?.init;
    if (init) return { node: unwrapped(init), scope };
    const imported = scope.imports.has(bare.name) ? scope.importedConst?.(bare.name) : undefined;
    return imported ? { node: unwrapped(imported.node), scope: imported.scope } : { node: bare, scope };
  }
  if (bare.type === 'MemberExpression' && !bare.computed && bare.property.type === 'Identifier' && bare.object.type === 'Identifier') {
    const holder = constValue(bare.object, scope);
    const value = holder.node.type === 'ObjectExpression' ? propertyOf(holder.node, bare.property.name) : undefined;
    return value && value.type !== 'ObjectMethod' ? { node: unwrapped(value), scope: holder.scope } : { node: bare, scope };
  }
  return { node: bare, scope };
}

function unwrapped(node: Node): Node {
  let n = node;
  while (n.type === 'TSAsExpression' || n.type === 'TSSatisfiesExpression' || n.type === 'ParenthesizedExpression') n = n.expression;
  return n;
}

/** A string literal, a template, or a concatenation with one. */
function isString({ node, scope }: ScopedValue): boolean {
  if (node.type === 'StringLiteral' || node.type === 'TemplateLiteral') return true;
  if (node.type === 'BinaryExpression' && node.operator === '+')
    return isString(constValue(node.left as Node, scope)) || isString(constValue(node.right, scope));
  return false;
}

function isPlainValue(node: Node): boolean {
  const n = unwrapped(node);
  return (
    n.type === 'BooleanLiteral' || n.type === 'StringLiteral' || n.type === 'NumericLiteral' || (n.type === 'TemplateLiteral' && n.expressions.length === 0)
  );
}

/**
 * A zod schema: a chain of calls and property reads (`z.string().optional()`) from the zod
 * namespace, or a const holding one. The namespace is an import from a `zod` module, or a name
 * `z` imported from a module of the project that re-exports it.
 */
function isZodSchema(node: Node, scope: OverloadScope, depth: number): boolean {
  let n = unwrapped(node);
  while (n.type === 'CallExpression' || n.type === 'MemberExpression') n = unwrapped(n.type === 'CallExpression' ? (n.callee as Node) : n.object);
  if (n.type !== 'Identifier') return false;
  if (n !== unwrapped(node) && isZodNamespace(n.name, scope.imports)) return true;
  if (depth >= 2) return false;
  const held = constValue(n, scope);
  return held.node !== n && isZodSchema(held.node, held.scope, depth + 1);
}

/** A `zod` module specifier (`zod`, `zod/v4`, `zod/mini`). */
export const ZOD_MODULE = /^zod(?:\/|$)/;

export function isZodNamespace(name: string, imports: Imports): boolean {
  const imported = imports.get(name);
  if (!imported) return false;
  if (ZOD_MODULE.test(imported.from)) return imported.imported === '*' || imported.imported === 'default' || imported.imported === 'z';
  return name === 'z';
}

function snippet(node: Node, scope: OverloadScope): string {
  return codeSnippet(scope.source.slice(node.start!, node.end!), 40);
}

/** What the official codemod's marker says of a `x.<method>(...)` registration it could not rewrite. */
export function officialRefusalMessage(method: string): string {
  return `Could not automatically migrate .${method}() call. Manual migration required.`;
}

/**
 * The official codemod's marker of a registration it could not rewrite, written (as its runner
 * writes every marker) in a block comment on the line above the line where the call starts,
 * several messages for one line joined with ` | `.
 */
export function officialRefusalAbove(comments: readonly Comment[], call: Node, method: string): Comment | undefined {
  const line = call.loc!.start.line;
  const message = officialRefusalMessage(method);
  return comments.find((c) => c.type === 'CommentBlock' && c.loc!.end.line === line - 1 && c.loc!.start.line === line - 1 && c.value.includes(message));
}
