// Renders one planned handler body. The first-call branch is the body with each question
// replaced by `return mrtr.ask(...)`; the branch for each answered step restores what
// travelled, reads the answer and runs the continuation: the rest of the block the
// question sat in, wrapped in the try/catch/finally it sat in, then the rest of each
// enclosing block. In straight-line code that is exactly the code between two questions,
// and after the last question the code stays where it was, byte for byte.
import { KINDS, NOTE_MARKER } from '../analyse/sdk-surface.ts';
import { jsString as quote, lineComment } from '../core/escape.ts';
import { indentAt, lineEndOf, lineStartOf, lineTail } from '../plan/text.ts';
import type { Edit, HandlerPlan, ItemPlan, LiftedLocal, ListPlan, Marker, PlannedRequest, SuspensionPoint } from '../plan/types.ts';

interface Rendered {
  lines: string[];
  /** Whether control never falls off the end of these lines. */
  exits: boolean;
}

/** The comment of a marker left inside a migrated body, or undefined when an earlier run already wrote it. */
export type MarkerText = (marker: Marker) => string | undefined;

export function renderHandler(source: string, plan: HandlerPlan, eol: string, typed: boolean, markerText: MarkerText = () => undefined): Edit[] {
  const { points, body, tree } = plan;
  const I = indentAt(source, tree.items[0]!.span.start);
  const outer = indentAt(source, body.start);
  const U = I.startsWith(outer) && I.length > outer.length ? I.slice(outer.length) : '  ';
  const r = new BodyRenderer(source, plan, U, typed, markerText);
  const keys = points.map((p) => quote(p.step)).join(', ');
  // A branch that can complete normally must not run on into the next step's branch. Each
  // branch ends with the body's own last statement, so that can only happen when the
  // original handler could fall off its end too (and `return;` is what it then did).
  const last = tree.items[tree.items.length - 1]!;
  const bodyExits = last.type === 'point' ? points[last.point]!.binding.form === 'return' : last.exits;
  const fallsOff = (rendered: Rendered, indent: string) => (rendered.exits || bodyExits ? [] : [`${indent}return;`]);

  const out: string[] = [source.slice(body.start, lineEndOf(source, body.start)).replace(/\r$/, '')];
  if (plan.prologue) out.push(`${I}${plan.prologue}`);
  out.push(`${I}const mrtr = await mrtrResume(${plan.ctxName}, ${plan.idText ?? quote(plan.id)}, [${keys}], ${plan.argsText});`);
  const first = r.list(tree, 0, I + U, false);
  out.push(`${I}if (mrtr.step === undefined) {`, ...first.lines, ...fallsOff(first, I + U), `${I}}`);
  for (const point of points.slice(0, -1)) {
    const resumed = r.resume(point, I + U, false);
    out.push(`${I}if (mrtr.step === ${quote(point.step)}) {`, ...resumed.lines, ...fallsOff(resumed, I + U), `${I}}`);
  }
  out.push(...r.resume(points[points.length - 1]!, I, true).lines);
  const closeLine = lineStartOf(source, tree.close);
  out.push(source.slice(closeLine, body.end).replace(/\r(?=\n|$)/g, ''));

  const edits: Edit[] = [{ start: body.start, end: body.end, text: out.join(eol) }];
  if (plan.returnTypeEdit) edits.push(plan.returnTypeEdit);
  if (plan.paramEdit) edits.push(plan.paramEdit);
  if (plan.markerEdit) edits.push(plan.markerEdit);
  if (plan.addParam) {
    edits.push({ start: plan.addParam.at, end: plan.addParam.at, text: plan.addParam.text });
    if (plan.addParam.close) edits.push({ start: plan.addParam.close.at, end: plan.addParam.close.at, text: plan.addParam.close.text });
  }
  return edits;
}

class BodyRenderer {
  constructor(
    private readonly source: string,
    private readonly plan: HandlerPlan,
    private readonly U: string,
    private readonly typed: boolean,
    private readonly markerText: MarkerText,
  ) {}

