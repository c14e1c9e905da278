// Small, dependency-free helpers over Babel nodes. The analysis walks plain objects rather
// than building a scope tree: every question it asks ("which names are read after this
// point?") is answered conservatively by over-approximation, which can only make the
// codemod carry or refuse more, never less.
import type { Node } from '@babel/types';
import { TS_TYPES, VISITOR_KEYS } from './babel.cjs';

// Babel's table of which keys of each node type hold child nodes (VISITOR_KEYS): walking only
// those is several times faster than looking at every key.
const SKIP_KEYS = new Set(['loc', 'leadingComments', 'trailingComments', 'innerComments', 'extra', 'range']);

export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export function children(node: Node): Node[] {
  const out: Node[] = [];
  const keys = VISITOR_KEYS[node.type] ?? Object.keys(node).filter((k) => !SKIP_KEYS.has(k));
  for (const key of keys) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) out.push(item);
    } else if (isNode(value)) {
      out.push(value);
    }
  }
  return out;
}

/**
 * Type-only subtrees: nothing under them runs, so no question of the analysis (calls, functions,
 * bindings, references that must exist at run time) has its answer there. The node itself is
 * still entered (a type alias's name is a declared name); its children are not.
 */
const TYPE_ONLY = new Set([
  'TSTypeAnnotation',
  'TSTypeParameterDeclaration',
  'TSTypeParameterInstantiation',
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSDeclareFunction',
]);

/**
 * Depth-first walk; return false from `enter` to skip a subtree. Parents are passed along.
 * Written without a child array per node: this loop is most of the analysis's cost after the
 * parse (file-index.ts walks each candidate once; the planner walks statements again).
 */
export function walk(node: Node, enter: (node: Node, parents: readonly Node[]) => boolean | void): void {
  const parents: Node[] = [];
  const visit = (current: Node): void => {
    if (enter(current, parents) === false || TYPE_ONLY.has(current.type)) return;
    const keys = VISITOR_KEYS[current.type];
    parents.push(current);
    if (keys === undefined) {
      for (const child of children(current)) visit(child);
    } else {
      for (let k = 0; k < keys.length; k++) {
        const value = (current as unknown as Record<string, unknown>)[keys[k]!];
        if (typeof value !== 'object' || value === null) continue;
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) if (isNode(value[i])) visit(value[i] as Node);
        } else if (isNode(value)) {
          visit(value);
        }
      }
    }
    parents.pop();
  };
  visit(node);
}

/**
 * Calls `visit` on every node under `node` (itself included), types included, depth-first;
 * return false to skip a node's subtree. No parents and no array a node: for passes that only
 * collect (see walk).
 */
export function forEachNode(node: Node, visit: (node: Node) => boolean | void): void {
  if (visit(node) === false) return;
  const keys = VISITOR_KEYS[node.type];
  if (keys === undefined) {
    for (const child of children(node)) forEachNode(child, visit);
    return;
  }
  for (let k = 0; k < keys.length; k++) {
    const value = (node as unknown as Record<string, unknown>)[keys[k]!];
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (isNode(value[i])) forEachNode(value[i] as Node, visit);
    } else if (isNode(value)) {
      forEachNode(value, visit);
    }
  }
}

export type FunctionNode = Extract<
  Node,
  { type: 'ArrowFunctionExpression' | 'FunctionExpression' | 'FunctionDeclaration' | 'ObjectMethod' | 'ClassMethod' | 'ClassPrivateMethod' }
>;

export function isFunction(node: Node): node is FunctionNode {
  return (
    node.type === 'ArrowFunctionExpression' ||
    node.type === 'FunctionExpression' ||
    node.type === 'FunctionDeclaration' ||
    node.type === 'ObjectMethod' ||
    node.type === 'ClassMethod' ||
    node.type === 'ClassPrivateMethod'
  );
}

/**
 * The parameters a call's arguments fill, in order: all but TypeScript's `this` pseudo-parameter
 * (`function (this: Svc, args, ctx)`), which Babel lists first though no argument fills it.
 * Every argument position (a handler's `ctxIndex`, a call's argument index) indexes this list.
 */
export function argumentParams(fn: FunctionNode): FunctionNode['params'] {
  return thisParam(fn) ? fn.params.slice(1) : fn.params;
}

/** TypeScript's `this` pseudo-parameter (`this: Svc`), when the function declares one. */
export function thisParam(fn: FunctionNode): FunctionNode['params'][number] | undefined {
  const first = fn.params[0];
  return first?.type === 'Identifier' && first.name === 'this' ? first : undefined;
}

/** The name of a non-computed key or property: `a`, or `#a` for a private one. */
export function keyName(key: Node): string | undefined {
  return key.type === 'Identifier' ? key.name : key.type === 'PrivateName' ? `#${key.id.name}` : undefined;
}

/** The TypeScript type an annotation (`x: T`, a return type) writes, if it is one. */
export function annotatedType(annotation: Node | null | undefined): Node | undefined {
  return annotation?.type === 'TSTypeAnnotation' ? annotation.typeAnnotation : undefined;
}

