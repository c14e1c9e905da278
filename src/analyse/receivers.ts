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
import { annotatedType, isFunction, keyName, walk, type FunctionNode } from './ast.ts';
import { FileBindings, type Binding, type ClassNode, type Imports } from './bindings.ts';
import type { FileIndex } from './file-index.ts';
import { FRAMEWORKS } from './frameworks.ts';

/** `mcp-server`: an McpServer; `server`: the low-level Server; `other`: certainly neither. */
export type Role = 'mcp-server' | 'server' | 'other';

/** An import's module is the SDK's: v1 (`@modelcontextprotocol/sdk/...`) or v2. */
function isSdkSpecifier(specifier: string): boolean {
  return /^@modelcontextprotocol\/(sdk|server|core)(\/|$)/.test(specifier);
}

/** `inputRequired` as a framework re-exports it from the SDK (see frameworks.ts). */
function isFrameworkBuilder(specifier: string, imported: string): boolean {
  return FRAMEWORKS.some((f) => f.module === specifier && f.exports.inputRequired === imported);
}

/** Methods whose presence on a local interface or type literal makes it a stand-in for the SDK's Server. */
const PUSH_METHODS = new Set(['elicitInput', 'createMessage', 'listRoots', 'request', 'sendRequest', 'requestSampling']);

type ObjectLiteral = Extract<Node, { type: 'ObjectExpression' }>;

/** What resolving gives: a role, an object literal (whose properties are looked into), or unknown. */
type Resolved =
  | Role
  | { object: ObjectLiteral; chain: readonly FunctionNode[] }
  /** `inherits`: a subclass of a class nothing here explains, whose inherited members are unknown. */
  | { instance: ClassNode; inherits?: true }
  /** A value of a project's own interface or type literal: its members' types say what its properties hold. */
  | { shape: readonly Node[]; chain: readonly FunctionNode[] }
  /** An instance of a class another module exports (`new Prompter(...)`). */
  | { imported: { from: string; imported: string } }
  /** The SDK's MCP Client: no server (its `request(...)` asks one), nor a transport to the client. */
  | { mcpClient: true }
  | undefined;

export interface ReceiverResolver {
  /** The role of `node`, evaluated inside `functions` (innermost last). */
  roleOf(node: Node, functions: readonly FunctionNode[]): Role | undefined;
  /** Whether the value of `node` is declared as such a stand-in (`llm.server` of `llm: Gateway`, whose `server` is one). */
  isStandIn(node: Node, functions: readonly FunctionNode[]): boolean;
  /** Whether the value of `node` is the SDK's MCP Client (`new Client(...)`, `client: Client`). */
  isMcpClient(node: Node, functions: readonly FunctionNode[]): boolean;
  /** The binding a name has at a point, for callers that ask what a callee is. */
  bindingOf(name: string, functions: readonly FunctionNode[]): Binding | undefined;
  /**
   * The class a value is an instance of: a class of this file, one imported (by module and
   * name), `other` for a value that is certainly no class instance of the project, undefined
   * when unknown.
   */
  classOf(node: Node, functions: readonly FunctionNode[]): ClassNode | { from: string; imported: string } | 'other' | undefined;
}

// The last file's resolver only (a file's sites are planned together): a WeakMap by index kept
// each file's tree alive through young-generation collections, and the run paid for it.
let last: { index: FileIndex; imports: Imports; resolver: ReceiverResolver } | undefined;

/** The resolver of a file, built the first time a site asks (most files never do). */
export function receiverResolver(index: FileIndex, imports: Imports): ReceiverResolver {
  if (last?.index !== index || last.imports !== imports) last = { index, imports, resolver: new Resolver(new FileBindings(index, imports)) };
  return last.resolver;
}

/** Members of a class `this.x` may hold: declared fields, parameter properties, getters, `this.x = ...`. */
type Member = { type?: Node; value?: Node; getter?: FunctionNode; chain: readonly FunctionNode[] };

class Resolver implements ReceiverResolver {
  /** The nodes being resolved, to stop at a cycle (`let a = b; b = a`). */
  private readonly resolving = new Set<Node>();
  private readonly members = new Map<ClassNode, Map<string, Member[]>>();

  constructor(private readonly bindings: FileBindings) {}

  roleOf(node: Node, functions: readonly FunctionNode[]): Role | undefined {
    return roleOfResolved(this.resolve(node, functions));
  }

