// The declarations a project's tool registry registers (see tool-registries.ts), and the
// handlers their factories return: `declareTool({ name: 'list_projects', factory: (context)
// => async (ctx) => {...} })` declares a handler of tool `list_projects`. A declaration is
// followed only where it is seen reaching a registry: handed to a function of the registry's
// module (the registry itself, or a definer beside it), or written in the array the registry
// iterates. The handler's context parameter sits where the registry's registration puts it.
import type { CallExpression, Node } from '@babel/types';
import { argumentParams, isFunction, memberPath, propertyOf, someNode, stringValue, walk, type FunctionNode } from './ast.ts';
import { stableBinding, type Imports } from './bindings.ts';
import { constDeclarations, constString, enclosingFunctions, namedFunctions, type Declarations, type FileIndex, type Indexed } from './file-index.ts';
import type { HandlerSite } from './find-handlers.ts';
import { receiverResolver } from './receivers.ts';
import type { Registry, RegistryShape } from './tool-registries.ts';

/** Registries of other modules, by the local name this module calls a function of their module by (the engine found them). */
export type ImportedRegistries = ReadonlyArray<{ local: string; shapes: readonly RegistryShape[] }>;

export interface Reading {
  index: FileIndex;
  imports: Imports;
  functions: Map<string, FunctionNode>;
  declarations: Declarations;
}

/** The handlers the declarations of this module's registries, and of imported ones, hold. */
export function registryHandlers(index: FileIndex, imports: Imports, own: readonly Registry[], imported: ImportedRegistries = []): HandlerSite[] {
  if (own.length === 0 && imported.length === 0) return [];
  const reading = readingOf(index, imports);
  const found = new Map<Node, { declaration: Declaration; shapes: readonly RegistryShape[]; at: Indexed<CallExpression> }>();
  const add = (declarations: Declaration[], shapes: readonly RegistryShape[], at: Indexed<CallExpression>) => {
    for (const d of declarations) if (!found.has(d.node)) found.set(d.node, { declaration: d, shapes, at });
  };
  for (const at of index.calls) {
    const shapes = shapesCalled(at.node, reading, own, imported);
    if (shapes.length > 0)
      add(
        at.node.arguments.flatMap((a) => declarationsIn(a, reading, enclosingFunctions(at.ancestors))),
        shapes,
        at,
      );
  }
  for (const registry of own)
    if (registry.iterated)
      add(declarationsIn(registry.iterated, reading, enclosingFunctions(registry.registration.ancestors)), [registry], registry.registration);
  const handlers = [...found.values()].flatMap(({ declaration, shapes, at }) => declaredHandlers(declaration, shapes, at, reading));
  // Instances of one class share its method as one handler: named by each instance (`this.name`), or refused once.
  const once = (h: HandlerSite) => h.nameText?.startsWith('this.') || typeof h.unnamed === 'object';
  return handlers.filter((h, i) => !once(h) || handlers.findIndex((o) => o.fn === h.fn && o.nameText === h.nameText) === i);
}

export function readingOf(index: FileIndex, imports: Imports): Reading {
  return { index, imports, functions: namedFunctions(index), declarations: constDeclarations(index) };
}

/** The registries a call hands its arguments to: one of this module's (or a function beside it), or an imported one. */
export function shapesCalled(call: CallExpression, reading: Reading, own: readonly Registry[], imported: ImportedRegistries): readonly RegistryShape[] {
  const callee = call.callee;
  const name =
    callee.type === 'Identifier'
      ? callee.name
      : callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier'
        ? callee.property.name
        : undefined;
  if (!name) return [];
  const through = own.filter((r) => r.through?.fn === name);
  if (through.length > 0) return through;
  if (callee.type !== 'Identifier') return [];
  if (reading.functions.has(name)) return own;
  return imported.find((r) => r.local === name)?.shapes ?? [];
}

/** A declaration: an object literal, or an instance of a class of this module; what it holds under a key. */
export interface Declaration {
  node: Node;
  /** The value under `key`: a property's value, a class's field initialiser or method, a getter's returned value. */
  member(key: string): Node | undefined;
  /** Whether it may have `key`: one it declares without a value here, or one a spread or a base class may give it. */
  has(key: string): boolean;
  /** An instance of this class: its `this.<key>` reads a member the class never changes (a readonly one). */
  readonlyMember?: (key: string) => boolean;
  /** An instance of this class: it gets `key` from a base class, whose method every class extending it shares. */
  inherits?: (key: string) => boolean;
}

