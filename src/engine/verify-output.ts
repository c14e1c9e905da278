// Every rewritten text is parsed before it is written or shown: a rewrite that would not parse
// is a bug of the codemod, and the file is then left as it is. Parsing every output whole
// doubled a migration's parsing, yet the rewrite is a list of splices into a text that parsed:
// most top-level statements of an output are copied through unchanged (three quarters of the
// benchmark's output bytes). So an output is checked in parts where that provably says the
// same as parsing it whole:
//
// - The checked text is the output with each unchanged top-level statement replaced by a `;`. Each `;` must come back as a top-level empty statement of its
//   own: then the text before it ends a complete statement, and the copied statement starts
//   where the parser starts any statement, as it did in the original.
// - A copied statement is followed by other text than in the original, so it must end in a
//   way nothing can continue: with `;`, or as a declaration closed by `}`. Others are checked.
//   (Which statements are copied is worked out by the rewrite, src/rewrite/copied-statements.ts,
//   while it has the syntax tree: no tree outlives its file's transform.)
// - What the parser checks across statements: a name bound twice in the module scope, a name
//   exported twice, an `export { x }` without an `x`. The names of the copied statements and
//   the checked text must not meet.
// - The original was read as a module because a copied statement imports or exports, so the
//   output is read as one too (never as a script).
//
// Anything else (a script, a statement that could be continued, a name that meets another,
// a `;` that did not come back on its own, a checked text that fails) parses the output whole.
import type { Program } from '@babel/types';
import { type Dialect, parseSource } from '../analyse/parse.ts';
import { addTopLevelNames, emptyNames, type TopLevelNames } from '../analyse/top-level-names.ts';
import type { EditedText } from '../rewrite/rewrite.ts';

/**
 * Throws the parser's error (a ParseFailure) when `output` does not parse. With `edited` (the
 * output is `edited.base` with `edited.edits` applied, and what they copied through), parses
 * only what the edits changed when that says the same as parsing the whole.
 */
export function verifyParses(output: string, dialect: Dialect, edited?: EditedText): void {
  if (edited && partsParse(output, dialect, edited)) return;
  parseSource(output, dialect);
}

/** Whether the output provably parses from its changed parts; false when unsure. */
export function partsParse(output: string, dialect: Dialect, { base, copied }: EditedText): boolean {
  if (!copied) return false;
  // Output ranges of the statements copied through unchanged (checked to be there).
  const holes: Array<{ start: number; end: number }> = [];
  for (const range of copied.ranges) {
    if (!output.startsWith(base.slice(range.from, range.from + range.end - range.start), range.start)) return false;
    holes.push({ start: range.start, end: range.end });
  }

  let checked = '';
  const stubs: number[] = [];
  let cursor = 0;
  for (const hole of holes) {
    checked += output.slice(cursor, hole.start);
    stubs.push(checked.length);
    checked += ';';
    cursor = hole.end;
  }
  checked += output.slice(cursor);

  let parsed: Program;
  try {
    parsed = parseSource(checked, dialect, 'module').program;
  } catch {
    return false;
  }
  if (parsed.directives.length > 0) return false;
  const changed = emptyNames();
  let s = 0;
  for (const statement of parsed.body) {
    if (s < stubs.length && statement.start! >= stubs[s]!) {
      if (statement.start !== stubs[s] || statement.end !== stubs[s]! + 1 || statement.type !== 'EmptyStatement') return false;
      s++;
      continue;
    }
    addTopLevelNames(statement, changed);
  }
  // A stub taken into a statement before it (the text before it did not end there) leaves
  // no statement at its own offset.
  if (s !== stubs.length) return false;
  return namesApart(copied.names, changed);
}

/** No name bound or exported twice across the parts, and every local export bound. */
function namesApart(...parts: TopLevelNames[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      if (meet(parts[i]!.declared, parts[j]!.declared) || meet(parts[i]!.exported, parts[j]!.exported)) return false;
    }
  }
  for (const part of parts) {
    for (const name of part.exportedLocals) if (!parts.some((p) => p.declared.has(name))) return false;
  }
  return true;
}

function meet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const name of a) if (b.has(name)) return true;
  return false;
}
