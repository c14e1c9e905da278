// Registrations made in an initialize hook move to where the hook is assigned: a 2026-07-28
// connection never runs initialize, so a tool registered there would not exist for it. What
// needs the initialized session stays in the hook (the 2025 era only); a call the codemod
// cannot see into gets a marker saying what to do (see analyse/init-hooks.ts).
import type { Node, Statement } from '@babel/types';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { findInitHooks, type InitHook } from '../analyse/init-hooks.ts';
import { TODO_MARKER } from '../analyse/sdk-surface.ts';
import { type Edit, type Span, eolOf, indentAt, lineEndOf, lineStartOf, lineTail, startsLine } from '../core/vocabulary.ts';
import { markerLine, refuse } from '../plan/refusal.ts';
import type { CapabilityRewrite } from './client-capabilities.ts';
import { dedented } from './edits/dedent.ts';
import { markerComment } from './edits/marker-comment.ts';
import { mergedRemovals, removeStatement } from './edits/removals.ts';
import { applyEdits } from './rewrite.ts';

export function rewriteInitHooks(source: string, fileName: string, analysis?: FileAnalysis, registersOnly?: readonly string[]): CapabilityRewrite {
  if (!/oninitialized|notifications\/initialized|InitializedNotificationSchema/.test(source)) return { output: source };
  const file = analysis ?? analyseFile(source, fileName);
  const edits = findInitHooks(file, registersOnly).flatMap((hook) => hookEdits(source, hook));
  return { output: edits.length === 0 ? source : applyEdits(source, edits), parsed: { program: file.program, edits } };
}

function hookEdits(source: string, hook: InitHook): Edit[] {
  const edits: Edit[] = [];
  for (const { statement, callee } of hook.unknown) {
    const at = lineStartOf(source, statement.start!);
    if (!startsLine(source, statement.start!) || markedAbove(source, at)) continue;
    const refusal = refuse('registered-late', 'callFromHook', { callee });
    edits.push({
      start: at,
      end: at,
      text: markerComment({ indent: indentAt(source, statement.start!), code: 'registered-late', text: markerLine(refusal) }) + eolOf(source),
    });
  }
  const { statement, fn } = hook;
  if (fn.body.type !== 'BlockStatement') {
    // `oninitialized = () => registerAll(server)`: the call itself, where the hook was set.
    if (!hook.emptied) return edits;
    const semicolon = source.slice(statement.start!, statement.end!).trimEnd().endsWith(';') ? ';' : '';
    return [...edits, { start: statement.start!, end: statement.end!, text: source.slice(fn.body.start!, fn.body.end!) + semicolon }];
  }
  // Only statements on lines of their own move (a formatter lays them out so).
  if (hook.moves.length === 0 || !ownLines(source, statement) || !hook.moves.every((s) => ownLines(source, s))) return edits;
  const eol = eolOf(source);
  const outer = indentAt(source, statement.start!);
  const removals: Edit[] = [];
  const chunks = hook.moves.map((s, i) => {
    const removal = hook.emptied ? undefined : removeStatement(source, s);
    const span = removal ?? { start: commentStart(source, s, hook.moves[i - 1] ?? fn.body), end: Math.min(lineEndOf(source, s.end!) + 1, source.length) };
    if (removal) removals.push(removal);
    const blankBefore = i > 0 && /^[ \t]*\r?\n$/.test(source.slice(lineStartOf(source, span.start - 1), span.start));
    return (blankBefore ? eol : '') + dedentedTo(source, s, span, outer).replace(/\s*$/, '') + eol;
  });
  const moved = chunks.join('');
  edits.push(...mergedRemovals(source, removals));
  if (hook.emptied) {
    // The hook did nothing else: its statement is replaced by what it did.
    const start = lineStartOf(source, statement.start!);
    edits.push({ start, end: Math.min(lineEndOf(source, statement.end!) + 1, source.length), text: moved });
  } else {
    const at = removeStatement(source, statement).start;
    edits.push({ start: at, end: at, text: moved + eol });
  }
  return edits;
}

/** Where a moved statement's own comment lines begin (after what comes before it in the hook). */
function commentStart(source: string, s: Statement, previous: Node): number {
  const own = removeStatement(source, s).start;
  const after = Math.min(lineEndOf(source, previous.type === 'BlockStatement' ? previous.start! : previous.end!) + 1, source.length);
  return Math.max(own, after);
}

/** The lines of `span`, indented as the hook's statement is (template literals kept as written). */
function dedentedTo(source: string, s: Statement, span: Span, outer: string): string {
  const inner = indentAt(source, s.start!);
  return dedented(source, span, inner.startsWith(outer) ? inner.length - outer.length : 0, s);
}

function ownLines(source: string, node: Node): boolean {
  return startsLine(source, node.start!) && lineTail(source, node.end!) === '';
}

function markedAbove(source: string, lineStart: number): boolean {
  if (lineStart === 0) return false;
  return source.slice(lineStartOf(source, lineStart - 1), lineStart).includes(`${TODO_MARKER}(registered-late)`);
}
