// What an expression holds, known from where it came from rather than from the type checker
// (a checkout without node_modules has no SDK types to check against): an McpServer, the
// low-level Server, something that is certainly neither, or unknown. Followed: `new` of a class
// imported from the SDK (or a local subclass of one), annotations naming an SDK type (or a
// local interface, alias or class built on one), class fields (`this.server`, `this.#server`,
// parameter properties, `this.x = ...` in any method), consts, parameters (by annotation or
// default), local factories (by return annotation or what they return), `.server` of an
// McpServer, and properties of object literals. What comes from another module of the project
// is unknown here: the checker may settle it (ts-type-facts.ts).
import type { Node } from '@babel/types';
import { boundNames, isFunction, walk, type FunctionNode } from './ast.ts';
import type { FileIndex } from './file-index.ts';

/** `mcp-server`: an McpServer; `server`: the low-level Server; `other`: certainly neither. */
export type Role = 'mcp-server' | 'server' | 'other';

/** An import's module is the SDK's: v1 (`@modelcontextprotocol/sdk/...`) or v2. */
export function isSdkSpecifier(specifier: string): boolean {
  return /^@modelcontextprotocol\/(sdk|server|core)(\/|$)/.test(specifier);
}

/** Methods whose presence on a local interface or type literal makes it a stand-in for the SDK's Server. */
const PUSH_METHODS = new Set(['elicitInput', 'createMessage', 'listRoots', 'request', 'sendRequest', 'requestSampling']);

type Imports = ReadonlyMap<string, { from: string; imported: string }>;
export type ClassNode = Extract<Node, { type: 'ClassDeclaration' | 'ClassExpression' }>;

/** What resolving gives: a role, an object literal (whose properties are looked into), or unknown. */
type Resolved =
  | Role
  | { object: Extract<Node, { type: 'ObjectExpression' }>; chain: readonly FunctionNode[] }
  | { instance: ClassNode }
  /** A value of a project's own interface or type literal: its members' types say what its properties hold. */
  | { shape: readonly Node[]; chain: readonly FunctionNode[] }
  /** An instance of a class another module exports (`new Prompter(...)`). */
  | { imported: { from: string; imported: string } }
  | undefined;

export interface ReceiverResolver {
  /** The role of `node`, evaluated inside `functions` (innermost last). */
  roleOf(node: Node, functions: readonly FunctionNode[]): Role | undefined;
  /** Whether the type named at `node` (an annotation's type) is a local stand-in for the SDK's Server: an interface or type literal with push methods, no SDK base. */
  isDuckTyped(node: Node, functions: readonly FunctionNode[]): boolean;
  /** Whether the value of `node` is declared as such a stand-in (`llm.server` of `llm: Gateway`, whose `server` is one). */
  isStandIn(node: Node, functions: readonly FunctionNode[]): boolean;
  /** The binding a name has at a point, for callers that ask what a callee is. */
  bindingOf(name: string, functions: readonly FunctionNode[]): Binding | undefined;
  /**
   * The class a value is an instance of: a class of this file, one imported (by module and
   * name), `other` for a value that is certainly no class instance of the project, undefined
   * when unknown.
   */
  classOf(node: Node, functions: readonly FunctionNode[]): ClassNode | { from: string; imported: string } | 'other' | undefined;
}

export type Binding =
  | { kind: 'variable'; id: Node; init?: Node | null; annotation?: Node; chain: readonly FunctionNode[]; constant: boolean }
  | {
      kind: 'param';
      id: Node;
      param: Node;
      fn: FunctionNode;
      chain: readonly FunctionNode[];
      annotation?: Node;
      fallback?: Node;
      pattern?: { property: string };
    }
  | { kind: 'function'; fn: FunctionNode; chain: readonly FunctionNode[] }
  | { kind: 'class'; node: ClassNode }
  | { kind: 'import'; from: string; imported: string };

// The last file's resolver only (a file's sites are planned together): a WeakMap by index kept
// each file's tree alive through young-generation collections, and the run paid for it.
let last: { index: FileIndex; imports: Imports; resolver: ReceiverResolver } | undefined;

/** The resolver of a file, built the first time a site asks (most files never do). */
export function receiverResolver(index: FileIndex, imports: Imports): ReceiverResolver {
  if (last?.index !== index || last.imports !== imports) last = { index, imports, resolver: buildResolver(index, imports) };
  return last.resolver;
}

