// The names a split helper's halves write the server package's types by (`ElicitResult`,
// `InputRequest`): the package's own, unless the module declares one of them (a project's own
// `type ElicitResult = ...`), which is then imported under another name (`McpElicitResult`).
import type { FileAnalysis } from '../analyse/analyse-file.ts';

/** The local name of each of the server package's types in a module. */
export type TypeNames = (name: string) => string;

export function serverTypeNames(analysis: Pick<FileAnalysis, 'declaredAnywhere' | 'serverImported'>): TypeNames {
  return (name) => {
    if (!analysis.declaredAnywhere.has(name) || analysis.serverImported.has(name)) return name;
    let alias = `Mcp${name}`;
    for (let n = 2; analysis.declaredAnywhere.has(alias); n++) alias = `Mcp${name}${n}`;
    return alias;
  };
}

/** A type's text (`A | B`) with each of its names in the module's names. */
export function localTypeText(names: TypeNames, text: string): string {
  return text
    .split('|')
    .map((t) => names(t.trim()))
    .join(' | ');
}

/** The import specifiers (`type A`, `type A as McpA`) of the server types a type's text names. */
export function typeImports(names: TypeNames, text: string): string[] {
  return text.split('|').map((t) => {
    const name = t.trim();
    const local = names(name);
    return local === name ? `type ${name}` : `type ${name} as ${local}`;
  });
}
