// Types a lifted local is restored with that the module does not have in scope but one of its
// imports exports (`Note` beside `import { NoteStore } from './store.js'`): imported as types
// from that module, so the restored local is named as the checker named it.
import type { Program } from '@babel/types';
import { jsString } from '../core/escape.ts';
import type { Edit } from './types.ts';

/**
 * Edits adding each `{ name, from }` to the file's named import from `from` (as a type), or a
 * `import type { ... }` of its own after the file's import of it when that has no braces.
 */
export function typeImportEdits(program: Program, wanted: ReadonlyArray<{ name: string; from: string }>, eol: string): Edit[] {
  const byModule = new Map<string, Set<string>>();
  for (const { name, from } of wanted) byModule.set(from, (byModule.get(from) ?? new Set()).add(name));
  const edits: Edit[] = [];
  for (const [from, names] of byModule) {
    const imports = program.body.filter((s) => s.type === 'ImportDeclaration' && s.source.value === from);
    const have = new Set(imports.flatMap((d) => (d.type === 'ImportDeclaration' ? d.specifiers.map((sp) => sp.local.name) : [])));
    const missing = [...names].filter((n) => !have.has(n));
    if (missing.length === 0 || imports.length === 0) continue;
    const named = imports.find((d) => d.type === 'ImportDeclaration' && d.specifiers.some((sp) => sp.type === 'ImportSpecifier'));
    if (named?.type === 'ImportDeclaration') {
      const last = named.specifiers[named.specifiers.length - 1]!;
      edits.push({ start: last.end!, end: last.end!, text: missing.map((n) => `, ${named.importKind === 'type' ? '' : 'type '}${n}`).join('') });
    } else {
      const at = imports[imports.length - 1]!.end!;
      edits.push({ start: at, end: at, text: `${eol}import type { ${missing.join(', ')} } from ${jsString(from)};` });
    }
  }
  return edits;
}