  classOf(node: Node, functions: readonly FunctionNode[]): ClassNode | { from: string; imported: string } | 'other' | undefined {
    const r = this.resolve(node, functions);
    if (r === undefined) return undefined;
    if (typeof r !== 'object') return 'other';
    if ('instance' in r) return r.instance;
    if ('imported' in r) return r.imported;
    return 'other';
  }

  isStandIn(node: Node, functions: readonly FunctionNode[]): boolean {
    const r = this.resolve(node, functions);
    return typeof r === 'object' && 'shape' in r && hasPushMethods(r.shape);
  }

  isMcpClient(node: Node, functions: readonly FunctionNode[]): boolean {
    const r = this.resolve(node, functions);
    return typeof r === 'object' && 'mcpClient' in r;
  }

  bindingOf(name: string, functions: readonly FunctionNode[]): Binding | undefined {
    return this.bindings.bindingOf(name, functions);
  }

  private resolve(node: Node, functions: readonly FunctionNode[]): Resolved {
    if (this.resolving.has(node)) return undefined;
    this.resolving.add(node);
    try {
      return this.resolveOnce(node, functions);
    } finally {
      this.resolving.delete(node);
    }
  }

  private resolveOnce(node: Node, functions: readonly FunctionNode[]): Resolved {
    switch (node.type) {
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
        return this.typeResolve(node.typeAnnotation, functions) ?? this.resolve(node.expression, functions);
      case 'TSNonNullExpression':
      case 'ParenthesizedExpression':
        return this.resolve(node.expression, functions);
      case 'AwaitExpression':
        return this.resolve(node.argument, functions);
      case 'ObjectExpression':
        return { object: node, chain: functions };
      case 'NewExpression':
        return this.constructed(node.callee, functions);
      case 'ThisExpression': {
        const cls = this.bindings.thisClassOf(functions[functions.length - 1]!);
        if (!cls?.superClass) return cls ? { instance: cls } : undefined;
        // `this` in a subclass of the SDK's Server (or McpServer) is one; in a subclass of a
        // class nothing here explains, its own members are known and what it inherits is not.
        const role = this.classRole(cls, functions);
        return role === 'server' || role === 'mcp-server' ? role : { instance: cls, ...(role === undefined ? { inherits: true as const } : {}) };
      }
      case 'Super': {
        // `super.m(...)`: the base class's, an instance of it as far as its members go.
        const cls = this.bindings.thisClassOf(functions[functions.length - 1]!);
        return cls?.superClass ? this.constructed(cls.superClass, functions) : undefined;
      }
      case 'CallExpression':
        return this.called(node.callee, functions);
      case 'LogicalExpression':
        return agree([this.valueRole(node.left, functions), this.valueRole(node.right, functions)]);
      case 'ConditionalExpression':
        return agree([this.valueRole(node.consequent, functions), this.valueRole(node.alternate, functions)]);
      case 'Identifier':
        return this.fromBinding(this.bindings.bindingOf(node.name, functions));
      case 'MemberExpression':
      case 'OptionalMemberExpression': {
        const key = node.computed ? undefined : keyName(node.property);
        return key ? this.propertyResolve(node.object, key, functions) : undefined;
      }
      default:
        return undefined;
    }
  }

  /** `object.key`: by what `object` holds. */
  private propertyResolve(objectNode: Node, key: string, functions: readonly FunctionNode[]): Resolved {
    const object = this.resolve(objectNode, functions);
    if (object === undefined) return undefined;
    if (typeof object !== 'object') {
      if (object === 'mcp-server') return key === 'server' ? 'server' : undefined;
      return object === 'other' ? 'other' : undefined;
    }
    if ('shape' in object) return this.shapeMemberResolve(object.shape, key, object.chain);
    if ('imported' in object || 'mcpClient' in object) return undefined;
    if ('instance' in object) return this.instanceMemberResolve(object.instance, key);
    if (object.object.properties.some((p) => p.type === 'SpreadElement')) return undefined;
    const value = propertyValue(object.object, key);
    return value ? this.resolve(value, object.chain) : 'other';
  }

  /** A property of an interface or type literal: by its declared type; a method is no server. */
  private shapeMemberResolve(shape: readonly Node[], key: string, chain: readonly FunctionNode[]): Resolved {
    const member = shape.find((m) => memberName(m) === key);
    if (!member) return undefined;
    const type = member.type === 'TSPropertySignature' ? annotatedType(member.typeAnnotation) : undefined;
    return type ? this.typeResolve(type, chain) : member.type === 'TSMethodSignature' ? 'other' : undefined;
  }

