// What links a module's declarations to another module's registry, for the engine to follow:
// the functions of other modules this module hands would-be declarations to (asked about when
// a request here has no handler), the instances of other modules' classes it hands to a
// registry (their module then migrates the class's handler method), and, in the class's module,
// the handlers those instances hold.
import type { Node, ObjectExpression, Program } from '@babel/types';
import { isFunction, type FunctionNode } from './ast.ts';
import type { Imports } from './bindings.ts';
import { enclosingFunctions, namedFunctions, type FileIndex } from './file-index.ts';
import type { HandlerSite } from './find-handlers.ts';
import { classDeclaration, classNamed, declaredHandlers, readingOf, shapesCalled, type Reading } from './registry-declarations.ts';
import type { Registry, RegistryShape } from './tool-registries.ts';

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

/** An instance of an imported class (`cls`: its local name) handed to a registry of this module (`shapes`), or to an imported function (`via`). */
export type HandedInstance = { cls: string; shapes: RegistryShape[] } | { cls: string; via: string };

/** The instances of other modules' classes this module hands to registries. */
export function handedInstances(index: FileIndex, imports: Imports, own: readonly Registry[]): HandedInstance[] {
  const reading = readingOf(index, imports);
  const found: HandedInstance[] = [];
  for (const at of index.calls) {
    const classes = at.node.arguments.flatMap((a) => importedInstances(a, reading, enclosingFunctions(at.ancestors)));
    if (classes.length === 0) continue;
    const shapes = shapesCalled(at.node, reading, own, []).map(plainShape);
    const callee = at.node.callee;
    for (const cls of classes) {
      if (shapes.length > 0) found.push({ cls, shapes });
      else if (callee.type === 'Identifier' && imports.get(callee.name)?.from.startsWith('.')) found.push({ cls, via: callee.name });
    }
  }
  for (const registry of own)
    if (registry.iterated)
      for (const cls of importedInstances(registry.iterated, reading, enclosingFunctions(registry.registration.ancestors)))
        found.push({ cls, shapes: [plainShape(registry)] });
  return found;
}

/** A registry's shape alone (plain data another module is told). */
export function plainShape(shape: RegistryShape): RegistryShape {
  const { kind, nameKey, handlerKey, factory, arity, forwards, bound, argumentsFirstType } = shape;
  return {
    kind,
    nameKey,
    handlerKey,
    factory,
    arity,
    ...(forwards === undefined ? {} : { forwards }),
    ...(bound ? { bound } : {}),
    ...(argumentsFirstType ? { argumentsFirstType } : {}),
  };
}

/** The imported classes a value makes instances of: `new Tool()` written there, in an array, or in a const holding one. */
function importedInstances(node: Node, reading: Reading, functions: readonly FunctionNode[], depth = 0): string[] {
  if (depth > 4) return [];
  if (node.type === 'NewExpression')
    return node.callee.type === 'Identifier' && reading.imports.get(node.callee.name)?.from.startsWith('.') ? [node.callee.name] : [];
  if (node.type === 'ArrayExpression')
    return node.elements.flatMap((e) => (e && e.type !== 'SpreadElement' ? importedInstances(e, reading, functions, depth + 1) : []));
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression') return importedInstances(node.expression, reading, functions, depth + 1);
  const init = node.type === 'Identifier' ? reading.declarations(node.name, functions)?.init : undefined;
  return init ? importedInstances(init, reading, functions, depth + 1) : [];
}

/** The handlers of this module's exported classes whose instances other modules hand to registries (the engine found them). */
export function registeredInstances(
  index: FileIndex,
  imports: Imports,
  program: Program,
  entries: ReadonlyArray<{ name: string; instance?: readonly RegistryShape[] }>,
): HandlerSite[] {
  const reading = readingOf(index, imports);
  return entries.flatMap(({ name, instance }) => {
    const cls = instance && exportedClass(program, name) ? classNamed(index, name) : undefined;
    return cls ? declaredHandlers(classDeclaration(cls, cls), instance!, undefined, reading) : [];
  });
}

/** Whether the module exports a class of its own under that name. */
function exportedClass(program: Program, name: string): boolean {
  return program.body.some(
    (s) =>
      s.type === 'ExportNamedDeclaration' &&
      !s.source &&
      ((s.declaration?.type === 'ClassDeclaration' && s.declaration.id?.name === name) ||
        s.specifiers.some(
          (x) => x.type === 'ExportSpecifier' && x.local.name === name && (x.exported.type === 'Identifier' ? x.exported.name : x.exported.value) === name,
        )),
  );
}
