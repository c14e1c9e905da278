// The declarations a project's tool registry registers (see tool-registries.ts), and the
// handlers their factories return: `declareTool({ name: 'list_projects', factory: (context)
// => async (ctx) => {...} })` declares a handler of tool `list_projects`. A declaration is
// followed only where it is seen reaching a registry: handed to a function of the registry's
// module (the registry itself, or a definer beside it), or written in the array the registry
// iterates. The handler's context parameter sits where the registry's registration puts it.
import type { CallExpression, Node, ObjectExpression } from '@babel/types';
import { argumentParams, isFunction, memberPath, propertyOf, stringValue, walk, type FunctionNode } from './ast.ts';
import { stableBinding, type Imports } from './bindings.ts';
import { constDeclarations, constString, enclosingFunctions, namedFunctions, type Declarations, type FileIndex, type Indexed } from './file-index.ts';
import type { HandlerSite } from './find-handlers.ts';
import { receiverResolver } from './receivers.ts';
import type { Registry, RegistryShape } from './tool-registries.ts';

/** Registries of other modules, by the local name this module calls a function of their module by (the engine found them). */
export type ImportedRegistries = ReadonlyArray<{ local: string; shapes: readonly RegistryShape[] }>;

interface Reading {
  index: FileIndex;
  imports: Imports;
  functions: Map<string, FunctionNode>;
  declarations: Declarations;
}

/** The handlers the declarations of this module's registries, and of imported ones, hold. */
export function registryHandlers(index: FileIndex, imports: Imports, own: readonly Registry[], imported: ImportedRegistries = []): HandlerSite[] {
  if (own.length === 0 && imported.length === 0) return [];
  const reading: Reading = { index, imports, functions: namedFunctions(index), declarations: constDeclarations(index) };
  const found = new Map<ObjectExpression, { shapes: readonly RegistryShape[]; at: Indexed<CallExpression> }>();
  const add = (objects: ObjectExpression[], shapes: readonly RegistryShape[], at: Indexed<CallExpression>) => {
    for (const o of objects) if (!found.has(o)) found.set(o, { shapes, at });
  };
  for (const at of index.calls) {
    const shapes = shapesCalled(at.node, reading, own, imported);
    if (shapes.length > 0)
      add(
        at.node.arguments.flatMap((a) => declarationObjects(a, reading, enclosingFunctions(at.ancestors))),
        shapes,
        at,
      );
  }
  for (const registry of own)
    if (registry.iterated)
      add(declarationObjects(registry.iterated, reading, enclosingFunctions(registry.registration.ancestors)), [registry], registry.registration);
  return [...found].flatMap(([object, { shapes, at }]) => declaredHandlers(object, shapes, at, reading));
}