/** The declarations a value is made of: written there, in an array, or read from a const holding them. */
export function declarationsIn(node: Node, reading: Reading, functions: readonly FunctionNode[], depth = 0): Declaration[] {
  if (depth > 4) return [];
  if (node.type === 'ObjectExpression') {
    const spread = node.properties.some((p) => p.type === 'SpreadElement');
    return [{ node, member: (key) => propertyOf(node, key), has: (key) => spread || propertyOf(node, key) !== undefined }];
  }
  if (node.type === 'NewExpression') {
    const cls = node.callee.type === 'Identifier' ? classNamed(reading.index, node.callee.name) : undefined;
    return cls ? [classDeclaration(cls, node, reading.index)] : [];
  }
  if (node.type === 'ArrayExpression')
    return node.elements.flatMap((e) => (e && e.type !== 'SpreadElement' ? declarationsIn(e, reading, functions, depth + 1) : []));
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression') return declarationsIn(node.expression, reading, functions, depth + 1);
  if (node.type !== 'Identifier') return [];
  const init = reading.declarations(node.name, functions)?.init;
  // `const LIST = declareTool({...})`: the call's own objects are found as the call is.
  return init && init.type !== 'CallExpression' ? declarationsIn(init, reading, functions, depth + 1) : [];
}

type ClassNode = Extract<Node, { type: 'ClassDeclaration' }>;

/** An instance of `cls` as a declaration (`node`: where it is made, or the class itself). */
export function classDeclaration(cls: ClassNode, node: Node, index?: FileIndex): Declaration {
  const members = instanceMembers(cls);
  return {
    node,
    member: (key) => (members.has(key) ? classMember(cls, key) : inheritedMethod(cls, key, index)),
    has: (key) => members.has(key) || Boolean(cls.superClass) || assignsThis(cls, key),
    readonlyMember: (key) => members.get(key) === 'readonly',
    inherits: (key) => !members.has(key) && inheritedMethod(cls, key, index) !== undefined,
  };
}

/**
 * A method an instance of `cls` gets from a base class of this module (`invoke` of `ToolBase`,
 * which every tool extending it runs): the method of the nearest class that declares `key`.
 */
function inheritedMethod(cls: ClassNode, key: string, index: FileIndex | undefined): Node | undefined {
  let base = cls;
  for (let depth = 0; index && depth < 8; depth++) {
    const next = base.superClass?.type === 'Identifier' ? classNamed(index, base.superClass.name) : undefined;
    if (!next) return undefined;
    base = next;
    if (instanceMembers(base).has(key)) {
      const member = classMember(base, key);
      return member?.type === 'ClassMethod' ? member : undefined;
    }
  }
  return undefined;
}

export function classNamed(index: FileIndex, name: string): ClassNode | undefined {
  const classes = index.otherDeclarations.filter((d): d is ClassNode => d.type === 'ClassDeclaration' && d.id?.name === name);
  return classes.length === 1 ? classes[0] : undefined;
}

/** Whether a class keeps its own instance member `key` readonly (a readonly field or parameter property). */
export function readonlyInstanceMember(cls: Extract<Node, { type: 'ClassDeclaration' | 'ClassExpression' }>, key: string): boolean {
  return instanceMembers(cls).get(key) === 'readonly';
}

/**
 * A class's own instance members by name, and which keep their value: readonly fields and
 * parameter properties, and fields set to a string that the class never assigns.
 */
function instanceMembers(cls: Extract<Node, { type: 'ClassDeclaration' | 'ClassExpression' }>): Map<string, 'readonly' | 'other'> {
  const members = new Map<string, 'readonly' | 'other'>();
  const kept = (m: Extract<Node, { type: 'ClassProperty' }>, key: string) => m.readonly || (stringValue(m.value) !== undefined && !assignsThis(cls, key));
  for (const m of cls.body.body) {
    if ((m.type === 'ClassMethod' || m.type === 'ClassProperty') && !m.static && !m.computed && m.key.type === 'Identifier')
      members.set(m.key.name, m.type === 'ClassProperty' && kept(m, m.key.name) ? 'readonly' : 'other');
    if (m.type === 'ClassMethod' && m.kind === 'constructor')
      for (const p of m.params)
        if (p.type === 'TSParameterProperty' && p.parameter.type === 'Identifier') members.set(p.parameter.name, p.readonly ? 'readonly' : 'other');
  }
  return members;
}

/** Whether the class assigns `this.<key>` anywhere. */
function assignsThis(cls: Node, key: string): boolean {
  return someNode(
    cls,
    (n) =>
      (n.type === 'AssignmentExpression' || n.type === 'UpdateExpression') &&
      ((n.type === 'AssignmentExpression' ? n.left : n.argument) as Node).type === 'MemberExpression' &&
      memberPath((n.type === 'AssignmentExpression' ? n.left : n.argument) as Node) === `this.${key}`,
  );
}

