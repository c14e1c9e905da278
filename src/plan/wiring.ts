// Edits outside the handlers: wiring the verifier into `new McpServer(...)` and merging the
// names the migration uses into the file's import from @modelcontextprotocol/server.
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { propertyOf } from '../analyse/ast.ts';
import { SERVER_PACKAGE } from '../analyse/sdk-surface.ts';
import { eolOf, indentAt } from './text.ts';
import type { Edit } from './types.ts';

export /** Adds `requestState: { verify: mrtrCodec.verify }` to one `new McpServer(...)`. */
function wireVerifier(source: string, construction: Node): Edit[] {
  if (construction.type !== 'NewExpression') return [];
  const args = construction.arguments;
  const verifier = 'requestState: { verify: mrtrCodec.verify }';
  if (args.length === 0) return [];
  if (args.length === 1) {
    const first = args[0]!;
    return [{ start: first.end!, end: first.end!, text: `, { ${verifier} }` }];
  }
  const options = args[1]!;
  if (options.type === 'ObjectExpression') {
    if (propertyOf(options, 'requestState') !== undefined) return [];
    if (options.properties.length === 0) return [{ start: options.start!, end: options.end!, text: `{ ${verifier} }` }];
    const last = options.properties[options.properties.length - 1]!;
    const multiline = source.slice(options.start!, options.end!).includes('\n');
    if (multiline) {
      const indent = indentAt(source, last.start!);
      const afterLast = source.slice(last.end!, options.end! - 1);
      const hasTrailingComma = /^\s*,/.test(afterLast);
      const at = hasTrailingComma ? last.end! + afterLast.indexOf(',') + 1 : last.end!;
      const eol = eolOf(source);
      return [{ start: at, end: at, text: `${hasTrailingComma ? '' : ','}${eol}${indent}${verifier}${hasTrailingComma ? ',' : ''}` }];
    }
    return [{ start: last.end!, end: last.end!, text: `, ${verifier}` }];
  }
  return [{ start: options.start!, end: options.end!, text: `{ ...${source.slice(options.start!, options.end!)}, ${verifier} }` }];
}

/** Merges the names the migration needs into the existing server import, or adds one. */
export function importEdit(analysis: FileAnalysis, names: string[]): Edit {
  const { source } = analysis;
  const existing = analysis.serverImport;
  if (existing && existing.type === 'ImportDeclaration' && existing.specifiers.length > 0) {
    const last = existing.specifiers[existing.specifiers.length - 1]!;
    const close = source.indexOf('}', last.end!);
    const between = source.slice(last.end!, close);
    const trailingComma = /^\s*,/.test(between);
    if (source.slice(existing.start!, existing.end!).includes('\n')) {
      const indent = indentAt(source, last.start!);
      const at = trailingComma ? last.end! + between.indexOf(',') + 1 : last.end!;
      const eol = eolOf(source);
      const text = names.map((n, i) => `${i === 0 && !trailingComma ? ',' : ''}${eol}${indent}${n}${i < names.length - 1 || trailingComma ? ',' : ''}`).join('');
      return { start: at, end: at, text };
    }
    const open = source.lastIndexOf('{', existing.specifiers[0]!.start!);
    const merged = [...existing.specifiers.map((sp) => source.slice(sp.start!, sp.end!)), ...names];
    const oneLine = `${source.slice(existing.start!, open)}{ ${merged.join(', ')} }${source.slice(close + 1, existing.end!)}`;
    if (oneLine.length <= 100) return { start: last.end!, end: last.end!, text: `, ${names.join(', ')}` };
    // Too long for one line: one specifier a line, as a formatter would print it.
    const eol = eolOf(source);
    return { start: open, end: close + 1, text: `{${eol}${merged.map((m) => `  ${m},${eol}`).join('')}}` };
  }
  const at = analysis.afterImports;
  const eol = eolOf(source);
  const statement = `import { ${names.join(', ')} } from '${SERVER_PACKAGE}';`;
  return at === 0 ? { start: 0, end: 0, text: statement + eol } : { start: at, end: at, text: eol + statement };
}

/** Whether the module already imports `name` (`type X` is satisfied by a type-only import too). */
export function alreadyImported(analysis: FileAnalysis, name: string): boolean {
  const have = analysis.serverImported.get(name.replace(/^type /, ''));
  return have === 'value' || (have === 'type' && name.startsWith('type '));
}