/** The registries a call hands its arguments to: one of this module's (or a function beside it), or an imported one. */
function shapesCalled(call: CallExpression, reading: Reading, own: readonly Registry[], imported: ImportedRegistries): readonly RegistryShape[] {
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

/** The object literals a value is made of: written there, in an array, or read from a const holding them. */
function declarationObjects(node: Node, reading: Reading, functions: readonly FunctionNode[], depth = 0): ObjectExpression[] {
  if (depth > 4) return [];
  if (node.type === 'ObjectExpression') return [node];
  if (node.type === 'ArrayExpression')
    return node.elements.flatMap((e) => (e && e.type !== 'SpreadElement' ? declarationObjects(e, reading, functions, depth + 1) : []));
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression') return declarationObjects(node.expression, reading, functions, depth + 1);
  if (node.type !== 'Identifier') return [];
  const init = reading.declarations(node.name, functions)?.init;
  // `const LIST = declareTool({...})`: the call's own objects are found as the call is.
  return init && init.type !== 'CallExpression' ? declarationObjects(init, reading, functions, depth + 1) : [];
}

/** The handlers one declaration holds, for the first registry shape it has the properties of. */
function declaredHandlers(object: ObjectExpression, shapes: readonly RegistryShape[], at: Indexed<CallExpression>, reading: Reading): HandlerSite[] {
  const matching = shapes.filter((s) => propertyOf(object, s.factoryKey) && propertyOf(object, s.nameKey));
  // A tool registry and a prompt registry reading the same properties: which one it reaches is not seen.
  if (matching.length === 0 || new Set(matching.map((s) => s.kind)).size > 1) return [];
  const shape = matching[0]!;
  const factory = functionOf(propertyOf(object, shape.factoryKey)!, reading);
  const returned = factory ? returnedFunctions(factory, reading) : undefined;
  if (!returned || returned.length === 0) return [];
  const around = enclosingFunctions(at.ancestors);
  const nameNode = propertyOf(object, shape.nameKey)!;
  const name = constString(nameNode, reading.declarations, around);
  const out: HandlerSite[] = [];
  for (const fn of returned) {
    const nameText = name === undefined ? sharedName(reading, nameNode, around, fn) : undefined;
    const { ctxIndex, known } = contextIndexOf(shape, object, fn);
    out.push({
      kind: shape.kind,
      // A name the handler cannot read as the declaration does: a handler all the same, refused.
      ...(name === undefined && nameText === undefined ? { name: memberPath(nameNode) ?? '(computed)', unnamed: true as const } : { name: name ?? nameText! }),
      ...(nameText ? { nameText } : {}),
      call: at.node,
      fn,
      ctxIndex,
      ancestors: at.ancestors,
      // Its type comes from the factory's, not from the registration: an added context is typed.
      contextType: 'ServerContext',
      ...(known ? {} : { definition: true }),
      factory: { fn: factory!, returns: returned.length },
    });
  }
  return out;
}

/**
 * The handlers with those registries' declarations hold: a factory is no handler, though a
 * definition's handler property may hold one (`run: (context) => async (args) => ...`).
 */
export function withRegistryHandlers(handlers: readonly HandlerSite[], declared: readonly HandlerSite[]): HandlerSite[] {
  if (declared.length === 0) return [...handlers];
  const factories = new Set(declared.map((h) => h.factory?.fn));
  return [...handlers.filter((h) => !factories.has(h.fn)), ...declared];
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

/** Where the handler's context goes, and whether the registry shows it (else the handler's arity is trusted, as for a definition). */
function contextIndexOf(shape: RegistryShape, object: ObjectExpression, fn: FunctionNode): { ctxIndex: number; known: boolean } {
  const { arity } = shape;
  if (arity === 'unknown') return { ctxIndex: argumentParams(fn).length >= 2 ? 1 : 0, known: false };
  if ('fixed' in arity) return { ctxIndex: arity.fixed, known: true };
  const schema = propertyOf(object, arity.schemaKey);
  const absent = !schema || (schema.type === 'Identifier' && schema.name === 'undefined');
  return { ctxIndex: absent ? 0 : 1, known: true };
}

/**
 * The functions of other modules of the project this module hands would-be declarations to:
 * an object literal with a function (or a function of this module) among its properties, as is
 * or in an array. Whether one is a registry's (and which property is its factory) is for the
 * engine to read in that module.
 */
export function declarationCallees(index: FileIndex, imports: Imports): Array<{ local: string; from: string; imported: string }> {
  const functions = namedFunctions(index);
  const found = new Map<string, { local: string; from: string; imported: string }>();
  const functionValued = (o: ObjectExpression) =>
    o.properties.some(
      (p) => isFunction(p) || (p.type === 'ObjectProperty' && (isFunction(p.value) || (p.value.type === 'Identifier' && functions.has(p.value.name)))),
    );
  for (const { node } of index.calls) {
    if (node.callee.type !== 'Identifier' || found.has(node.callee.name)) continue;
    const imported = imports.get(node.callee.name);
    if (!imported || !imported.from.startsWith('.') || imported.imported === '*') continue;
    const objects = node.arguments.flatMap((a) =>
      a.type === 'ObjectExpression' ? [a] : a.type === 'ArrayExpression' ? a.elements.filter((e): e is ObjectExpression => e?.type === 'ObjectExpression') : [],
    );
    if (objects.some(functionValued)) found.set(node.callee.name, { local: node.callee.name, ...imported });
  }
  return [...found.values()];
}
