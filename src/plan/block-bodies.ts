// A handler whose body is one expression (`(input) => runTarget(input, context)`) cannot be
// suspended as it stands: the rewrite lays a body out statement by statement, line by line. Such
// a handler, refused for it alone, is planned again on the text with its body written as a block
// (`{ return runTarget(input, context); }`), and that plan is kept only when it migrates the
// handler: a handler still refused keeps the user's expression. The kept plan names lines and
// places of the file as it is (its sites, the lines other modules are told); the rewrite works
// on the text with the blocks.
import type { ArrowFunctionExpression, Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { isStatementLike, walk } from '../analyse/ast.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { lineRef } from '../core/line-refs.ts';
import { indentAt, lineNumberAt, lineStartOf } from '../core/vocabulary.ts';
import type { FilePlan, RerunCall, SiteReport } from './types.ts';

/** An expression body written as a block: `[start, end)` of the file became `text`, whose `[exprAt, exprAt + exprLength)` is the file's `[exprStart, …)`. */
interface Block {
  start: number;
  end: number;
  text: string;
  exprAt: number;
  exprStart: number;
  exprLength: number;
}

/** The file's text with some handlers' bodies written as blocks, and the way back to the file's places. */
export interface BlockBodies {
  text: string;
  blocks: Block[];
  /** Where each block's `{` is in `text` (a migrated handler's body starts there). */
  bodyStarts: number[];
}

/**
 * The arrow functions with an expression body whose handler a site of the plan was refused for:
 * of those around the site, the outermost that does not return a function (a factory's arrow,
 * `(context) => (input) => ...`, is not the handler; a callback inside the handler's expression
 * is not either).
 */
export function expressionBodies(analysis: FileAnalysis, plan: FilePlan): ArrowFunctionExpression[] {
  const refused = plan.sites.filter((s) => s.status === 'marked' && s.code === 'expression-body');
  if (refused.length === 0) return [];
  const offsets = refused.map((s) => offsetAt(analysis.source, s.line, s.column));
  const found = new Set<ArrowFunctionExpression>();
  walk(analysis.program, (node, parents) => {
    if (node.type !== 'ArrowFunctionExpression' || node.body.type === 'BlockStatement' || node.body.type === 'ArrowFunctionExpression') return;
    const { start, end } = node.body;
    if (!offsets.some((at) => start! <= at && at < end!)) return;
    // An outer arrow found first holds this one.
    if (!parents.some((p) => found.has(p as ArrowFunctionExpression))) found.add(node);
  });
  return [...found].filter((arrow) => blockOf(analysis.source, arrow, plan) !== undefined);
}

/** The text with each arrow's body written as a block. */
export function withBlockBodies(source: string, arrows: readonly ArrowFunctionExpression[], plan: FilePlan): BlockBodies {
  const blocks = arrows.map((arrow) => blockOf(source, arrow, plan)!).sort((a, b) => a.start - b.start);
  let text = '';
  let at = 0;
  const bodyStarts: number[] = [];
  for (const block of blocks) {
    text += source.slice(at, block.start);
    bodyStarts.push(text.length + block.text.indexOf('{'));
    text += block.text;
    at = block.end;
  }
  return { text: text + source.slice(at), blocks, bodyStarts: arrows.map((arrow) => bodyStarts[blocks.findIndex((b) => b.exprStart === arrow.body.start)]!) };
}

/**
 * The block an arrow's body becomes: from after its `=>` to the end of the expression (with
 * the parentheses around it). Undefined where a comment sits between them, which the block
 * would move.
 */
function blockOf(source: string, arrow: ArrowFunctionExpression, plan: FilePlan): Block | undefined {
  const body = arrow.body;
  const { start, end } = exprSpan(arrow);
  const arrowEnd = source.lastIndexOf('=>', start) + 2;
  const between = source.slice(arrowEnd, body.start!);
  // `=> (x)`: the parentheses go (a return takes any expression); what is between them and it is space.
  const spaced = start === body.start! ? /^\s*$/.test(between) : /^\s*\(\s*$/.test(between) && /^\s*\)$/.test(source.slice(body.end!, end));
  if (arrowEnd < arrow.start! + 2 || !spaced) return undefined;
  const indent = indentAt(source, arrowEnd);
  const unit = indent.startsWith('\t') ? '\t' : '  ';
  const semi = plan.style.semi ? ';' : '';
  const prefix = ` {${plan.eol}${indent}${unit}return `;
  const text = `${prefix}${source.slice(body.start!, body.end!)}${semi}${plan.eol}${indent}}`;
  return { start: arrowEnd, end, text, exprAt: prefix.length, exprStart: body.start!, exprLength: body.end! - body.start! };
}

/** An arrow's expression body with the parentheses around it (the arrow ends where they close). */
function exprSpan(arrow: ArrowFunctionExpression): { start: number; end: number } {
  const body = arrow.body;
  const extra = body.extra as { parenthesized?: boolean; parenStart?: number } | undefined;
  return extra?.parenthesized ? { start: extra.parenStart!, end: arrow.end! } : { start: body.start!, end: body.end! };
}

/** The file's offset of an offset of the text with blocks (one in a block's own words goes to the expression's nearer end). */
export function toFileOffset(bodies: BlockBodies, offset: number): number {
  let shift = 0;
  for (const block of bodies.blocks) {
    const at = block.start + shift;
    if (offset < at) break;
    if (offset < at + block.text.length) {
      const inExpr = offset - at - block.exprAt;
      return block.exprStart + Math.min(Math.max(inExpr, 0), block.exprLength);
    }
    shift += block.text.length - (block.end - block.start);
  }
  return offset - shift;
}

/** Type facts about the text with blocks, from those about the file. */
export function blockFacts(facts: TypeFacts, bodies: BlockBodies): TypeFacts {
  const at = (offset: number) => toFileOffset(bodies, offset);
  return {
    local: (name, start) => facts.local(name, at(start)),
    ...(facts.fromSdk ? { fromSdk: (start: number, end: number) => facts.fromSdk!(at(start), at(end)) } : {}),
    ...(facts.readsOnly ? { readsOnly: (start: number, end: number, method: string) => facts.readsOnly!(at(start), at(end), method) } : {}),
    ...(facts.thenable ? { thenable: (start: number, end: number) => facts.thenable!(at(start), at(end)) } : {}),
  };
}

/** Those of `arrows` (the arrows `bodies` was made of) whose handler the plan of the text with blocks migrates. */
export function migratedOf<T>(arrows: readonly T[], plan: FilePlan, bodies: BlockBodies): T[] {
  return arrows.filter((_, i) => plan.handlers.some((h) => h.body.start === bodies.bodyStarts[i]));
}

/** The plan of the text with blocks, with the lines and places it reports made the file's. */
export function planOfFile(plan: FilePlan, source: string, bodies: BlockBodies): FilePlan {
  const starts = lineStarts(bodies.text);
  const fileLine = (line: number) => lineNumberAt(source, toFileOffset(bodies, starts[line - 1] ?? bodies.text.length));
  const refs = (text: string) => (text.includes('\uE000') ? text.replace(/\uE000(\d+)\uE001/g, (_, line: string) => lineRef(fileLine(Number(line)))) : text);
  const rerun = (calls: RerunCall[]) => calls.map((c) => (c.file === undefined ? { ...c, line: fileLine(c.line) } : c));
  const site = (s: SiteReport): SiteReport => {
    const offset = toFileOffset(bodies, (starts[s.line - 1] ?? 0) + s.column - 1);
    return {
      ...s,
      line: lineNumberAt(source, offset),
      column: offset - lineStartOf(source, offset) + 1,
      ...(s.rerun ? { rerun: rerun(s.rerun) } : {}),
      ...(s.marker === undefined ? {} : { marker: refs(s.marker) }),
      ...(s.reason === undefined ? {} : { reason: refs(s.reason) }),
      ...(s.next === undefined ? {} : { next: refs(s.next) }),
    };
  };
  return {
    ...plan,
    sites: plan.sites.map(site),
    markers: plan.markers.map((m) => ({ ...m, text: refs(m.text) })),
    handlers: plan.handlers.map((h) => ({
      ...h,
      ...(h.markers ? { markers: h.markers.map((m) => ({ ...m, text: refs(m.text) })) } : {}),
      ...(h.rerun ? { rerun: rerun(h.rerun) } : {}),
    })),
    exportedHelpers: plan.exportedHelpers.map((h) => ({ ...h, line: fileLine(h.line) })),
    externalCalls: plan.externalCalls.map((c) => ({
      ...c,
      ...(c.line === undefined ? {} : { line: fileLine(c.line) }),
      ...(c.unreached ? { unreached: { ...c.unreached, line: fileLine(c.unreached.line), ...(c.unreached.why ? { why: refs(c.unreached.why) } : {}) } } : {}),
    })),
    ...(plan.rerunAtHelpers ? { rerunAtHelpers: plan.rerunAtHelpers.map((r) => ({ ...r, calls: rerun(r.calls) })) } : {}),
  };
}

function offsetAt(source: string, line: number, column: number): number {
  let start = 0;
  for (let l = 1; l < line; l++) start = source.indexOf('\n', start) + 1;
  return start + column - 1;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The plan with what the plan of the text with blocks (`blocked`, its lines the file's) says of
 * the handlers it still refuses: their expression was not what kept them, so the marker says
 * what does, or goes where that plan reports nothing there (the request itself stays marked).
 */
export function withBlockReasons(analysis: FileAnalysis, plan: FilePlan, blocked: FilePlan, bodies?: BlockBodies): FilePlan {
  const told = new Map<SiteReport, SiteReport | undefined>();
  for (const site of plan.sites) {
    if (site.status !== 'marked' || site.code !== 'expression-body') continue;
    const then = blocked.sites.find((b) => b.line === site.line && b.column === site.column);
    if (then?.code !== 'expression-body') told.set(site, then?.status === 'marked' && then.marker !== undefined ? then : undefined);
  }
  if (told.size === 0) return plan;
  // Each marker is above the statement of the site it was written for.
  const byLine = new Map<number, SiteReport | undefined>();
  for (const [site, then] of told) {
    const at = statementLineStart(analysis, offsetAt(analysis.source, site.line, site.column));
    if (!byLine.has(at)) byLine.set(at, then);
  }
  const sites = plan.sites.flatMap((site) => {
    if (!told.has(site)) return [site];
    const then = told.get(site);
    return then ? [{ ...site, code: then.code, reason: then.reason, next: then.next, marker: then.marker }] : [];
  });
  const markers = plan.markers.flatMap((m) => {
    // A plan of the text with other blocks places its markers in that text.
    const at = bodies ? lineStartOf(analysis.source, toFileOffset(bodies, m.lineStart)) : m.lineStart;
    if (m.code !== 'expression-body' || !byLine.has(at)) return [m];
    const then = byLine.get(at);
    return then ? [{ ...m, code: then.code!, text: then.marker! }] : [];
  });
  return { ...plan, sites, markers };
}

/** The start of the line of the innermost statement holding `offset`. */
function statementLineStart(analysis: FileAnalysis, offset: number): number {
  let found: Node | undefined;
  walk(analysis.program, (node) => {
    if (node.start! > offset || node.end! <= offset) return false;
    if (isStatementLike(node)) found = node;
    return undefined;
  });
  return lineStartOf(analysis.source, found?.start ?? offset);
}