/** A class's own instance member: a method, a field's initialiser, a getter's one returned value. */
function classMember(cls: ClassNode, key: string): Node | undefined {
  for (const m of cls.body.body) {
    if ((m.type !== 'ClassMethod' && m.type !== 'ClassProperty') || m.static || m.computed || m.key.type !== 'Identifier' || m.key.name !== key) continue;
    if (m.type === 'ClassProperty') return m.value ?? undefined;
    if (m.kind === 'method') return m;
    const only = m.kind === 'get' && m.body.body.length === 1 ? m.body.body[0] : undefined;
    return only?.type === 'ReturnStatement' ? (only.argument ?? undefined) : undefined;
  }
  return undefined;
}

/**
 * The handlers one declaration holds, for the first registry shape it has the members of. `at`:
 * the call that hands it over, or the registry's registration here; none when another module
 * registers it (the handler is then its own registration).
 */
export function declaredHandlers(
  declaration: Declaration,
  shapes: readonly RegistryShape[],
  at: Indexed<CallExpression> | undefined,
  reading: Reading,
): HandlerSite[] {
  const matching = shapes.filter((s) => declaration.member(s.handlerKey) && declaration.has(s.nameKey));
  // A tool registry and a prompt registry reading the same properties: which one it reaches is not seen.
  if (matching.length === 0 || new Set(matching.map((s) => s.kind)).size > 1) return [];
  const shape = matching[0]!;
  // Registered by a loop of this module: that registration is the handler's.
  const registration = 'registration' in shape ? (shape as Registry).registration : at;
  const held = functionOf(declaration.member(shape.handlerKey)!, reading);
  const returned = !held ? undefined : shape.factory ? returnedFunctions(held, reading) : [held];
  if (!returned || returned.length === 0) return [];
  const around = at ? enclosingFunctions(at.ancestors) : [];
  const nameNode = declaration.member(shape.nameKey);
  // A base class's method serves every tool extending it: it names its state as each instance does (`this.name`).
  const name = declaration.inherits?.(shape.handlerKey) ? undefined : nameNode && constString(nameNode, reading.declarations, around);
  const out: HandlerSite[] = [];
  for (const fn of returned) {
    const { ctxIndex, known } = contextIndexOf(shape, declaration, fn);
    // A context the function passing the handler on does not hand over: not this registry's handler.
    if (shape.forwards !== undefined && ctxIndex >= shape.forwards) continue;
    const nameText = name !== undefined ? undefined : ((nameNode && sharedName(reading, nameNode, around, fn)) ?? ownName(declaration, shape, fn));
    out.push({
      kind: shape.kind,
      // A name the handler cannot read as the declaration does: a handler all the same, refused.
      ...(name === undefined && nameText === undefined
        ? { name: (nameNode && memberPath(nameNode)) ?? shape.nameKey, unnamed: declaration.readonlyMember ? { member: shape.nameKey } : (true as const) }
        : { name: name ?? nameText! }),
      ...(nameText ? { nameText } : {}),
      call: registration?.node ?? fn,
      fn,
      ctxIndex,
      ancestors: registration?.ancestors ?? [],
      // Its type comes from the declaration's, not from the registration: an added context is typed.
      contextType: 'ServerContext',
      ...(ctxIndex === 0 && shape.argumentsFirstType ? { argumentsFirstType: { ...shape.argumentsFirstType, ...schemaKeyOf(shape) } } : {}),
      ...(known ? {} : { definition: true }),
      ...(shape.factory ? { factory: { fn: held!, returns: returned.length } } : {}),
    });
  }
  return out;
}

/** The declaration's property that gives a tool a schema in this registry, when one does. */
function schemaKeyOf(shape: RegistryShape): { schemaKey?: string } {
  return typeof shape.arity === 'object' && 'schemaKey' in shape.arity ? { schemaKey: shape.arity.schemaKey } : {};
}

/**
 * The handlers with those registries' declarations hold: a factory is no handler, though a
 * definition's handler property may hold one (`run: (context) => async (args) => ...`), and a
 * definition the registry shows is read as the registry reads it.
 */
export function withRegistryHandlers(handlers: readonly HandlerSite[], declared: readonly HandlerSite[]): HandlerSite[] {
  if (declared.length === 0) return [...handlers];
  const factories = new Set(declared.map((h) => h.factory?.fn));
  const out = handlers.filter((h) => !factories.has(h.fn));
  for (const d of declared) {
    // A definition found as such (its definer's types are widened) takes where the registry puts its context.
    const i = out.findIndex((h) => h.fn === d.fn && h.definition && !d.factory);
    if (i === -1) out.push(d);
    else if (!d.definition) out[i] = { ...out[i]!, ctxIndex: d.ctxIndex, contextShown: true };
  }
  return out;
}

