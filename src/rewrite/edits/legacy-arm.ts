// A dual-era `if` without its legacy side (see plan/legacy-arms.ts): the if removed when the
// legacy arm returned early, or replaced by the arm it kept, written one level out in a block.
import type { IfStatement, Node, Statement } from '@babel/types';
import { type Edit, eolOf, indentAt, lineEndOf, lineStartOf, lineTail, startsLine } from '../../core/vocabulary.ts';
import { dedented } from './dedent.ts';
import { removeStatement } from './removals.ts';

/** An era `if`, and what of it stays. */
export interface ArmLayout {
  statement: IfStatement;
  /** The legacy arm returns early, each era has its branch, or the modern arm returns early. */
  layout: 'legacy-first' | 'both' | 'modern-first';
  /** The branch written in place of the if (both, modern-first). */
  kept?: Statement;
  /** The statements after the if that go (modern-first). */
  dropped: Statement[];
  /** Where the if is: a block's statements, the else of another if, or elsewhere. */
  within: { block: Statement[] } | { elseOf: IfStatement } | 'other';
}

/** The edits that delete the legacy side of `arm`; undefined when its layout cannot be kept (the if shares its lines). */
export function legacyArmEdits(source: string, arm: ArmLayout): Edit[] | undefined {
  const { statement, within } = arm;
  if (arm.layout === 'legacy-first') {
    if (within === 'other') return undefined;
    if ('elseOf' in within) return [{ start: within.elseOf.consequent.end!, end: statement.end!, text: '' }];
    return ownLines(source, statement) ? [removeStatement(source, statement)] : undefined;
  }
  const kept = arm.kept!;
  // `else if (legacy) {...} else {...}`, or an if that is no block's statement: the kept branch as it is written.
  if (within === 'other' || 'elseOf' in within) return [{ start: statement.start!, end: statement.end!, text: source.slice(kept.start!, kept.end!) }];
  const last = arm.dropped[arm.dropped.length - 1] ?? statement;
  if (!ownLines(source, statement) || !ownLines(source, last)) return undefined;
  const replaced = { start: lineStartOf(source, statement.start!), end: Math.min(lineEndOf(source, last.end!) + 1, source.length) };
  const text = keptLines(source, kept, indentAt(source, statement.start!));
  return text === undefined ? undefined : [{ ...replaced, text }];
}

/** The kept branch's lines at the if's indentation: a block's statements (without its braces), or the statement. */
function keptLines(source: string, kept: Statement, outer: string): string | undefined {
  if (kept.type !== 'BlockStatement') {
    if (!startsLine(source, kept.start!))
      return kept.loc!.start.line === kept.loc!.end.line ? `${outer}${source.slice(kept.start!, kept.end!)}${eolOf(source)}` : undefined;
    return shifted(source, { start: lineStartOf(source, kept.start!), end: Math.min(lineEndOf(source, kept.end!) + 1, source.length) }, kept, outer);
  }
  if (kept.body.length === 0) return '';
  // The braces on lines of their own: `{` ends its line, `}` starts its line.
  if (lineTail(source, kept.start! + 1) !== '' || !startsLine(source, kept.end! - 1)) return undefined;
  return shifted(source, { start: lineEndOf(source, kept.start!) + 1, end: lineStartOf(source, kept.end! - 1) }, kept, outer, kept.body[0]!);
}

function shifted(source: string, span: { start: number; end: number }, within: Node, outer: string, first: Node = within): string {
  const inner = indentAt(source, first.start!);
  return dedented(source, span, inner.startsWith(outer) ? inner.length - outer.length : 0, within);
}

function ownLines(source: string, node: Node): boolean {
  return startsLine(source, node.start!) && lineTail(source, node.end!) === '';
}
