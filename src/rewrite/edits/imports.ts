// The imports a migration adds, as edits: names merged into the file's own import (or
// `require`) of a module, or a new statement after the last one, written in the file's style.
// A CommonJS file gets `const { a } = require('m');`, everything else `import { a } from 'm';`.
import type { Node, Program, Statement } from '@babel/types';
import type { CodeStyle } from '../../analyse/code-style.ts';
import { importToMergeInto, requireOf, type ModuleSystem } from '../../analyse/module-imports.ts';
import { jsString } from '../../core/escape.ts';
import { type Edit, eolOf, indentAt } from '../../core/vocabulary.ts';

/**
 * Adds `names` (`type X` for a type-only name) to what the file imports from `specifier`:
 * merged into an import (or require) of it that lists names, or a new statement after the
 * last import (or require).
 */
export function addImport(
  source: string,
  program: Program,
  system: ModuleSystem,
  style: CodeStyle,
  specifier: string,
  names: readonly string[],
  drops?: ReadonlyMap<number, ReadonlySet<string>>,
): Edit {
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
export function rewriteImport(
  source: string,
  statement: Extract<Node, { type: 'ImportDeclaration' }>,
  drop: ReadonlySet<string>,
  add: readonly string[] = [],
): Edit | undefined {
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
  if (!multiline && source.slice(statement.start!, open).length + oneLine.length + source.slice(close + 1, statement.end!).length <= 100)
    return { start: open, end: close + 1, text: oneLine };
  const indent = multiline ? indentAt(source, first.start!) : '  ';
  return { start: open, end: close + 1, text: `{${eol}${names.map((n) => `${indent}${n},${eol}`).join('')}}` };
}

/** A statement's whole lines. */
function removeLines(source: string, statement: Node): Edit {
  const start = source.lastIndexOf('\n', statement.start! - 1) + 1;
  const end = source.indexOf('\n', statement.end!);
  return { start, end: end === -1 ? source.length : end + 1, text: '' };
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
    const text = listed
      .map((n, i) => `${i === 0 && !trailingComma ? ',' : ''}${eol}${indent}${n}${i < listed.length - 1 || trailingComma ? ',' : ''}`)
      .join('');
    return { start: at, end: at, text };
  }
  const open = source.lastIndexOf('{', entries[0]!.start!);
  const merged = [...entries.map((e) => source.slice(e.start!, e.end!)), ...listed];
  const oneLine = `${source.slice(statement.start!, open)}{ ${merged.join(', ')} }${source.slice(close + 1, statement.end!)}`;
  if (oneLine.length <= 100) return { start: last.end!, end: last.end!, text: `, ${listed.join(', ')}` };
  // Too long for one line: one name a line, as a formatter would print it.
  return { start: open, end: close + 1, text: `{${eol}${merged.map((m) => `  ${m},${eol}`).join('')}}` };
}