  /** Items of `list` from `from`, at `target` indentation; a question ends the list (its rest is unreachable). */
  list(list: ListPlan, from: number, target: string, withTrailer: boolean, dropFinalBreak = false): Rendered {
    const { source } = this;
    const lines: string[] = [];
    const orig = list.items.length > 0 ? indentAt(source, list.items[0]!.span.start) : target;
    let exits = false;
    for (let i = from; i < list.items.length; i++) {
      const item = list.items[i]!;
      const chunkStart = i === 0 ? lineEndOf(source, list.open) + 1 : lineEndOf(source, list.items[i - 1]!.span.end) + 1;
      lines.push(...this.shift(chunkStart, lineStartOf(source, item.span.start), orig, target)); // leading comments
      if (item.type === 'point') {
        lines.push(...this.ask(this.plan.points[item.point]!, target));
        return { lines, exits: true };
      }
      // Resumed outside its switch, a case's closing `break` has nothing left to leave.
      if (dropFinalBreak && item.type === 'plain' && item.isBreak && i === list.items.length - 1) break;
      if (item.type === 'compound') lines.push(...this.compound(item, target));
      else lines.push(...this.shift(lineStartOf(source, item.span.start), lineEndOf(source, item.span.end) + 1, orig, target));
      exits = item.exits;
    }
    if (withTrailer) {
      const after = list.items.length > 0 ? lineEndOf(source, list.items[list.items.length - 1]!.span.end) + 1 : lineEndOf(source, list.open) + 1;
      lines.push(...this.shift(after, lineStartOf(source, list.close), orig, target));
    }
    return { lines, exits };
  }

  /** A compound statement with a question below: its own text, each child list re-rendered. */
  private compound(item: Extract<ItemPlan, { type: 'compound' }>, target: string): string[] {
    const { source } = this;
    const orig = indentAt(source, item.span.start);
    // A for...of loop with a question counts its iterations, so a retry can start at the right item.
    const counter = item.loop?.kind === 'for-of' ? `mrtrIndex${item.loop.n}` : undefined;
    const lines = counter ? [`${target}let ${counter} = -1;`] : [];
    lines.push(...this.shift(lineStartOf(source, item.span.start), lineEndOf(source, item.children[0]!.list.open - 1) + 1, orig, target));
    item.children.forEach((child, j) => {
      const body = this.childBody(item, child.role, child.list, target);
      if (counter) body.unshift(`${this.childIndent(item, child.list, target)}${counter}++;`);
      lines.push(...body);
      const next = item.children[j + 1];
      lines.push(...this.shift(lineStartOf(source, child.list.close), lineEndOf(source, next ? next.list.open - 1 : item.span.end) + 1, orig, target));
    });
    return lines;
  }

  /** Keeps a child's indentation relative to its statement (switch cases nest two levels). */
  private childIndent(item: Extract<ItemPlan, { type: 'compound' }>, list: ListPlan, target: string): string {
    const orig = indentAt(this.source, item.span.start);
    const own = list.items.length > 0 ? indentAt(this.source, list.items[0]!.span.start) : '';
    return own.startsWith(orig) && own.length > orig.length ? target + own.slice(orig.length) : target + this.U;
  }

  /**
   * A child list in full. A finally block next to a question is guarded: the first call
   * returns the question through it, and its code belongs to the call that completes.
   */
  private childBody(item: Extract<ItemPlan, { type: 'compound' }>, role: string, list: ListPlan, target: string): string[] {
    const inner = this.childIndent(item, list, target);
    if (role === 'finally' && item.kind === 'try') {
      return [`${inner}if (!mrtr.suspended) {`, ...this.list(list, 0, inner + this.U, true).lines, `${inner}}`];
    }
    return this.list(list, 0, inner, true).lines;
  }

  /** The branch for an answered step: restore, read the answer, then the continuation. */
  resume(point: SuspensionPoint, target: string, last: boolean): Rendered {
    const head = [...restoreLines(point.lifted, target, this.typed), ...readLines(point, target, this.source, this.typed)];
    const rest = this.continuation(point, this.plan.tree, 0, target, last);
    return { lines: [...head, ...rest.lines], exits: rest.exits };
  }

