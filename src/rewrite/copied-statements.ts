// The top-level statements a rewrite copies through unchanged: what the output check
// (src/engine/verify-output.ts) needs to parse only the rest. Worked out as soon as the
// splices are known, while the syntax tree is at hand, so that no syntax tree outlives its
// file's transform (a run holds many transforms' results at once).
import type { Program, Statement } from '@babel/types';
import { addTopLevelNames, emptyNames, type TopLevelNames } from '../analyse/top-level-names.ts';
import type { Edit } from '../core/vocabulary.ts';

export interface CopiedStatements {
  /** Where each copied statement is in the output (and `from`, where it was in the text spliced). */
  ranges: Array<{ start: number; end: number; from: number }>;
  /** What the copied statements bind and export in the module scope. */
  names: TopLevelNames;
}

/**
 * The statements of `program` no splice touches that also end in a way nothing after them can
 * continue (a copied statement is followed by other text than before). Undefined when the
 * text was not read as a module because of a copied statement (the output could then be read
 * as a script), or has directives.
 */
export function copiedStatements(source: string, program: Program, edits: readonly Edit[]): CopiedStatements | undefined {
  if (program.sourceType !== 'module' || program.directives.length > 0) return undefined;
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  const copied: CopiedStatements = { ranges: [], names: emptyNames() };
  let e = 0;
  let shift = 0;
  for (const statement of program.body) {
    const start = statement.start!;
    const end = statement.end!;
    while (e < ordered.length && ordered[e]!.end <= start) {
      shift += ordered[e]!.text.length - (ordered[e]!.end - ordered[e]!.start);
      e++;
    }
    // An edit that starts inside the statement (or spans it) changes it.
    const touched = e < ordered.length && ordered[e]!.start < end;
    if (touched || !closed(statement, source)) continue;
    copied.ranges.push({ start: start + shift, end: end + shift, from: start });
    addTopLevelNames(statement, copied.names);
  }
  return copied.names.moduleSyntax ? copied : undefined;
}

/**
 * A statement nothing after it can continue: one that ends with `;`, or a declaration whose
 * closing `}` ends it (`f()` or `const f = function () {}` would take a following `(...)`).
 */
function closed(statement: Statement, source: string): boolean {
  if (source.charCodeAt(statement.end! - 1) === 59 /* ; */) return true;
  const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
  switch (declaration?.type) {
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'TSInterfaceDeclaration':
    case 'TSEnumDeclaration':
    case 'TSModuleDeclaration':
      return declaration.end === statement.end && source.charCodeAt(statement.end! - 1) === 125; /* } */
    default:
      return false;
  }
}