  /** `this.key` or `instance.key` of a class of this file: by the member's type, or by what every source of it holds. */
  private instanceMemberResolve(cls: ClassNode, key: string): Resolved {
    const entries = this.membersOf(cls).get(key);
    if (!entries) return undefined;
    // A declared type says what the field holds, whatever assigns it.
    const declared = entries.find((e) => e.type);
    if (declared) return this.typeResolve(declared.type!, declared.chain);
    if (entries.length === 1) {
      const e = entries[0]!;
      if (e.value) return this.resolve(e.value, e.chain);
      if (e.getter) return this.returnedRole(e.getter, e.chain);
    }
    return agree(entries.map((e) => this.memberRole(e)));
  }

  private memberRole(e: Member): Role | undefined {
    if (e.type) return this.typeRole(e.type, e.chain);
    if (e.value) return this.valueRole(e.value, e.chain);
    return e.getter ? this.returnedRole(e.getter, e.chain) : undefined;
  }

  private fromBinding(b: Binding | undefined): Resolved {
    if (!b) return undefined;
    switch (b.kind) {
      case 'variable':
        if (b.annotation) return this.typeResolve(b.annotation, b.chain);
        return b.init && b.id.type === 'Identifier' ? this.resolve(b.init, b.chain) : undefined;
      case 'param':
        if (b.pattern) return this.destructuredResolve(b.param, b.pattern.property, b.chain);
        if (b.annotation) return this.typeResolve(b.annotation, b.chain);
        return b.fallback ? this.resolve(b.fallback, b.chain.slice(0, -1)) : undefined;
      case 'function':
      case 'class':
        return 'other';
      case 'import':
        // Another module's value (a workspace package's too, in a monorepo) is unknown here; a
        // value the SDK exports is none of its servers (`inputRequired.elicit(...)`: a builder),
        // nor is the builder a framework re-exports.
        return isSdkSpecifier(b.from) || isFrameworkBuilder(b.from, b.imported) ? 'other' : undefined;
    }
  }

  /** `{ server }: ToolContext`: the property of the parameter's declared type. */
  private destructuredResolve(param: Node, property: string, chain: readonly FunctionNode[]): Resolved {
    const pattern = param.type === 'AssignmentPattern' ? param.left : param;
    const type = pattern.type === 'ObjectPattern' ? annotatedType(pattern.typeAnnotation) : undefined;
    if (!type) return undefined;
    const object = this.typeResolve(type, chain);
    if (typeof object !== 'object' || object === null) return object === 'other' ? 'other' : undefined;
    if ('shape' in object) return this.shapeMemberResolve(object.shape, property, object.chain);
    return 'instance' in object ? this.instanceMemberResolve(object.instance, property) : undefined;
  }

  /** `new X(...)`: the SDK's classes by name, local classes by what they extend. */
  private constructed(callee: Node, functions: readonly FunctionNode[]): Resolved {
    if (callee.type !== 'Identifier') return undefined;
    const b = this.bindings.bindingOf(callee.name, functions);
    return b?.kind === 'import' || b?.kind === 'class' ? this.instanceOf(b, functions) : undefined;
  }

  /** An instance of the class a binding names: one imported (the SDK's by name, another module's as such) or one of this file. */
  private instanceOf(b: Extract<Binding, { kind: 'import' | 'class' }>, functions: readonly FunctionNode[]): Resolved {
    if (b.kind === 'import') return sdkClass(b) ?? (isSdkSpecifier(b.from) ? undefined : { imported: { from: b.from, imported: b.imported } });
    return b.node.superClass ? this.classRole(b.node, functions) : { instance: b.node };
  }

  private classRole(cls: ClassNode, functions: readonly FunctionNode[]): Role | undefined {
    if (!cls.superClass) return 'other';
    return cls.superClass.type === 'Identifier' ? roleOfResolved(this.constructed(cls.superClass, functions)) : undefined;
  }

  /** `f(...)` of a local function, or `this.m(...)` of a method of this class: its return annotation, or what every `return` of it gives. */
  private called(callee: Node, functions: readonly FunctionNode[]): Resolved {
    if (callee.type === 'MemberExpression' && callee.object.type === 'ThisExpression' && !callee.computed) return this.methodCalled(callee, functions);
    if (callee.type !== 'Identifier') return undefined;
    const b = this.bindings.bindingOf(callee.name, functions);
    const fn = b?.kind === 'function' ? b.fn : b?.kind === 'variable' && b.init && isFunction(b.init) ? b.init : undefined;
    if (!fn) return undefined;
    const chain = b?.kind === 'function' ? b.chain : [...(b as { chain: readonly FunctionNode[] }).chain, fn];
    const annotation = annotatedType(fn.returnType);
    return annotation ? this.typeRole(unwrapPromise(annotation), chain) : this.returnedRole(fn, chain);
  }

