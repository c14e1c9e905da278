// One walk over a parsed file, recording the few kinds of node the analysis passes look at
// (calls, functions, declarations, throws, constructions). The passes (find-handlers,
// find-sites, call-graph, analyse-file) then go through these short lists instead of walking
// the whole tree again: measured on the benchmark's 312 candidates, each whole-tree walk cost
// about a fifth of the parse, and there were seven of them.
import type {
  CallExpression,
  ImportDeclaration,
  MemberExpression,
  NewExpression,
  Node,
  OptionalCallExpression,
  OptionalMemberExpression,
  ThrowStatement,
  VariableDeclaration,
  VariableDeclarator,
} from '@babel/types';
import { isFunction, stringValue, walk, type FunctionNode } from './ast.ts';
import { LEGACY_METHOD_NAMES, WRAPPER_METHOD_NAMES } from './sdk-surface.ts';

/** A node with its ancestors, outermost first: a copy of the walk's stack, made once and shared by whatever keeps it (never mutated). */
export interface Indexed<T extends Node> {
  node: T;
  ancestors: readonly Node[];
}

export interface Declarator {
  node: VariableDeclarator;
  /** The declaration it belongs to (`const`, `let`, `var`, `using`). */
  declaration: VariableDeclaration;
  /** The innermost function around it; null at the top of the module. */
  scope: FunctionNode | null;
}

export interface FileIndex {
  calls: Array<Indexed<CallExpression>>;
  /** `a?.b()` and `a.b?.()`: a legacy request spelled so is found, and refused (see find-sites). */
  optionalCalls: Array<Indexed<OptionalCallExpression>>;
  functions: Array<Indexed<FunctionNode>>;
  declarators: Declarator[];
  throws: Array<Indexed<ThrowStatement>>;
  /** Members named like a legacy request method or a wrapper's (`x.elicitInput`, `x['send']`, `ctx.elicit`), called or not. */
  legacyMembers: Array<Indexed<MemberExpression | OptionalMemberExpression>>;
  constructions: NewExpression[];
  /** Import declarations (at the top of the module, or of a `declare module` block). */
  imports: ImportDeclaration[];
  /** Catch clauses' bound patterns, class and type declarations' names, import locals. */
  otherDeclarations: Node[];
}

export function indexFile(program: Node): FileIndex {
  const index: FileIndex = {
    calls: [],
    optionalCalls: [],
    functions: [],
    declarators: [],
    throws: [],
    legacyMembers: [],
    constructions: [],
    imports: [],
    otherDeclarations: [],
  };
  walk(program, (node, parents) => {
    switch (node.type) {
      case 'CallExpression':
        index.calls.push({ node, ancestors: parents.slice() });
        break;
      case 'OptionalCallExpression':
        index.optionalCalls.push({ node, ancestors: parents.slice() });
        break;
      case 'VariableDeclarator': {
        const declaration = parents[parents.length - 1];
        if (declaration?.type === 'VariableDeclaration') index.declarators.push({ node, declaration, scope: innermostFunction(parents) });
        break;
      }
      case 'ThrowStatement':
        index.throws.push({ node, ancestors: parents.slice() });
        break;
      case 'NewExpression':
        index.constructions.push(node);
        break;
      case 'ImportDeclaration':
        index.imports.push(node);
        break;
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        if (namesLegacyMethod(node)) index.legacyMembers.push({ node, ancestors: parents.slice() });
        break;
      case 'CatchClause':
      case 'ClassDeclaration':
      case 'ClassExpression':
      case 'TSTypeAliasDeclaration':
      case 'TSInterfaceDeclaration':
      case 'TSEnumDeclaration':
      case 'ImportSpecifier':
      case 'ImportDefaultSpecifier':
      case 'ImportNamespaceSpecifier':
        index.otherDeclarations.push(node);
        break;
    }
    if (isFunction(node)) index.functions.push({ node, ancestors: parents.slice() });
    return undefined;
  });
  return index;
}

/** `x.elicitInput`, `x['send']`: a member named like a legacy request method. */
function namesLegacyMethod(member: MemberExpression | OptionalMemberExpression): boolean {
  const name = member.computed ? stringValue(member.property) : member.property.type === 'Identifier' ? member.property.name : undefined;
  return name !== undefined && (LEGACY_METHOD_NAMES.has(name) || WRAPPER_METHOD_NAMES.has(name));
}

/** The innermost function among a node's ancestors (null at the top of the module). */
export function innermostFunction(ancestors: readonly Node[]): FunctionNode | null {
  for (let i = ancestors.length - 1; i >= 0; i--) if (isFunction(ancestors[i]!)) return ancestors[i] as FunctionNode;
  return null;
}

/** The functions among a node's ancestors, innermost last. */
export function enclosingFunctions(ancestors: readonly Node[]): FunctionNode[] {
  return ancestors.filter(isFunction) as FunctionNode[];
}

export interface Declared {
  init?: Node | null;
  /** `const { m } = x.y` (or `= await connect()`): the name is the property `m` of `x.y`. */
  from?: { property: string; object: Node };
}

/**
 * `const` names with what they were initialised to, by scope: the function a declaration sits
 * in (null at the top of the module). A call resolves a name in its own function first, then
 * outwards, as the language does; a name declared twice in one function is ambiguous.
 */
export type Declarations = (name: string, functions: readonly FunctionNode[]) => Declared | undefined;

export function constDeclarations(index: FileIndex): Declarations {
  const byScope = new Map<FunctionNode | null, Map<string, Declared | 'ambiguous'>>();
  const add = (scope: FunctionNode | null, name: string, d: Declared) => {
    const names = byScope.get(scope) ?? new Map<string, Declared | 'ambiguous'>();
    byScope.set(scope, names);
    names.set(name, names.has(name) ? 'ambiguous' : d);
  };
  for (const { node, declaration, scope } of index.declarators) {
    // A `let` or `var` may hold something else by the time of the call: not followed.
    if (declaration.kind !== 'const') continue;
    if (node.id.type === 'Identifier') add(scope, node.id.name, { init: node.init });
    else if (node.id.type === 'ObjectPattern' && node.init) {
      for (const p of node.id.properties) {
        if (p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && p.value.type === 'Identifier')
          add(scope, p.value.name, { from: { property: p.key.name, object: node.init } });
      }
    }
  }
  return (name, functions) => {
    for (let i = functions.length - 1; i >= -1; i--) {
      const found = byScope.get(i === -1 ? null : functions[i]!)?.get(name);
      if (found === 'ambiguous') return undefined;
      if (found) return found;
    }
    return undefined;
  };
}

/** Functions of the file by name: declarations and `const f = async (...) => {...}`; a name declared twice is dropped. */
export function namedFunctions(index: FileIndex): Map<string, FunctionNode> {
  const found = new Map<string, FunctionNode>();
  const twice = new Set<string>();
  const add = (name: string, fn: FunctionNode) => (found.has(name) ? twice.add(name) : found.set(name, fn));
  for (const { node } of index.functions) if (node.type === 'FunctionDeclaration' && node.id) add(node.id.name, node);
  for (const { node } of index.declarators) if (node.id.type === 'Identifier' && node.init && isFunction(node.init)) add(node.id.name, node.init);
  for (const name of twice) found.delete(name);
  return found;
}

/**
 * A string written out, or read from a const initialised to one: the const the code in
 * `functions` sees (declared in its own function, or one around it).
 */
export function constString(node: Node | undefined, declarations: Declarations, functions: readonly FunctionNode[]): string | undefined {
  return stringValue(node) ?? (node?.type === 'Identifier' ? stringValue(declarations(node.name, functions)?.init) : undefined);
}