  private continuation(point: SuspensionPoint, list: ListPlan, depth: number, target: string, last: boolean): Rendered {
    const { source, U } = this;
    const step = point.path[depth]!;
    const topLevel = depth === 0;
    const lines: string[] = [];
    if (step.child === undefined) {
      if (point.inline) lines.push(...this.resumedInline(point, target));
      const rest = this.list(list, step.item + 1, target, topLevel && last, list.caseList);
      return { lines: [...lines, ...rest.lines], exits: rest.exits || (point.binding.form === 'return' && rest.lines.length === 0) };
    }
    const item = list.items[step.item] as Extract<ItemPlan, { type: 'compound' }>;
    const child = item.children[step.child]!;
    const orig = indentAt(source, item.span.start);
    const nextItem = point.path[depth + 1]!.item;
    const scoped = child.list.items.slice(nextItem + 1).some((i) => i.declares);
    let innerExits = false;
    const wrapped = (indent: string) => {
      const inner = this.continuation(point, child.list, depth + 1, indent, last);
      innerExits = inner.exits;
      return inner.lines;
    };
    if (child.role === 'loop' && item.loop) {
      lines.push(...this.resumedLoop(point, item, child.list, depth, target, last));
      innerExits = false;
    } else if (child.role === 'try' || (child.role === 'catch' && item.children.some((c) => c.role === 'finally'))) {
      // Resume inside the same handlers: `try {` the rest of the block, then the original catch/finally.
      lines.push(`${target}try {`, ...wrapped(target + U));
      for (let j = step.child + 1; j < item.children.length; j++) {
        const c = item.children[j]!;
        lines.push(...this.shift(lineStartOf(source, item.children[j - 1]!.list.close), lineEndOf(source, c.list.open - 1) + 1, orig, target));
        lines.push(...this.childBody(item, c.role, c.list, target));
      }
      lines.push(...this.shift(lineStartOf(source, item.children[item.children.length - 1]!.list.close), lineEndOf(source, item.span.end) + 1, orig, target));
      innerExits = false;
    } else if (scoped) {
      lines.push(`${target}{`, ...wrapped(target + U), `${target}}`);
    } else {
      lines.push(...wrapped(target));
    }
    const rest = this.list(list, step.item + 1, target, topLevel && last, list.caseList);
    return { lines: [...lines, ...rest.lines], exits: rest.lines.length > 0 ? rest.exits : innerExits };
  }

  /**
   * Re-enters a loop mid-iteration: the guard runs the rest of the interrupted iteration
   * first (where `break` and `continue` still mean this loop), then the loop goes on as
   * written, its condition first checked after that iteration.
   */
  private resumedLoop(point: SuspensionPoint, item: Extract<ItemPlan, { type: 'compound' }>, body: ListPlan, depth: number, target: string, last: boolean): string[] {
    const { U } = this;
    const loop = item.loop!;
    const guard = `mrtrResuming${loop.n}`;
    const counter = `mrtrIndex${loop.n}`;
    const header =
      loop.kind === 'while' ? `while (${guard} || (${loop.test})) {`
      : loop.kind === 'for' ? `for (; ${loop.test ? `${guard} || (${loop.test})` : ''}; ${loop.update ?? ''}) {`
      : loop.kind === 'for-of' ? `for (${loop.left} of [...${loop.iterable}].slice(${counter})) {`
      : 'do {';
    const inner = target + U + U;
    return [
      `${target}let ${guard} = true;`,
      `${target}${header}`,
      `${target}${U}if (${guard}) {`,
      `${inner}${guard} = false;`,
      ...this.continuation(point, body, depth + 1, inner, last).lines,
      `${target}${U}} else {`,
      ...(loop.kind === 'for-of' ? [`${inner}${counter}++;`] : []),
      ...this.list(body, 0, inner, true).lines,
      `${target}${U}}`,
      loop.kind === 'do-while' ? `${target}} while (${loop.test});` : `${target}}`,
    ];
  }

