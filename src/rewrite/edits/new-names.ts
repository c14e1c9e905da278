// What a statement the rewrite adds is written with: a name the module does not use yet, and
// the module's own unit of indentation.
import type { FileAnalysis } from '../../analyse/analyse-file.ts';

/** `base`, or `base2`, `base3`…: the first the module declares nowhere and `taken` does not hold. */
export function freeName(file: FileAnalysis, base: string, taken: ReadonlySet<string> = new Set()): string {
  let name = base;
  for (let i = 2; file.declaredAnywhere.has(name) || taken.has(name); i++) name = `${base}${i}`;
  return name;
}

/** One level of indentation: the file's first indented line that is not inside a block comment. */
export function indentUnit(source: string): string {
  return /\n([ \t]+)[^\s*]/.exec(source)?.[1] ?? '  ';
}