function buildResolver(index: FileIndex, imports: Imports): ReceiverResolver {
  // The functions around each function, innermost last (itself included), and the class `this`
  // means in it: worked out on demand (a file's resolver answers a few questions).
  const ancestorsMemo = new Map<FunctionNode, readonly Node[]>();
  const ancestorsOf = {
    get: (fn: FunctionNode) => {
      let found = ancestorsMemo.get(fn);
      if (!found) ancestorsMemo.set(fn, (found = index.functions.find((f) => f.node === fn)?.ancestors ?? []));
      return found;
    },
  };
  const chains = new Map<FunctionNode | null, readonly FunctionNode[]>([[null, []]]);
  const chainOf = (fn: FunctionNode | null): readonly FunctionNode[] => {
    let chain = chains.get(fn);
    if (!chain) chains.set(fn, (chain = [...chainOf(nearestFunction(ancestorsOf.get(fn!) ?? [])), fn!]));
    return chain;
  };
  const thisClasses = new Map<FunctionNode, ClassNode | undefined>();
  const thisClass = {
    get: (fn: FunctionNode | undefined) =>
      fn === undefined ? undefined : thisClasses.has(fn) ? thisClasses.get(fn) : thisClasses.set(fn, classForThis(fn, ancestorsOf.get(fn) ?? [])).get(fn),
  };

  // Declarations by name, with the scope each sits in (the function, null for the module): one
  // pass over the index's lists, the bindings made when a name is asked about. A name declared
  // twice in one scope is ambiguous, and resolves to nothing.
  type Entry = { scope: FunctionNode | null; make: () => Binding; made?: Binding };
  // Looked up name by name: a file's resolver is asked about a few names, and building a table
  // of every declaration of a large file cost more than the questions.
  const table = new Map<string, Entry[]>();
  const entriesFor = (name: string): Entry[] => {
    let list = table.get(name);
    if (list) return list;
    list = [];
    const bind = (scope: FunctionNode | null, make: () => Binding) => list!.push({ scope, make });
    for (const { node, declaration, scope } of index.declarators) {
      const constant = declaration.kind === 'const';
      if (node.id.type === 'Identifier') {
        if (node.id.name !== name) continue;
        const id = node.id;
        bind(scope, () => ({
          kind: 'variable',
          id,
          init: node.init,
          annotation: id.typeAnnotation?.type === 'TSTypeAnnotation' ? id.typeAnnotation.typeAnnotation : undefined,
          chain: chainOf(scope),
          constant,
        }));
      } else if (boundNames(node.id).some((b) => b.name === name)) bind(scope, () => ({ kind: 'variable', id: node.id, chain: chainOf(scope), constant }));
    }
    for (const { node, ancestors } of index.functions) {
      for (const param of node.params) {
        const target = param.type === 'TSParameterProperty' ? param.parameter : param;
        const fallback = target.type === 'AssignmentPattern' ? target.right : undefined;
        const id = target.type === 'AssignmentPattern' ? target.left : target;
        if (id.type === 'Identifier') {
          if (id.name === name)
            bind(node, () => ({
              kind: 'param',
              id,
              param,
              fn: node,
              chain: chainOf(node),
              annotation: id.typeAnnotation?.type === 'TSTypeAnnotation' ? id.typeAnnotation.typeAnnotation : undefined,
              fallback,
            }));
        } else if (id.type === 'ObjectPattern') {
          for (const p of id.properties) {
            if (p.type !== 'ObjectProperty' || p.computed || p.key.type !== 'Identifier') continue;
            const value = p.value.type === 'AssignmentPattern' ? p.value.left : p.value;
            const property = p.key.name;
            if (value.type === 'Identifier' && value.name === name)
              bind(node, () => ({ kind: 'param', id: value, param, fn: node, chain: chainOf(node), pattern: { property } }));
          }
        }
      }
      if (node.type === 'FunctionDeclaration' && node.id?.name === name)
        bind(nearestFunction(ancestors), () => ({ kind: 'function', fn: node, chain: chainOf(node) }));
    }
    for (const node of index.otherDeclarations) if (node.type === 'ClassDeclaration' && node.id?.name === name) bind(null, () => ({ kind: 'class', node }));
    const imported = imports.get(name);
    if (imported) bind(null, () => ({ kind: 'import', from: imported.from, imported: imported.imported }));
    table.set(name, list);
    return list;
  };
  let typeTable: Map<string, Node> | undefined;
  const types = {
    get: (name: string) => {
      if (!typeTable) {
        typeTable = new Map();
        for (const node of index.otherDeclarations)
          if ((node.type === 'TSInterfaceDeclaration' || node.type === 'TSTypeAliasDeclaration') && node.id.type === 'Identifier')
            typeTable.set(node.id.name, node);
      }
      return typeTable.get(name);
    },
  };

  const bindingOf = (name: string, functions: readonly FunctionNode[]): Binding | undefined => {
    const entries = entriesFor(name);
    if (entries.length === 0) return undefined;
    for (let i = functions.length - 1; i >= -1; i--) {
      const scope = i === -1 ? null : functions[i]!;
      let found: Entry | undefined;
      for (const e of entries) {
        if (e.scope !== scope) continue;
        if (found) return undefined; // ambiguous
        found = e;
      }
      if (found) return (found.made ??= found.make());
    }
    return undefined;
  };

  // Members of a class `this.x` may hold: declared fields, parameter properties, getters, `this.x = ...`.
  type Member = { type?: Node; value?: Node; getter?: FunctionNode; chain: readonly FunctionNode[] };
  const members = new Map<ClassNode, Map<string, Member[]>>();
  const membersOf = (cls: ClassNode) => {
    const found = members.get(cls);
    if (found) return found;
    const table = new Map<string, Member[]>();
    members.set(cls, table);
    const add = (name: string, entry: Member) => table.set(name, [...(table.get(name) ?? []), entry]);
    for (const member of cls.body.body) {
      if ((member.type === 'ClassProperty' || member.type === 'ClassPrivateProperty') && !member.static) {
        const name = keyName(member.key);
        const type = member.typeAnnotation?.type === 'TSTypeAnnotation' ? member.typeAnnotation.typeAnnotation : undefined;
        if (name) add(name, { type, value: member.value ?? undefined, chain: [] });
      }
      if ((member.type === 'ClassMethod' || member.type === 'ClassPrivateMethod') && member.kind === 'get' && !member.static) {
        const name = keyName(member.key);
        if (name) add(name, { getter: member, chain: chainOf(member) });
      }
      if (member.type === 'ClassMethod' && member.kind === 'constructor') {
        for (const param of member.params) {
          if (param.type !== 'TSParameterProperty') continue;
          const id = param.parameter.type === 'AssignmentPattern' ? param.parameter.left : param.parameter;
          if (id.type === 'Identifier')
            add(id.name, { type: id.typeAnnotation?.type === 'TSTypeAnnotation' ? id.typeAnnotation.typeAnnotation : undefined, chain: chainOf(member) });
        }
      }
    }
    walk(cls.body, (node, parents) => {
      if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') return false; // another class's `this`
      if (
        node.type !== 'AssignmentExpression' ||
        node.operator !== '=' ||
        node.left.type !== 'MemberExpression' ||
        node.left.object.type !== 'ThisExpression' ||
        node.left.computed
      )
        return undefined;
      const fns = parents.filter(isFunction) as FunctionNode[];
      const inner = fns[fns.length - 1];
      const name = keyName(node.left.property);
      if (inner && thisClass.get(inner) === cls && name) add(name, { value: node.right, chain: chainOf(inner) });
      return undefined;
    });
    return table;
  };

  const seen = new Set<Node>();
  /** Several sources that must agree: one role, or unknown. */
  const agree = (roles: Array<Role | undefined>): Role | undefined => {
    const known = new Set(roles);
    return known.size === 1 ? roles[0] : undefined;
  };

  const resolve = (node: Node, functions: readonly FunctionNode[]): Resolved => {
    if (seen.has(node)) return undefined; // a cycle (`let a = b; b = a`)
    seen.add(node);
    try {
      return resolveOnce(node, functions);
    } finally {
      seen.delete(node);
    }
  };
  const roleOfResolved = (r: Resolved): Role | undefined => {
    if (typeof r !== 'object') return r;
    if ('imported' in r) return undefined;
    // A stand-in with push methods is unknown: its calls are marked, never dropped.
    return 'shape' in r && r.shape.some((m) => PUSH_METHODS.has(memberName(m) ?? '')) ? undefined : 'other';
  };
  const typeRole = (type: Node, functions: readonly FunctionNode[]): Role | undefined => roleOfResolved(typeResolve(type, functions));
  /** What every `return` of a function gives, when they agree (an arrow's expression body included). */
  const returnedRole = (fn: FunctionNode, chain: readonly FunctionNode[]): Role | undefined => {
    if (fn.body.type !== 'BlockStatement') return roleOfResolved(resolve(fn.body, chain));
    const returned: Array<Role | undefined> = [];
    walk(fn.body, (n) => {
      if (n !== fn.body && isFunction(n)) return false;
      if (n.type === 'ReturnStatement') returned.push(n.argument ? roleOfResolved(resolve(n.argument, chain)) : undefined);
      return undefined;
    });
    return returned.length > 0 ? agree(returned) : undefined;
  };

  const resolveOnce = (node: Node, functions: readonly FunctionNode[]): Resolved => {
    switch (node.type) {
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
        return typeResolve(node.typeAnnotation, functions) ?? resolve(node.expression, functions);
      case 'TSNonNullExpression':
      case 'ParenthesizedExpression':
        return resolve(node.expression, functions);
      case 'AwaitExpression':
        return resolve(node.argument, functions);
      case 'ObjectExpression':
        return { object: node, chain: functions };
      case 'NewExpression':
        return constructed(node.callee, functions);
      case 'ThisExpression': {
        const cls = thisClass.get(functions[functions.length - 1]!);
        return cls ? { instance: cls } : undefined;
      }
      case 'CallExpression':
        return called(node.callee, functions);
      case 'LogicalExpression':
        return agree([roleOfResolved(resolve(node.left, functions)), roleOfResolved(resolve(node.right, functions))]);
      case 'ConditionalExpression':
        return agree([roleOfResolved(resolve(node.consequent, functions)), roleOfResolved(resolve(node.alternate, functions))]);
      case 'Identifier':
        return fromBinding(bindingOf(node.name, functions));
      case 'MemberExpression':
      case 'OptionalMemberExpression': {
        const key = node.computed ? undefined : keyName(node.property);
        if (!key) return undefined;
        const object = resolve(node.object, functions);
        if (object === undefined) return undefined;
        if (typeof object === 'object' && 'shape' in object) {
          const member = object.shape.find((m) => memberName(m) === key);
          if (!member) return undefined;
          const type =
            member.type === 'TSPropertySignature' && member.typeAnnotation?.type === 'TSTypeAnnotation' ? member.typeAnnotation.typeAnnotation : undefined;
          return type ? typeResolve(type, object.chain) : member.type === 'TSMethodSignature' ? 'other' : undefined;
        }
        if (typeof object === 'object' && 'imported' in object) return undefined;
        if (typeof object === 'object' && 'instance' in object) {
          const entries = membersOf(object.instance).get(key);
          if (!entries) return undefined;
          // A declared type says what the field holds, whatever assigns it.
          const declared = entries.find((e) => e.type);
          if (declared) return typeResolve(declared.type!, declared.chain);
          if (entries.length === 1) {
            const e = entries[0]!;
            if (e.value) return resolve(e.value, e.chain);
            if (e.getter) return returnedRole(e.getter, e.chain);
          }
          return agree(
            entries.map((e) =>
              e.type ? typeRole(e.type, e.chain) : e.value ? roleOfResolved(resolve(e.value, e.chain)) : e.getter ? returnedRole(e.getter, e.chain) : undefined,
            ),
          );
        }
        if (typeof object === 'object') {
          if (object.object.properties.some((p) => p.type === 'SpreadElement')) return undefined;
          const value = propertyValue(object.object, key);
          return value ? resolve(value, object.chain) : 'other';
        }
        if (object === 'mcp-server') return key === 'server' ? 'server' : undefined;
        return object === 'other' ? 'other' : undefined;
      }
      default:
        return undefined;
    }
  };

  const fromBinding = (b: Binding | undefined): Resolved => {
    if (!b) return undefined;
    switch (b.kind) {
      case 'variable':
        if (b.annotation) return typeResolve(b.annotation, b.chain);
        return b.init && b.id.type === 'Identifier' ? resolve(b.init, b.chain) : undefined;
      case 'param':
        if (b.pattern) return undefined;
        if (b.annotation) return typeResolve(b.annotation, b.chain);
        return b.fallback ? resolve(b.fallback, b.chain.slice(0, -1)) : undefined;
      case 'function':
      case 'class':
        return 'other';
      case 'import':
        // Another module's value (a workspace package's too, in a monorepo) is unknown here.
        return undefined;
    }
  };

  /** `new X(...)`: the SDK's classes by name, local classes by what they extend. */
  const constructed = (callee: Node, functions: readonly FunctionNode[]): Resolved => {
    if (callee.type !== 'Identifier') return undefined;
    const b = bindingOf(callee.name, functions);
    if (b?.kind === 'import') return importedClass(b) ?? (isSdkSpecifier(b.from) ? undefined : { imported: { from: b.from, imported: b.imported } });
    if (b?.kind === 'class') return b.node.superClass ? classRole(b.node, functions) : { instance: b.node };
    return undefined;
  };

  const importedClass = (b: { from: string; imported: string }): Role | undefined => {
    if (b.imported === 'McpServer') return 'mcp-server';
    // Under any other name, a class may be a subclass of one (a project's module, a workspace
    // package), or one we do not know by that name: unknown.
    return isSdkSpecifier(b.from) ? (b.imported === 'Server' ? 'server' : undefined) : undefined;
  };

  const classRole = (cls: ClassNode, functions: readonly FunctionNode[]): Role | undefined => {
    if (!cls.superClass) return 'other';
    return cls.superClass.type === 'Identifier' ? roleOfResolved(constructed(cls.superClass, functions)) : undefined;
  };

  /** `f(...)` of a local function: its return annotation, or what every `return` of it gives. */
  const called = (callee: Node, functions: readonly FunctionNode[]): Resolved => {
    if (callee.type !== 'Identifier') return undefined;
    const b = bindingOf(callee.name, functions);
    const fn = b?.kind === 'function' ? b.fn : b?.kind === 'variable' && b.init && isFunction(b.init) ? b.init : undefined;
    if (!fn) return undefined;
    const chain = b?.kind === 'function' ? b.chain : [...(b as { chain: readonly FunctionNode[] }).chain, fn];
    const annotation = fn.returnType?.type === 'TSTypeAnnotation' ? fn.returnType.typeAnnotation : undefined;
    return annotation ? typeRole(unwrapPromise(annotation), chain) : returnedRole(fn, chain);
  };

  /** What a value of the type written at `type` holds. */
  const typeResolve = (type: Node, functions: readonly FunctionNode[]): Resolved => {
    switch (type.type) {
      case 'TSTypeReference': {
        if (type.typeName.type !== 'Identifier') {
          // `sdk.McpServer` through a namespace import.
          const q = type.typeName;
          if (q.type === 'TSQualifiedName' && q.left.type === 'Identifier') {
            const ns = bindingOf(q.left.name, functions);
            if (ns?.kind === 'import' && ns.imported === '*') return importedClass({ from: ns.from, imported: q.right.name });
          }
          return undefined;
        }
        const name = type.typeName.name;
        const b = bindingOf(name, functions);
        // A class another module exports names its instances (`prompter: Prompter`).
        if (b?.kind === 'import') return importedClass(b) ?? (isSdkSpecifier(b.from) ? undefined : { imported: { from: b.from, imported: b.imported } });
        if (b?.kind === 'class') return b.node.superClass ? classRole(b.node, functions) : { instance: b.node };
        const local = types.get(name);
        if (local) return localTypeResolve(local, functions);
        return undefined;
      }
      case 'TSUnionType': {
        const members = type.types.filter((t) => t.type !== 'TSUndefinedKeyword' && t.type !== 'TSNullKeyword');
        return agree(members.map((t) => typeRole(t, functions)));
      }
      case 'TSIndexedAccessType': {
        // `McpServer['server']`
        const index = type.indexType;
        if (
          index.type === 'TSLiteralType' &&
          index.literal.type === 'StringLiteral' &&
          index.literal.value === 'server' &&
          typeRole(type.objectType, functions) === 'mcp-server'
        )
          return 'server';
        return undefined;
      }
      case 'TSTypeLiteral':
        return { shape: type.members, chain: functions };
      case 'TSParenthesizedType':
        return typeResolve(type.typeAnnotation, functions);
      case 'TSStringKeyword':
      case 'TSNumberKeyword':
      case 'TSBooleanKeyword':
      case 'TSFunctionType':
        return 'other';
      default:
        return undefined;
    }
  };

  const localTypeResolve = (decl: Node, functions: readonly FunctionNode[]): Resolved => {
    if (seen.has(decl)) return undefined;
    seen.add(decl);
    try {
      if (decl.type === 'TSTypeAliasDeclaration') return typeResolve(decl.typeAnnotation, functions);
      if (decl.type !== 'TSInterfaceDeclaration') return undefined;
      for (const heritage of decl.extends ?? []) {
        const base = heritage.expression;
        if (base.type !== 'Identifier') continue;
        const role = typeRole({ type: 'TSTypeReference', typeName: base } as Node, functions);
        if (role === 'mcp-server' || role === 'server') return role;
      }
      // Members a base we cannot see adds are unknown; its own are known.
      return (decl.extends ?? []).length === 0 ? { shape: decl.body.body, chain: functions } : undefined;
    } finally {
      seen.delete(decl);
    }
  };

  return {
    roleOf: (node, functions) => roleOfResolved(resolve(node, functions)),
    classOf: (node, functions) => {
      const r = resolve(node, functions);
      if (r === undefined) return undefined;
      if (typeof r !== 'object') return 'other';
      if ('instance' in r) return r.instance;
      if ('imported' in r) return r.imported;
      return 'other';
    },
    isDuckTyped: (node, functions) => {
      const b = node.type === 'Identifier' ? bindingOf(node.name, functions) : undefined;
      const annotation = b && (b.kind === 'variable' || b.kind === 'param') ? b.annotation : undefined;
      if (!annotation) return false;
      const named = annotation.type === 'TSTypeReference' && annotation.typeName.type === 'Identifier' ? types.get(annotation.typeName.name) : undefined;
      const members = named?.type === 'TSInterfaceDeclaration' ? named.body.body : annotation.type === 'TSTypeLiteral' ? annotation.members : [];
      return members.some((m) => PUSH_METHODS.has(memberName(m) ?? ''));
    },
    isStandIn: (node, functions) => {
      const r = resolve(node, functions);
      return typeof r === 'object' && 'shape' in r && r.shape.some((m) => PUSH_METHODS.has(memberName(m) ?? ''));
    },
    bindingOf,
  };
}

