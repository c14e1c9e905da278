// A framework's tool handlers in a module (see frameworks.ts): the function the module
// exports as the tool, whose context parameter is annotated with the framework's context
// type imported from the framework. Only such an annotation proves the receiver is that
// context: a parameter merely named `extra` proves nothing.
import type { Node, Program } from '@babel/types';
import { argumentParams, isFunction, propertyOf, stringValue, type FunctionNode } from './ast.ts';
import { FRAMEWORKS, type FrameworkAdapter } from './frameworks.ts';

export interface FrameworkHandler {
  adapter: FrameworkAdapter;
  fn: FunctionNode;
  /** The name of the context parameter. */
  context: string;
  /** The tool's name for reports: the exported `metadata.name` string, else the function's own name, else `default`. */
  name: string;
}

type ImportedNames = ReadonlyMap<string, { from: string; imported: string }>;

export function frameworkHandlers(program: Program, importedNames: ImportedNames): FrameworkHandler[] {
  const fn = defaultExport(program);
  if (!fn) return [];
  const found: FrameworkHandler[] = [];
  for (const adapter of FRAMEWORKS) {
    const param = argumentParams(fn)[adapter.context.index];
    if (param?.type !== 'Identifier' || !annotatedWith(param, adapter, importedNames)) continue;
    found.push({ adapter, fn, context: param.name, name: metadataName(program) ?? functionName(fn) ?? 'default' });
  }
  return found;
}

/** The function the module exports as its default: written there, or a top-level function or const it names. */
function defaultExport(program: Program): FunctionNode | undefined {
  const statement = program.body.find((s) => s.type === 'ExportDefaultDeclaration');
  if (statement?.type !== 'ExportDefaultDeclaration') return undefined;
  const exported = statement.declaration as Node;
  if (isFunction(exported)) return exported;
  if (exported.type !== 'Identifier') return undefined;
  for (const s of program.body) {
    const declaration = s.type === 'ExportNamedDeclaration' && s.declaration ? s.declaration : s;
    if (declaration.type === 'FunctionDeclaration' && declaration.id?.name === exported.name) return declaration;
    if (declaration.type === 'VariableDeclaration' && declaration.kind === 'const')
      for (const d of declaration.declarations) if (d.id.type === 'Identifier' && d.id.name === exported.name && d.init && isFunction(d.init)) return d.init;
  }
  return undefined;
}

/** `extra: ToolExtraArguments`, the type imported from the framework's module (under any local name). */
function annotatedWith(param: Extract<Node, { type: 'Identifier' }>, adapter: FrameworkAdapter, importedNames: ImportedNames): boolean {
  const annotation = param.typeAnnotation;
  if (annotation?.type !== 'TSTypeAnnotation') return false;
  const type = annotation.typeAnnotation;
  if (type.type !== 'TSTypeReference' || type.typeName.type !== 'Identifier' || type.typeParameters) return false;
  const imported = importedNames.get(type.typeName.name);
  return imported?.from === adapter.module && imported.imported === adapter.context.type;
}

/** `export const metadata = { name: 'x', ... }` (annotated or not). */
function metadataName(program: Program): string | undefined {
  for (const s of program.body) {
    if (s.type !== 'ExportNamedDeclaration' || s.declaration?.type !== 'VariableDeclaration') continue;
    for (const d of s.declaration.declarations) {
      if (d.id.type !== 'Identifier' || d.id.name !== 'metadata' || d.init?.type !== 'ObjectExpression') continue;
      return stringValue(propertyOf(d.init, 'name'));
    }
  }
  return undefined;
}

function functionName(fn: FunctionNode): string | undefined {
  return (fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') && fn.id ? fn.id.name : undefined;
}