  /** `this.ensureServer()`: a method the class `this` is declares itself, by its return annotation or its returns. */
  private methodCalled(callee: Extract<Node, { type: 'MemberExpression' }>, functions: readonly FunctionNode[]): Resolved {
    const cls = this.bindings.thisClassOf(functions[functions.length - 1]);
    const key = keyName(callee.property);
    if (!cls || !key) return undefined;
    const method = cls.body.body.find(
      (m): m is Extract<Node, { type: 'ClassMethod' | 'ClassPrivateMethod' }> =>
        (m.type === 'ClassMethod' || m.type === 'ClassPrivateMethod') && m.kind === 'method' && !m.static && keyName(m.key) === key,
    );
    if (!method) return undefined;
    const chain = this.bindings.chainOf(method);
    const annotation = annotatedType(method.returnType);
    return annotation ? this.typeRole(unwrapPromise(annotation), chain) : this.returnedRole(method, chain);
  }

  /** What a value of the type written at `type` holds. */
  private typeResolve(type: Node, functions: readonly FunctionNode[]): Resolved {
    switch (type.type) {
      case 'TSTypeReference':
        return this.typeReferenceResolve(type, functions);
      case 'TSUnionType': {
        const members = type.types.filter((t) => t.type !== 'TSUndefinedKeyword' && t.type !== 'TSNullKeyword');
        return agree(members.map((t) => this.typeRole(t, functions)));
      }
      case 'TSIndexedAccessType': {
        // `McpServer['server']`
        const index = type.indexType;
        if (
          index.type === 'TSLiteralType' &&
          index.literal.type === 'StringLiteral' &&
          index.literal.value === 'server' &&
          this.typeRole(type.objectType, functions) === 'mcp-server'
        )
          return 'server';
        return undefined;
      }
      case 'TSTypeLiteral':
        return { shape: type.members, chain: functions };
      case 'TSParenthesizedType':
        return this.typeResolve(type.typeAnnotation, functions);
      case 'TSStringKeyword':
      case 'TSNumberKeyword':
      case 'TSBooleanKeyword':
      case 'TSFunctionType':
        return 'other';
      default:
        return undefined;
    }
  }

  /** A type named by reference: an SDK class, a class of this file or another module, a local interface or alias. */
  private typeReferenceResolve(type: Extract<Node, { type: 'TSTypeReference' }>, functions: readonly FunctionNode[]): Resolved {
    if (type.typeName.type !== 'Identifier') {
      // `sdk.McpServer` through a namespace import.
      const q = type.typeName;
      if (q.type === 'TSQualifiedName' && q.left.type === 'Identifier') {
        const ns = this.bindings.bindingOf(q.left.name, functions);
        if (ns?.kind === 'import' && ns.imported === '*') return sdkClass({ from: ns.from, imported: q.right.name });
      }
      return undefined;
    }
    const name = type.typeName.name;
    const b = this.bindings.bindingOf(name, functions);
    // A class another module exports names its instances (`prompter: Prompter`).
    if (b?.kind === 'import' || b?.kind === 'class') return this.instanceOf(b, functions);
    const local = this.bindings.localType(name);
    return local ? this.localTypeResolve(local, functions) : undefined;
  }

  private localTypeResolve(decl: Node, functions: readonly FunctionNode[]): Resolved {
    if (this.resolving.has(decl)) return undefined;
    this.resolving.add(decl);
    try {
      if (decl.type === 'TSTypeAliasDeclaration') return this.typeResolve(decl.typeAnnotation, functions);
      if (decl.type !== 'TSInterfaceDeclaration') return undefined;
      for (const heritage of decl.extends ?? []) {
        const base = heritage.expression;
        if (base.type !== 'Identifier') continue;
        const role = this.typeRole({ type: 'TSTypeReference', typeName: base } as Node, functions);
        if (role === 'mcp-server' || role === 'server') return role;
      }
      // Members a base we cannot see adds are unknown; its own are known.
      return (decl.extends ?? []).length === 0 ? { shape: decl.body.body, chain: functions } : undefined;
    } finally {
      this.resolving.delete(decl);
    }
  }

  private valueRole(node: Node, functions: readonly FunctionNode[]): Role | undefined {
    return roleOfResolved(this.resolve(node, functions));
  }

  private typeRole(type: Node, functions: readonly FunctionNode[]): Role | undefined {
    return roleOfResolved(this.typeResolve(type, functions));
  }

