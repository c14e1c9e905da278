// The imports a migration adds: names merged into the file's own import (or `require`) of a
// module, or a new statement after the last one, written in the file's style. A CommonJS file
// gets `const { a } = require('m');`, everything else `import { a } from 'm';`.
import path from 'node:path';
import type { Node, Program, Statement } from '@babel/types';
import { jsString } from '../core/escape.ts';
import type { CodeStyle } from '../analyse/code-style.ts';
import { type Edit, eolOf, indentAt } from '../core/vocabulary.ts';

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
 * Adds `names` (`type X` for a type-only name) to what the file imports from `specifier`:
 * merged into an import (or require) of it that lists names, or a new statement after the
 * last import (or require).
 */
export function addImport(source: string, program: Program, system: ModuleSystem, style: CodeStyle, specifier: string, names: readonly string[], drops?: ReadonlyMap<number, ReadonlySet<string>>): Edit {
  const eol = eolOf(source);
  const existing = importToMergeInto(program, specifier);
  const dropped = existing && drops?.get(existing.start!);
  if (existing?.type === 'ImportDeclaration' && dropped) return rewriteImport(source, existing, dropped, names) ?? mergeInto(source, existing, names, eol);
  if (existing) return mergeInto(source, existing, names, eol);
  const listed = system === 'cjs' ? names.filter((n) => !n.startsWith('type ')) : names;
  const statement =
    system === 'cjs'
      ? `const { ${listed.join(', ')} } = require(${jsString(specifier, style.quote)})${style.semi ? ';' : ''}`
      : `import { ${listed.join(', ')} } from ${jsString(specifier, style.quote)}${style.semi ? ';' : ''}`;
  // After the last import the migration keeps (one whose names all go is removed).
  const removed = (s: Statement) => s.type === 'ImportDeclaration' && drops?.get(s.start!)?.size === s.specifiers.length;
  const last = [...program.body].reverse().find((s) => (s.type === 'ImportDeclaration' || requireOf(s) !== undefined) && !removed(s));
  if (!last) return { start: 0, end: 0, text: statement + eol };
  return { start: last.end!, end: last.end!, text: eol + statement };
}

/**
 * An import with the names `drop` (local names) taken out and `add` put in, in its layout (one
 * name a line when it had one a line); the whole statement removed when nothing is left.
 * Undefined when it cannot be written so (a default or namespace import to drop).
 */
export function rewriteImport(source: string, statement: Extract<Node, { type: 'ImportDeclaration' }>, drop: ReadonlySet<string>, add: readonly string[] = []): Edit | undefined {
  const kept = statement.specifiers.filter((s) => !drop.has(s.local.name));
  if (kept.length === 0 && add.length === 0) return removeLines(source, statement);
  if (statement.specifiers.some((s) => s.type !== 'ImportSpecifier')) return undefined;
  const first = statement.specifiers[0]!;
  const open = source.lastIndexOf('{', first.start!);
  const close = source.indexOf('}', statement.specifiers[statement.specifiers.length - 1]!.end!);
  const names = [...kept.map((s) => source.slice(s.start!, s.end!)), ...add];
  const eol = eolOf(source);
  const multiline = source.slice(open, close).includes('\n');
  const oneLine = `{ ${names.join(', ')} }`;
  if (!multiline && source.slice(statement.start!, open).length + oneLine.length + source.slice(close + 1, statement.end!).length <= 100) return { start: open, end: close + 1, text: oneLine };
  const indent = multiline ? indentAt(source, first.start!) : '  ';
  return { start: open, end: close + 1, text: `{${eol}${names.map((n) => `${indent}${n},${eol}`).join('')}}` };
}

/** A statement's whole lines. */
function removeLines(source: string, statement: Node): Edit {
  const start = source.lastIndexOf('\n', statement.start! - 1) + 1;
  const end = source.indexOf('\n', statement.end!);
  return { start, end: end === -1 ? source.length : end + 1, text: '' };
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
    const from = statement.type === 'ImportDeclaration' || (statement.type === 'ExportNamedDeclaration' && statement.source) ? (statement as { source: { value: string } }).source.value : undefined;
    if (!from?.startsWith('.')) continue;
    if (/\.(c|m)?tsx?$/.test(from)) return 'ts';
    if (/\.(c|m)?jsx?$/.test(from)) return 'js';
    if (!/\.\w+$/.test(from)) return 'none';
  }
  return 'js';
}

/** `const { a, b } = require('m')` at the top level: its specifier and names. */
function requireOf(statement: Statement): { specifier: string; names: string[]; pattern: Node } | undefined {
  if (statement.type !== 'VariableDeclaration' || statement.declarations.length !== 1) return undefined;
  const [d] = statement.declarations;
  const init = d!.init;
  if (init?.type !== 'CallExpression' || init.callee.type !== 'Identifier' || init.callee.name !== 'require') return undefined;
  const arg = init.arguments[0];
  if (arg?.type !== 'StringLiteral' || d!.id.type !== 'ObjectPattern') return undefined;
  const names: string[] = [];
  for (const p of d!.id.properties) if (p.type === 'ObjectProperty' && p.value.type === 'Identifier' && p.key.type === 'Identifier' && p.key.name === p.value.name) names.push(p.value.name);
  return { specifier: arg.value, names, pattern: d!.id };
}

/** The file's import (or require) of `specifier` that names are merged into, if it has one. */
export function importToMergeInto(program: Program, specifier: string): Statement | undefined {
  return program.body.find((s) => mergeable(s, specifier));
}

function mergeable(statement: Statement, specifier: string): boolean {
  if (statement.type === 'ImportDeclaration') {
    return statement.source.value === specifier && statement.importKind !== 'type' && statement.specifiers.length > 0 && statement.specifiers.every((s) => s.type === 'ImportSpecifier');
  }
  const required = requireOf(statement);
  return required?.specifier === specifier && (required.pattern as { properties: unknown[] }).properties.length > 0;
}

/** Names merged into a `{ ... }` list, in its layout (one a line when it has one a line). */
function mergeInto(source: string, statement: Statement, names: readonly string[], eol: string): Edit {
  const entries: Node[] = statement.type === 'ImportDeclaration' ? statement.specifiers : (requireOf(statement)!.pattern as { properties: Node[] }).properties;
  const listed = statement.type === 'ImportDeclaration' ? names : names.filter((n) => !n.startsWith('type '));
  const last = entries[entries.length - 1]!;
  const close = source.indexOf('}', last.end!);
  const between = source.slice(last.end!, close);
  const trailingComma = /^\s*,/.test(between);
  if (source.slice(statement.start!, statement.end!).includes('\n')) {
    const indent = indentAt(source, last.start!);
    const at = trailingComma ? last.end! + between.indexOf(',') + 1 : last.end!;
    const text = listed.map((n, i) => `${i === 0 && !trailingComma ? ',' : ''}${eol}${indent}${n}${i < listed.length - 1 || trailingComma ? ',' : ''}`).join('');
    return { start: at, end: at, text };
  }
  const open = source.lastIndexOf('{', entries[0]!.start!);
  const merged = [...entries.map((e) => source.slice(e.start!, e.end!)), ...listed];
  const oneLine = `${source.slice(statement.start!, open)}{ ${merged.join(', ')} }${source.slice(close + 1, statement.end!)}`;
  if (oneLine.length <= 100) return { start: last.end!, end: last.end!, text: `, ${listed.join(', ')}` };
  // Too long for one line: one name a line, as a formatter would print it.
  return { start: open, end: close + 1, text: `{${eol}${merged.map((m) => `  ${m},${eol}`).join('')}}` };
}
