// Rewriting: a pure function from (source, plan) to text. All changes are splices at
// offsets the plan names; everything else is copied through untouched.
import type { Program } from '@babel/types';
import { TODO_MARKER } from '../analyse/sdk-surface.ts';
import type { FilePlan, HandlerPlan, Marker } from '../plan/types.ts';
import type { Edit } from '../core/vocabulary.ts';
import { type CopiedStatements, copiedStatements } from './copied-statements.ts';
import { markerComment } from './edits/marker-comment.ts';
import { renderHandler } from './render-handler.ts';

/** A text that parsed, the splices that made an output from it, and the statements they copied through. */
export interface EditedText {
  base: string;
  edits: readonly Edit[];
  copied?: CopiedStatements;
}

/** The EditedText of `edits` into `base`, whose syntax tree is `program`. */
export function editedText(base: string, program: Program, edits: readonly Edit[]): EditedText {
  return { base, edits, copied: copiedStatements(base, program, edits) };
}

/**
 * The splices that rewrite `source` by its plan (applyEdits makes the text; the output check
 * parses only what they change). `rendered`: each handler's splices, by its plan, kept from an
 * earlier rewrite of the same source by a plan that differs only in its markers' texts.
 */
export function rewriteEdits(source: string, plan: FilePlan, rendered?: Map<HandlerPlan, Edit[]>): Edit[] {
  const edits: Edit[] = [...plan.edits];
  const inBody = (m: Marker) => (alreadyMarked(source, m) ? undefined : markerComment(m));
  for (const handler of plan.handlers) {
    const own = rendered?.get(handler) ?? renderHandler(source, handler, plan.eol, plan.typed, plan.style, inBody);
    rendered?.set(handler, own);
    edits.push(...own);
  }
  for (const marker of plan.markers) edits.push(...markerEdits(source, marker, plan.eol));
  return edits;
}

/** A marker already on the line above (from an earlier run) is not added again. */
export function alreadyMarked(source: string, marker: Pick<Marker, 'lineStart' | 'code'>): boolean {
  return markerAbove(source, marker) !== undefined;
}

/**
 * The edits that write a marker: none when the line above has it already, that line rewritten
 * when an earlier version wrote it in its long form (`... Next: ...`), and the repeats it
 * counts (`also`) deleted where an earlier run marked them one by one.
 */
export function markerEdits(source: string, marker: Marker, eol: string): Edit[] {
  const edits: Edit[] = [];
  for (const lineStart of marker.also ?? []) {
    const above = markerAbove(source, { lineStart, code: marker.code });
    if (above) edits.push({ start: above.start, end: lineStart, text: '' });
  }
  const above = markerAbove(source, marker);
  if (!above) edits.push({ start: marker.lineStart, end: marker.lineStart, text: markerComment(marker) + eol });
  else if (LONG_FORM.test(above.text)) edits.push({ start: above.start, end: marker.lineStart, text: markerComment(marker) + eol });
  return edits;
}

/** What earlier versions wrote: the reason, then ` Next: ` and the step, on one line. */
const LONG_FORM = /^\s*\/\/ @mrtr-todo\([\w-]+\): .* Next: /;

/** The line above `lineStart` when it holds a marker with this code. */
function markerAbove(source: string, marker: Pick<Marker, 'lineStart' | 'code'>): { start: number; text: string } | undefined {
  if (marker.lineStart === 0) return undefined;
  const start = source.lastIndexOf('\n', marker.lineStart - 2) + 1;
  const text = source.slice(start, marker.lineStart);
  return text.includes(`${TODO_MARKER}(${marker.code})`) ? { start, text } : undefined;
}

/**
 * Applies non-overlapping edits; insertions at the same offset keep their given order, and go
 * before a replacement that starts there.
 */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  const ordered = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.start - b.start || Number(a.end > a.start) - Number(b.end > b.start) || a.i - b.i);
  let out = '';
  let cursor = 0;
  for (const edit of ordered) {
    if (edit.start < cursor) throw new Error(`overlapping edits at offset ${edit.start}`);
    out += source.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return out + source.slice(cursor);
}