/** A function written there, or a function of the module named there. */
function functionOf(node: Node, reading: Reading): FunctionNode | undefined {
  if (isFunction(node)) return node;
  return node.type === 'Identifier' ? reading.functions.get(node.name) : undefined;
}

/** The functions a factory returns (an arrow's expression body, every `return` of its own), or undefined when one returns anything else. */
function returnedFunctions(factory: FunctionNode, reading: Reading): FunctionNode[] | undefined {
  const returned = (node: Node): FunctionNode | undefined => {
    const value = node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'ParenthesizedExpression' ? node.expression : node;
    if (isFunction(value)) return value;
    return value.type === 'Identifier' ? localFunction(factory, value.name, reading) : undefined;
  };
  if (factory.body.type !== 'BlockStatement') {
    const fn = returned(factory.body);
    return fn ? [fn] : undefined;
  }
  const found = new Set<FunctionNode>();
  let other = false;
  walk(factory.body, (node) => {
    if (other || (node !== factory.body && isFunction(node))) return false;
    if (node.type !== 'ReturnStatement') return undefined;
    const fn = node.argument ? returned(node.argument) : undefined;
    if (fn) found.add(fn);
    else other = true;
    return false;
  });
  return other ? undefined : [...found];
}

/** `const handler = async () => {...}` (or a function declaration) in the factory's own body. */
function localFunction(factory: FunctionNode, name: string, reading: Reading): FunctionNode | undefined {
  const inner = reading.index.functions.find(
    ({ node, ancestors }) =>
      ancestors.includes(factory.body) &&
      enclosingFunctions(ancestors).at(-1) === factory &&
      ((node.type === 'FunctionDeclaration' && node.id?.name === name) || declaredAs(ancestors.at(-1), name)),
  );
  return inner?.node;
}

function declaredAs(parent: Node | undefined, name: string): boolean {
  return parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier' && parent.id.name === name;
}

/**
 * A class's method called on its instance, whose instances are named by a readonly member the
 * constructor sets (`constructor(readonly name: string)`): each instance names itself, so the
 * method reads the name it was registered under as `this.name`.
 */
function ownName(declaration: Declaration, shape: RegistryShape, fn: FunctionNode): string | undefined {
  const method = fn.type === 'ClassMethod' && fn.kind === 'method' && !fn.static;
  return method && shape.bound && declaration.readonlyMember?.(shape.nameKey) ? `this.${shape.nameKey}` : undefined;
}

/**
 * A name read at run time (`TOOLS.list`) that the handler can name itself with: the same
 * binding where the declaration is and inside the handler, and one that does not change.
 */
function sharedName(reading: Reading, nameNode: Node, around: readonly FunctionNode[], handler: FunctionNode): string | undefined {
  const path = memberPath(nameNode);
  if (path === undefined || path.startsWith('this') || stringValue(nameNode) !== undefined) return undefined;
  const root = path.split('.')[0]!;
  const resolver = receiverResolver(reading.index, reading.imports);
  const ancestors = reading.index.functions.find((f) => f.node === handler)?.ancestors ?? [];
  const outside = resolver.bindingOf(root, around);
  const inside = resolver.bindingOf(root, [...enclosingFunctions(ancestors), handler]);
  return outside && outside === inside && stableBinding(outside, root) ? path : undefined;
}

/**
 * Where the handler's context goes, and whether the registry shows it. Unknown, a handler
 * taking two parameters is taken to get `(args, ctx)`; one taking fewer is refused as a
 * definition whose context is not shown (its one parameter may be either).
 */
function contextIndexOf(shape: RegistryShape, declaration: Declaration, fn: FunctionNode): { ctxIndex: number; known: boolean } {
  const { arity } = shape;
  const unknown = { ctxIndex: Math.min(argumentParams(fn).length, 1), known: false };
  if (arity === 'unknown') return unknown;
  if ('fixed' in arity) return { ctxIndex: arity.fixed, known: true };
  const schema = declaration.member(arity.schemaKey);
  // One it may have without a value here (set by its constructor, a base class, a spread): not known.
  if (!schema && declaration.has(arity.schemaKey)) return unknown;
  const absent = !schema || (schema.type === 'Identifier' && schema.name === 'undefined');
  return { ctxIndex: absent ? 0 : 1, known: true };
}