function keyName(key: Node): string | undefined {
  return key.type === 'Identifier' ? key.name : key.type === 'PrivateName' ? `#${key.id.name}` : undefined;
}

function memberName(member: Node): string | undefined {
  if ((member.type === 'TSMethodSignature' || member.type === 'TSPropertySignature') && member.key.type === 'Identifier' && !member.computed)
    return member.key.name;
  return undefined;
}

function unwrapPromise(type: Node): Node {
  if (type.type === 'TSTypeReference' && type.typeName.type === 'Identifier' && type.typeName.name === 'Promise' && type.typeParameters?.params.length === 1)
    return type.typeParameters.params[0]!;
  return type;
}

function propertyValue(object: Extract<Node, { type: 'ObjectExpression' }>, key: string): Node | undefined {
  for (const p of object.properties) {
    if (
      p.type === 'ObjectProperty' &&
      !p.computed &&
      ((p.key.type === 'Identifier' && p.key.name === key) || (p.key.type === 'StringLiteral' && p.key.value === key))
    )
      return p.value as Node;
  }
  return undefined;
}

/** The class whose instance `this` is inside `fn`: arrows take it from around them; other functions have their own `this`. */
function classForThis(fn: FunctionNode, ancestors: readonly Node[]): ClassNode | undefined {
  for (let i = ancestors.length; i >= 0; i--) {
    const n = i === ancestors.length ? fn : ancestors[i]!;
    if (n.type === 'ClassMethod' || n.type === 'ClassPrivateMethod' || n.type === 'ClassProperty' || n.type === 'ClassPrivateProperty')
      return n.static ? undefined : enclosingClass(ancestors, i - 1);
    if (n.type === 'FunctionExpression' || n.type === 'FunctionDeclaration' || n.type === 'ObjectMethod') return undefined;
  }
  return undefined;
}

/** The innermost function among a node's ancestors (null at the top of the module). */
function nearestFunction(ancestors: readonly Node[]): FunctionNode | null {
  for (let i = ancestors.length - 1; i >= 0; i--) if (isFunction(ancestors[i]!)) return ancestors[i] as FunctionNode;
  return null;
}

function enclosingClass(ancestors: readonly Node[], from: number): ClassNode | undefined {
  for (let i = from; i >= 0; i--) {
    const a = ancestors[i]!;
    if (a.type === 'ClassDeclaration' || a.type === 'ClassExpression') return a;
  }
  return undefined;
}
