// How a module imports: its module system, the names it imports from a module (by `import` or
// `const { ... } = require(...)`), the import names are merged into, and the specifier it would
// import the request-state module by.
import path from 'node:path';
import type { Node, Program, Statement } from '@babel/types';

export type ModuleSystem = 'esm' | 'cjs';

/** The file name of the generated request-state module, without its extension. */
export const STATE_MODULE_NAME = 'mrtr-request-state';

/** `.cjs`, `.mjs`, import/export syntax (ESM), or `require(...)` (CommonJS). */
export function moduleSystemOf(fileName: string, program: Program): ModuleSystem {
  if (/\.c[jt]s$/.test(fileName)) return /\.cjs$/.test(fileName) ? 'cjs' : 'esm';
  if (/\.(m[jt]s|tsx?)$/.test(fileName)) return 'esm';
  if (program.sourceType === 'module') return 'esm';
  return program.body.some((s) => requireOf(s) !== undefined) ? 'cjs' : 'esm';
}

/** Names imported from `specifier` (by `import` or `const { ... } = require(...)`), value or type only. */
export function importedFrom(program: Program, specifier: string): Map<string, 'value' | 'type'> {
  const names = new Map<string, 'value' | 'type'>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration' && statement.source.value === specifier) {
      for (const spec of statement.specifiers) {
        if (spec.type !== 'ImportSpecifier') continue;
        const typeOnly = statement.importKind === 'type' || spec.importKind === 'type';
        const imported = spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value;
        if (imported === spec.local.name && names.get(imported) !== 'value') names.set(imported, typeOnly ? 'type' : 'value');
      }
    }
    const required = requireOf(statement);
    if (required?.specifier === specifier) for (const name of required.names) names.set(name, 'value');
  }
  return names;
}

/** Whether `name` (`type X` for a type) is imported from `specifier` already. */
export function isImported(imported: ReadonlyMap<string, 'value' | 'type'>, name: string): boolean {
  const have = imported.get(name.replace(/^type /, ''));
  return have === 'value' || (have === 'type' && name.startsWith('type '));
}

/**
 * The specifier a file imports the request-state module by: relative to the file, `./` first,
 * with the extension the file's own relative imports use (a TypeScript file importing
 * `./x.js` for `./x.ts` gets `.js`; one importing `./x.ts`, `.ts`; one without extensions,
 * none). Without a module path, the module is beside the file.
 */
export function stateModuleSpecifier(fileName: string, program: Program, modulePath?: string): string {
  const typed = /\.(c|m)?tsx?$/.test(fileName);
  const target = modulePath ?? path.join(path.dirname(fileName), `${STATE_MODULE_NAME}${defaultExtension(fileName, program)}`);
  let relative = path.relative(path.dirname(fileName), target).split(path.sep).join('/');
  if (!relative.startsWith('.')) relative = `./${relative}`;
  if (!typed || !/\.(c|m)?ts$/.test(relative)) return relative;
  const convention = relativeImportExtension(program);
  const bare = relative.replace(/\.(c|m)?ts$/, '');
  if (convention === 'none') return bare;
  if (convention === 'ts') return relative;
  return `${bare}${relative.endsWith('.mts') ? '.mjs' : relative.endsWith('.cts') ? '.cjs' : '.js'}`;
}

/** The module's extension beside a file: `.ts` for TypeScript, the file's own for JavaScript. */
export function defaultExtension(fileName: string, program: Program): string {
  if (/\.(c|m)?tsx?$/.test(fileName)) return '.ts';
  if (fileName.endsWith('.mjs')) return '.mjs';
  if (fileName.endsWith('.cjs')) return '.cjs';
  return moduleSystemOf(fileName, program) === 'cjs' ? '.cjs' : '.js';
}

/** How the file's relative imports end: `.ts`, `.js` (also the default), or without one. */
function relativeImportExtension(program: Program): 'ts' | 'js' | 'none' {
  for (const statement of program.body) {
    const from =
      statement.type === 'ImportDeclaration' || (statement.type === 'ExportNamedDeclaration' && statement.source)
        ? (statement as { source: { value: string } }).source.value
        : undefined;
    if (!from?.startsWith('.')) continue;
    if (/\.(c|m)?tsx?$/.test(from)) return 'ts';
    if (/\.(c|m)?jsx?$/.test(from)) return 'js';
    if (!/\.\w+$/.test(from)) return 'none';
  }
  return 'js';
}

/** `const { a, b } = require('m')` at the top level: its specifier and names. */
export function requireOf(statement: Statement): { specifier: string; names: string[]; pattern: Node } | undefined {
  if (statement.type !== 'VariableDeclaration' || statement.declarations.length !== 1) return undefined;
  const [d] = statement.declarations;
  const init = d!.init;
  if (init?.type !== 'CallExpression' || init.callee.type !== 'Identifier' || init.callee.name !== 'require') return undefined;
  const arg = init.arguments[0];
  if (arg?.type !== 'StringLiteral' || d!.id.type !== 'ObjectPattern') return undefined;
  const names: string[] = [];
  for (const p of d!.id.properties)
    if (p.type === 'ObjectProperty' && p.value.type === 'Identifier' && p.key.type === 'Identifier' && p.key.name === p.value.name) names.push(p.value.name);
  return { specifier: arg.value, names, pattern: d!.id };
}

/** The file's import (or require) of `specifier` that names are merged into, if it has one. */
export function importToMergeInto(program: Program, specifier: string): Statement | undefined {
  return program.body.find((s) => mergeable(s, specifier));
}

function mergeable(statement: Statement, specifier: string): boolean {
  if (statement.type === 'ImportDeclaration') {
    return (
      statement.source.value === specifier &&
      statement.importKind !== 'type' &&
      statement.specifiers.length > 0 &&
      statement.specifiers.every((s) => s.type === 'ImportSpecifier')
    );
  }
  const required = requireOf(statement);
  return required?.specifier === specifier && (required.pattern as { properties: unknown[] }).properties.length > 0;
}

/** `await import('./m')`: the specifier, and where the `import` starts. */
export function literalImport(init: Node | null | undefined): { from: string; at: number } | undefined {
  if (init?.type !== 'AwaitExpression') return undefined;
  const call = init.argument;
  const specifier =
    call.type === 'ImportExpression' ? call.source : call.type === 'CallExpression' && call.callee.type === 'Import' ? call.arguments[0] : undefined;
  return specifier?.type === 'StringLiteral' ? { from: specifier.value, at: call.start! } : undefined;
}

/** `(await import('./m'))`, the object of a member read: the name the module's helpers are known by there (`import('./m')`). */
export function inlineLoad(object: Node): { name: string; from: string } | undefined {
  const load = literalImport(object.type === 'ParenthesizedExpression' ? object.expression : object);
  return load && { name: `import(${load.from})`, from: load.from };
}