  /** The statement that awaited inline, now reading the answer where the await was. */
  private resumedInline(point: SuspensionPoint, target: string): string[] {
    const { source } = this;
    const start = lineStartOf(source, point.statement.start);
    const end = lineEndOf(source, point.statement.end);
    const wrap = point.requests[0]!.resultWrap;
    const answer = wrap ? `${wrap[0]}mrtrAnswer${wrap[1]}` : 'mrtrAnswer';
    const inline = point.inline!;
    const before = source.slice(start, inline.start);
    const lines = (before + answer + source.slice(inline.end, end)).split('\n');
    // Where each line starts in the source: lines after the answer sit past the await it replaced.
    const delta = inline.end - inline.start - answer.length;
    const starts = lineStarts(lines, start).map((at) => (at - start > before.length ? at + delta : at));
    return this.reindent(lines, starts, indentAt(source, point.statement.start), target);
  }

  /** Whole lines of source[from, to) moved from `orig` to `target` indentation. */
  private shift(from: number, to: number, orig: string, target: string): string[] {
    if (to <= from) return [];
    const lines = this.source.slice(from, to).replace(/\n$/, '').split('\n');
    const starts = lineStarts(lines, from);
    const moved = this.reindent(lines, starts, orig, target);
    // A site left as it was in a case of its own keeps its marker above its statement.
    const markers = this.plan.markers ?? [];
    if (markers.length === 0) return moved;
    return moved.flatMap((line, i) => {
      const marker = markers.find((m) => m.lineStart === starts[i]);
      const indent = marker && (marker.indent.startsWith(orig) ? target + marker.indent.slice(orig.length) : marker.indent);
      const text = marker && this.markerText({ ...marker, indent: indent! });
      return text === undefined ? [line] : [text, line];
    });
  }

  /**
   * Lines moved from `orig` to `target` indentation, except a line that starts inside a string
   * or template literal: its text is data. `starts[i]` is where line i starts in the source.
   */
  private reindent(lines: readonly string[], starts: readonly number[], orig: string, target: string): string[] {
    return lines.map((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (this.plan.verbatim.some((s) => s.start < starts[i]! && starts[i]! < s.end)) return line;
      if (line.trim() === '') return '';
      return line.startsWith(orig) ? target + line.slice(orig.length) : line;
    });
  }

  private ask(point: SuspensionPoint, indent: string): string[] {
    const { source, U } = this;
    const lines: string[] = [];
    const guidance = new Set(point.requests.map((r) => KINDS[r.kind].guidance).filter((g) => g !== undefined));
    for (const g of guidance) lines.push(lineComment(indent, `${NOTE_MARKER}: ${g}`));
    if (point.secrets.length > 0) {
      const names = point.secrets.map((n) => `\`${n}\``).join(', ');
      lines.push(lineComment(indent, `${NOTE_MARKER}: ${names} ${point.secrets.length === 1 ? 'travels' : 'travel'} in requestState, which is signed but not encrypted: the client can read it. Keep secrets on the server.`));
    }
    if (point.requestBound.length > 0) {
      const reads = point.requestBound.map((n) => `\`${n}\``).join(', ');
      lines.push(lineComment(indent, `${NOTE_MARKER}: the code after this question reads ${reads}: on the retry that answers it, that is the retry's request (its id, progress token and signal), not the first call's.`));
    }
    const carried = point.lifted.filter((l) => !l.fresh);
    const locals = carried.length === 0 ? '{}' : `{ ${carried.map((l) => l.name).join(', ')} }`;
    lines.push(`${indent}return mrtr.ask(${quote(point.step)}, ${locals}, {`);
    // A request's continuation lines keep their indentation relative to its first line.
    const keyIndent = indent + U;
    for (const request of point.requests) {
      // One array entry per line: the caller joins them with the file's own line ending. The
      // first line is `builder(` and the params' first line; the others are the params' lines,
      // starting in the source after each newline from the params on.
      const [first, ...rest] = request.requestText.split('\n');
      const starts: number[] = [];
      for (let at = request.paramsStart; starts.length < rest.length; ) starts.push((at = source.indexOf('\n', at) + 1));
      const text = [first!.replace(/\r$/, ''), ...this.reindent(rest, starts, indentAt(source, request.paramsStart), keyIndent)];
      text[0] = `${keyIndent}${request.key}: ${text[0]}`;
      text[text.length - 1] = `${text[text.length - 1]},`;
      lines.push(...text);
    }
    lines.push(`${indent}});`);
    return lines;
  }
}