/** A statement or declaration other than a block: what a marker comment is written above. */
export function isStatementLike(node: Node): boolean {
  return /Statement$|Declaration$/.test(node.type) && node.type !== 'BlockStatement';
}

/** Names bound by a declaration pattern (`a`, `{ a, b: c }`, `[a, ...rest]`, `a = 1`). */
export function boundNames(pattern: Node): Array<{ name: string; start: number }> {
  switch (pattern.type) {
    case 'Identifier':
      return [{ name: pattern.name, start: pattern.start ?? 0 }];
    case 'ObjectPattern':
      return pattern.properties.flatMap((p) => (p.type === 'RestElement' ? boundNames(p.argument) : boundNames(p.value)));
    case 'ArrayPattern':
      return pattern.elements.flatMap((e) => (e ? boundNames(e) : []));
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    case 'RestElement':
      return boundNames(pattern.argument);
    case 'TSParameterProperty':
      return boundNames(pattern.parameter);
    default:
      return [];
  }
}

/**
 * Identifier names read or written anywhere under `node`, excluding positions that are not
 * references: non-computed member properties, object keys, labels, type annotations.
 * Over-approximates (shadowing is ignored), which is the safe direction for liveness.
 */
export function referencedNames(node: Node): Set<string> {
  const names = new Set<string>();
  walk(node, (current, parents) => {
    const parent = parents[parents.length - 1];
    // Types name nothing at run time; every other TS node (`x as T`, `f<T>`, an enum's
    // initialisers, a namespace's body) may read values. The walk itself skips annotations.
    if (TS_TYPES.has(current.type)) return false;
    if (current.type === 'Identifier' || current.type === 'JSXIdentifier') {
      if (parent && isNonReferencePosition(current, parent)) return;
      names.add(current.name);
    }
    return undefined;
  });
  return names;
}

/** Whether `id` under `parent` is a name that refers to nothing (a property, a key, a label). */
export function isNonReferencePosition(id: Node, parent: Node): boolean {
  switch (parent.type) {
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return parent.property === id && !parent.computed;
    case 'ObjectProperty':
      return parent.key === id && !parent.computed && !parent.shorthand;
    case 'ObjectMethod':
    case 'ClassMethod':
    case 'ClassProperty':
    case 'ClassPrivateMethod':
      return parent.key === id && !parent.computed;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return true;
    case 'JSXAttribute':
      return parent.name === id;
    default:
      return false;
  }
}

/** What only the type checker reads around an expression (`x as T`, `x satisfies T`, `x!`), or parentheses. */
type TypeWrapper = Extract<Node, { type: 'TSAsExpression' | 'TSSatisfiesExpression' | 'TSNonNullExpression' | 'ParenthesizedExpression' }>;

function isTypeWrapper(node: Node): node is TypeWrapper {
  return (
    node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'TSNonNullExpression' || node.type === 'ParenthesizedExpression'
  );
}

/** The expression inside its type wrappers and parentheses (`(x as T)!` is `x` at run time). */
export function withoutTypeWrappers(node: Node): Node {
  let n = node;
  while (isTypeWrapper(n)) n = n.expression;
  return n;
}

/** `a.b.c` as a dotted string when the chain is plain identifiers / `this`, else undefined. */
export function memberPath(node: Node): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && !node.computed) {
    const object = memberPath(node.object);
    if (object === undefined) return undefined;
    if (node.property.type === 'Identifier') return `${object}.${node.property.name}`;
    if (node.property.type === 'PrivateName') return `${object}.#${node.property.id.name}`;
  }
  return undefined;
}

export function stringValue(node: Node | undefined | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression') return stringValue(node.expression);
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

export function propertyOf(object: Node, name: string): Node | undefined {
  if (object.type !== 'ObjectExpression') return undefined;
  for (const p of object.properties) {
    if (p.type !== 'ObjectProperty' && p.type !== 'ObjectMethod') continue;
    if (p.computed) continue;
    const key = p.key.type === 'Identifier' ? p.key.name : stringValue(p.key);
    if (key === name) return p.type === 'ObjectProperty' ? (p.value as Node) : p;
  }
  return undefined;
}

const SIDE_EFFECTS = new Set([
  'CallExpression',
  'OptionalCallExpression',
  'NewExpression',
  'AssignmentExpression',
  'UpdateExpression',
  'AwaitExpression',
  'YieldExpression',
  'TaggedTemplateExpression',
  'ImportExpression',
]);

/** Whether evaluating this node itself may do something (a call, an assignment, `delete`...). */
export function isSideEffect(node: Node): boolean {
  return SIDE_EFFECTS.has(node.type) || (node.type === 'UnaryExpression' && node.operator === 'delete');
}

/** Whether evaluating `node` may do something: code the rewrite must not run twice. */
export function hasSideEffects(node: Node): boolean {
  return someNode(node, isSideEffect);
}

/** Whether `test` holds for `node` or a node inside it; `skip` keeps the search out of a node (untested). */
export function someNode(node: Node, test: (node: Node) => boolean, skip?: (node: Node) => boolean): boolean {
  let found = false;
  walk(node, (n) => {
    if (found || skip?.(n)) return false;
    if (test(n)) found = true;
    return found ? false : undefined;
  });
  return found;
}