  /** What every `return` of a function gives, when they agree (an arrow's expression body included). */
  private returnedRole(fn: FunctionNode, chain: readonly FunctionNode[]): Role | undefined {
    if (fn.body.type !== 'BlockStatement') return this.valueRole(fn.body, chain);
    const returned: Array<Role | undefined> = [];
    walk(fn.body, (n) => {
      if (n !== fn.body && isFunction(n)) return false;
      if (n.type === 'ReturnStatement') returned.push(n.argument ? this.valueRole(n.argument, chain) : undefined);
      return undefined;
    });
    return returned.length > 0 ? agree(returned) : undefined;
  }

  private membersOf(cls: ClassNode): Map<string, Member[]> {
    let table = this.members.get(cls);
    if (!table) this.members.set(cls, (table = classMembers(cls, this.bindings)));
    return table;
  }
}

/** What `this.x` may hold in a class, by name: declared fields, parameter properties, getters, `this.x = ...` in its own methods. */
function classMembers(cls: ClassNode, bindings: FileBindings): Map<string, Member[]> {
  const table = new Map<string, Member[]>();
  const add = (name: string | undefined, entry: Member) => {
    if (name) table.set(name, [...(table.get(name) ?? []), entry]);
  };
  for (const member of cls.body.body) {
    if ((member.type === 'ClassProperty' || member.type === 'ClassPrivateProperty') && !member.static)
      add(keyName(member.key), { type: annotatedType(member.typeAnnotation), value: member.value ?? undefined, chain: [] });
    if ((member.type === 'ClassMethod' || member.type === 'ClassPrivateMethod') && member.kind === 'get' && !member.static)
      add(keyName(member.key), { getter: member, chain: bindings.chainOf(member) });
    if (member.type === 'ClassMethod' && member.kind === 'constructor') {
      for (const param of member.params) {
        if (param.type !== 'TSParameterProperty') continue;
        const id = param.parameter.type === 'AssignmentPattern' ? param.parameter.left : param.parameter;
        if (id.type === 'Identifier') add(id.name, { type: annotatedType(id.typeAnnotation), chain: bindings.chainOf(member) });
      }
    }
  }
  walk(cls.body, (node, parents) => {
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') return false; // another class's `this`
    if (node.type !== 'AssignmentExpression' || node.operator !== '=' || node.left.type !== 'MemberExpression') return undefined;
    if (node.left.object.type !== 'ThisExpression' || node.left.computed) return undefined;
    const fns = parents.filter(isFunction) as FunctionNode[];
    const inner = fns[fns.length - 1];
    if (inner && bindings.thisClassOf(inner) === cls) add(keyName(node.left.property), { value: node.right, chain: bindings.chainOf(inner) });
    return undefined;
  });
  return table;
}

/** Several sources that must agree: one role, or unknown. */
function agree(roles: Array<Role | undefined>): Role | undefined {
  const known = new Set(roles);
  return known.size === 1 ? roles[0] : undefined;
}

function roleOfResolved(r: Resolved): Role | undefined {
  if (typeof r !== 'object') return r;
  if ('imported' in r || ('instance' in r && r.inherits)) return undefined;
  // A stand-in with push methods is unknown: its calls are marked, never dropped.
  return 'shape' in r && hasPushMethods(r.shape) ? undefined : 'other';
}

/** An import's module is the SDK's client side (`@modelcontextprotocol/client`, v1's `sdk/client/...`). */
function isClientSpecifier(specifier: string): boolean {
  return /^@modelcontextprotocol\/(client(\/|$)|sdk\/client\/)/.test(specifier);
}

/** An instance of a class imported under the name it has in its module: the SDK's two servers and its MCP Client. */
function sdkClass(b: { from: string; imported: string }): Resolved {
  if (isClientSpecifier(b.from) || (isSdkSpecifier(b.from) && b.imported === 'Client')) return { mcpClient: true };
  return importedClass(b);
}

/** The role of a class imported under the name it has in its module: the SDK's two servers; any other is unknown. */
function importedClass(b: { from: string; imported: string }): Role | undefined {
  if (b.imported === 'McpServer') return 'mcp-server';
  // Under any other name, a class may be a subclass of one (a project's module, a workspace
  // package), or one we do not know by that name: unknown.
  return isSdkSpecifier(b.from) ? (b.imported === 'Server' ? 'server' : undefined) : undefined;
}

function hasPushMethods(members: readonly Node[]): boolean {
  return members.some((m) => PUSH_METHODS.has(memberName(m) ?? ''));
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

function propertyValue(object: ObjectLiteral, key: string): Node | undefined {
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