/** Where each of `lines` starts, given that the first starts at `base` (each ends with one `\n`). */
function lineStarts(lines: readonly string[], base: number): number[] {
  const starts: number[] = [];
  let at = base;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  return starts;
}

function restoreLines(lifted: LiftedLocal[], indent: string, typed: boolean): string[] {
  const lines: string[] = [];
  for (const mutable of [false, true]) {
    const group = lifted.filter((l) => l.mutable === mutable && !l.fresh);
    if (group.length === 0) continue;
    const names = group.map((l) => l.name).join(', ');
    const type = typed ? `<{ ${group.map((l) => `${l.name}: ${l.typeText ?? 'unknown'}`).join('; ')} }>` : '';
    lines.push(`${indent}${mutable ? 'let' : 'const'} { ${names} } = mrtr.locals${type}();`);
  }
  for (const l of lifted.filter((l) => l.fresh)) lines.push(`${indent}let ${l.name}${typed && l.typeText ? `: ${l.typeText}` : ''};`);
  return lines;
}

/**
 * Reads a round's answers into the variables the legacy code used, re-asking when any is
 * missing. The answer lands directly in the declared name where there is one; otherwise in
 * a temporary the original binding (pattern, assignment, return, inline use) takes it from.
 */
function readLines(point: SuspensionPoint, indent: string, source: string, typed: boolean): string[] {
  const { binding, requests } = point;
  const single = requests.length === 1;
  const wrapped = requests.some((r) => r.resultWrap);
  const direct =
    binding.form !== 'declare' || wrapped ? undefined
    : single ? (binding.name ? [binding.name] : undefined)
    : binding.elements?.length === requests.length ? binding.elements : undefined;
  const names = direct ?? requests.map((_, i) => (single ? 'mrtrAnswer' : `mrtrAnswer${i + 1}`));
  const declKind = direct && binding.form === 'declare' ? binding.kind : 'const';
  const lines = requests.map((r, i) => `${indent}${declKind} ${names[i]} = mrtr.response${typed ? `<${r.resultType}>` : ''}(${quote(r.key)}, '${r.guard}');`);
  const tail = point.inline ? '' : (lineTail(source, point.statement.end) ?? '');
  const missing = names.map((n) => `${n} === undefined`).join(' || ');
  const wrap = (name: string, i: number) => (requests[i]!.resultWrap ? `${requests[i]!.resultWrap![0]}${name}${requests[i]!.resultWrap![1]}` : name);
  const value = single ? wrap(names[0]!, 0) : `[${names.map(wrap).join(', ')}]`;
  const tuple = typed && !single ? `: [${requests.map((r) => r.resultType).join(', ')}]` : '';
  let finish: string | undefined;
  if (binding.form === 'declare' && !direct) finish = binding.name ? `${binding.kind} ${binding.name}${tuple} = ${value};` : `${binding.kind} ${binding.pattern} = ${value};`;
  if (binding.form === 'assign') finish = `${binding.name} = ${value};`;
  if (binding.form === 'return') finish = `return ${value};`;
  if (binding.form === 'discard' && wrapped && !point.inline) finish = `${value};`;
  if (binding.form === 'discard' && single && !point.inline && !wrapped) {
    const r = requests[0]!;
    return [`${indent}if (mrtr.response${typed ? `<${r.resultType}>` : ''}(${quote(r.key)}, '${r.guard}') === undefined) return mrtr.askAgain();${tail}`];
  }
  lines.push(`${indent}if (${missing}) return mrtr.askAgain();${finish ? '' : tail}`);
  if (finish) lines.push(`${indent}${finish}${tail}`);
  return lines;
}
