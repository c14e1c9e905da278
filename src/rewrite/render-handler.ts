// Renders one planned handler body from its layout (src/plan/resume-layout.ts): the body's
// statements stay where they are, each question written once. What ran before a question
// sits in a guard that the retry skips (`if (mrtr.step === undefined) { ... return
// mrtr.ask(...) }`), the answer is read where the await was, and a compound statement on the
// way to a question gets a changed condition (or a counter, or a throw into its catch block)
// so the retry enters it as the first call did. Lines move only into a guard they now sit in;
// everything else keeps its text and indentation.
import { KINDS, NOTE_MARKER } from '../analyse/sdk-surface.ts';
import { markerLine } from '../plan/refusal.ts';
import { secretInState } from '../plan/secrets.ts';
import { jsString, lineComment } from '../core/escape.ts';
import type { CodeStyle } from '../analyse/code-style.ts';
import type { DeclarationFacts } from '../plan/resume-facts.ts';
import { grouped } from '../plan/resume-layout.ts';
import type {
  CompoundLayout,
  DeclaratorInit,
  HandlerLayout,
  HandlerPlan,
  ItemPlan,
  LiftedLocal,
  ListLayout,
  ListPlan,
  Marker,
  SuspensionPoint,
  Unit,
} from '../plan/types.ts';
import { type Edit, indentAt, lineEndOf, lineStartOf, lineTail } from '../core/vocabulary.ts';
import { addedParameter } from './edits/arguments.ts';
import { maybeAskAnswer, maybeAskLines, maybeAskValue, resultCall, withContext } from './maybe-ask-render.ts';
import { markerComment } from './edits/marker-comment.ts';
import { keptNarrowing } from './kept-narrowing.ts';

/** The comment of a marker left inside a migrated body, or undefined when an earlier run already wrote it. */
export type MarkerText = (marker: Marker) => string | undefined;

export function renderHandler(
  source: string,
  plan: HandlerPlan,
  eol: string,
  typed: boolean,
  style: CodeStyle,
  markerText: MarkerText = () => undefined,
): Edit[] {
  const layout = plan.layout;
  if (!layout) throw new Error(`internal error: ${plan.id} was planned without a layout`);
  const { body, tree } = plan;
  const I = indentAt(source, tree.items[0]!.span.start);
  const outer = indentAt(source, body.start);
  const U = I.startsWith(outer) && I.length > outer.length ? I.slice(outer.length) : '  ';
  const r = new BodyRenderer(source, plan, layout, U, typed, style, markerText);
  const keys = plan.points.map((p) => r.q(p.step)).join(', ');

  const out: string[] = [source.slice(body.start, lineEndOf(source, body.start)).replace(/\r$/, '')];
  // What a destructured context parameter still gives the body (it is named `ctx` now).
  if (plan.prologue) out.push(`${I}${plan.prologue}${r.semi}`);
  const server = plan.serverText ? `, ${plan.serverText}` : '';
  out.push(`${I}const mrtr = await mrtrResume(${plan.ctxName}, ${plan.idText ?? r.q(plan.id)}, [${keys}], ${plan.argsText}${server})${r.semi}`);
  // State minted for another call: answered with a state the verifier refuses (-32602).
  out.push(`${I}if (mrtr.refused) return mrtr.refused${r.semi}`);
  if (layout.stepVar !== 'mrtr.step') out.push(`${I}let ${layout.stepVar} = mrtr.step${r.semi}`);
  out.push(...r.list(tree, layout.body, I, I));
  out.push(source.slice(lineStartOf(source, tree.close), body.end).replace(/\r(?=\n|$)/g, ''));
  if (r.unwrittenMarkers()) throw new Error(`internal error: a marker inside ${plan.id} has no line of the rewritten body to go above`);
  if (r.unappliedEdits()) throw new Error(`internal error: an edit inside ${plan.id} has no line of the rewritten body to go in`);

  const written = out.join(eol);
  const edits: Edit[] = [{ start: body.start, end: body.end, text: typed ? keptNarrowing(written, layout.stepVar) : written }];
  if (plan.returnTypeEdit) edits.push(plan.returnTypeEdit);
  if (plan.asyncEdit) edits.push(plan.asyncEdit);
  if (plan.paramEdit) edits.push(plan.paramEdit);
  if (plan.markerEdit) edits.push(plan.markerEdit);
  if (plan.addParam) edits.push(...addedParameter(plan.addParam));
  return edits;
}

/** A piece of source rewritten: its lines, each with the source offset it started at. */
interface Lines {
  lines: string[];
  starts: number[];
}

type Compound = Extract<ItemPlan, { type: 'compound' }>;

class BodyRenderer {
  readonly semi: string;
  /** The markers of sites left as they were in the body (a case migrated without), once each. */
  private readonly markers: Map<number, Marker>;
  /** The source lines (by start) the body leaves out. */
  private readonly dropped: ReadonlySet<number>;
  /** The plan's inner edits written so far. */
  private readonly applied = new Set<Edit>();

  constructor(
    private readonly source: string,
    private readonly plan: HandlerPlan,
    private readonly layout: HandlerLayout,
    private readonly U: string,
    private readonly typed: boolean,
    private readonly style: CodeStyle,
    private readonly markerText: MarkerText,
  ) {
    this.semi = style.semi ? ';' : '';
    this.markers = new Map((plan.markers ?? []).map((m) => [m.lineStart, m]));
    this.dropped = new Set(plan.droppedLines);
  }

  /** Whether a marker of the body found no line to go above. */
  unwrittenMarkers(): boolean {
    return this.markers.size > 0;
  }

  q(text: string): string {
    return jsString(text, this.style.quote);
  }

  /** A list's lines: `orig` is its items' own indentation, `target` where they go. */
  list(list: ListPlan, layout: ListLayout, orig: string, target: string, prelude: string[] = []): string[] {
    const lines = [...prelude];
    for (const part of layout.parts) {
      const at = part.guard ? target + this.U : target;
      if (part.guard) lines.push(`${target}if (${part.guard}) {`);
      for (const unit of part.units) lines.push(...this.unit(list, unit, orig, at));
      if (part.otherwise) {
        lines.push(`${target}} else {`);
        for (const unit of part.otherwise) lines.push(...this.unit(list, unit, orig, at));
      }
      if (part.guard) lines.push(`${target}}`);
    }
    // Comments after the last statement, before the list's end.
    const last = list.items[list.items.length - 1];
    const after = last ? lineEndOf(this.source, last.span.end) + 1 : lineEndOf(this.source, list.open) + 1;
    lines.push(...this.shift(after, lineStartOf(this.source, list.close), orig, target));
    return lines;
  }

  private unit(list: ListPlan, unit: Unit, orig: string, target: string): string[] {
    switch (unit.type) {
      case 'item': {
        const item = list.items[unit.item]!;
        const edits = unit.constant ? [{ start: item.span.start, end: item.span.start + 'let'.length, text: 'const' }] : [];
        return [...this.leading(list, unit.item, orig, target), ...this.itemLines(item, edits, orig, target)];
      }
      case 'init':
        return [
          ...this.leading(list, unit.item, orig, target),
          ...this.itemLines(
            list.items[unit.item]!,
            this.initEdits(this.layout.facts.get(list.items[unit.item]!.span.start)?.declaration, unit.inits),
            orig,
            target,
          ),
        ];
      case 'ask':
        return [...this.leading(list, unit.item, orig, target), ...this.ask(unit.point, target)];
      case 'clear':
        return [`${target}${this.layout.stepVar} = undefined${this.semi}`];
      case 'restore':
        return unit.assign ? this.restoreInto(unit.locals, target) : this.restore(unit.locals, target);
      case 'declare':
        return [
          `${target}let ${unit.locals.map((l) => (this.typed ? `${l.name}: ${l.declaredType ?? l.typeText ?? 'unknown'}` : l.name)).join(', ')}${this.semi}`,
        ];
      case 'assign': {
        const item = list.items[unit.item]!;
        const edits = this.assignEdits(item.span.start, this.layout.facts.get(item.span.start)?.declaration);
        return [...this.leading(list, unit.item, orig, target), ...this.itemLines(item, edits, orig, target)];
      }
      case 'read':
        return this.read(unit.point, target, unit.fromState);
      case 'compound':
        return [...this.leading(list, unit.item, orig, target), ...this.compound(list.items[unit.item] as Compound, unit.layout, orig, target)];
    }
  }

  /** The comments and blank lines between an item and the one before it. */
  private leading(list: ListPlan, k: number, orig: string, target: string): string[] {
    const from = k === 0 ? lineEndOf(this.source, list.open) + 1 : lineEndOf(this.source, list.items[k - 1]!.span.end) + 1;
    return this.shift(from, lineStartOf(this.source, list.items[k]!.span.start), orig, target);
  }

  /** An item's whole lines, with `edits` (offsets into the source) applied. */
  private itemLines(item: ItemPlan, edits: readonly Edit[], orig: string, target: string): string[] {
    const from = lineStartOf(this.source, item.span.start);
    const to = lineEndOf(this.source, item.span.end);
    const { lines, starts } = this.spliced(from, to, [...edits, ...this.innerIn(from, to)]);
    return this.reindent(lines, starts, orig, target);
  }

  /** The plan's edits inside source[from, to). */
  private innerIn(from: number, to: number): Edit[] {
    const inside = (this.plan.innerEdits ?? []).filter((e) => from <= e.start && e.end <= to);
    for (const e of inside) this.applied.add(e);
    return inside;
  }

  /** Whether an edit of the plan found no line of the rewritten body to go in. */
  unappliedEdits(): boolean {
    return (this.plan.innerEdits ?? []).some((e) => !this.applied.has(e));
  }

  private localsType(locals: readonly LiftedLocal[]): string {
    return this.typed ? `<{ ${locals.map((l) => `${l.name}: ${l.typeText ?? 'unknown'}`).join('; ')} }>` : '';
  }

  /** A compound statement on the way to a question: its header changed, its child lists laid out. */
  private compound(item: Compound, layout: CompoundLayout, orig: string, target: string): string[] {
    const { source, U } = this;
    const facts = this.layout.facts.get(item.span.start);
    const inner = layout.wrap ? target + U : target;
    const lines: string[] = [];
    if (layout.counter) lines.push(`${inner}let ${layout.counter.name} = -1${this.semi}`);
    const headerEdits: Edit[] = [];
    if (layout.test !== undefined && facts?.test) headerEdits.push({ ...facts.test, text: layout.test });
    if (layout.discriminant !== undefined && facts?.discriminant) headerEdits.push({ ...facts.discriminant, text: layout.discriminant });
    if (layout.forInit && facts?.forInit) {
      if ('skip' in layout.forInit)
        headerEdits.push({ ...facts.forInit.span, text: `${layout.forInit.skip} || (${source.slice(facts.forInit.span.start, facts.forInit.span.end)})` });
      else headerEdits.push(...this.initEdits(facts.forInit.declaration, layout.forInit));
    }
    const headerEnd = lineEndOf(source, item.children[0]!.list.open - 1);
    const header = this.spliced(lineStartOf(source, item.span.start), headerEnd, headerEdits);
    lines.push(...this.reindent(header.lines, header.starts, orig, inner));
    item.children.forEach((child, j) => {
      const own = child.list.items.length > 0 ? indentAt(source, child.list.items[0]!.span.start) : orig + U;
      const childTarget = own.startsWith(orig) && own.length > orig.length ? inner + own.slice(orig.length) : inner + U;
      const childLayout = layout.children[j];
      const prelude: string[] = [];
      if (child.role === 'loop' && layout.counter) {
        const { name, resuming } = layout.counter;
        prelude.push(`${childTarget}${name}++${this.semi}`);
        prelude.push(
          `${childTarget}if (${grouped(resuming)} && ${name} < mrtr.locals${this.typed ? `<{ ${name}: number }>` : ''}().${name}) continue${this.semi}`,
        );
      }
      if (child.role === 'try' && layout.enterCatch) {
        prelude.push(lineComment(childTarget, 'The retry answers a question of the catch block: enter it as the first call did.'));
        prelude.push(`${childTarget}if (${layout.enterCatch}) throw mrtr${this.semi}`);
      }
      if (childLayout) lines.push(...this.list(child.list, childLayout, own, childTarget, prelude));
      else if (child.role === 'finally' && layout.suspendedFinally) {
        lines.push(
          `${childTarget}if (!mrtr.suspended) {`,
          ...this.shift(lineEndOf(source, child.list.open) + 1, lineStartOf(source, child.list.close), own, childTarget + U),
          `${childTarget}}`,
        );
      } else lines.push(...prelude, ...this.shift(lineEndOf(source, child.list.open) + 1, lineStartOf(source, child.list.close), own, childTarget));
      const next = item.children[j + 1];
      lines.push(...this.shift(lineStartOf(source, child.list.close), lineEndOf(source, next ? next.list.open - 1 : item.span.end) + 1, orig, inner));
    });
    return layout.wrap ? [`${target}if (${layout.wrap}) {`, ...lines, `${target}}`] : lines;
  }

  /** Each declarator that travels reads the state on the retry: `x = resuming ? locals.x : init`. */
  private initEdits(declaration: DeclarationFacts | undefined, inits: readonly DeclaratorInit[]): Edit[] {
    if (!declaration) return [];
    return inits.map((init) => {
      const d = declaration.declarators[init.declarator]!;
      const stored = `mrtr.locals${this.localsType(init.locals)}()${d.pattern ? '' : `.${d.names[0]}`}`;
      // Unassigned until then (`let x: T;`): its written type is kept, where it does not admit `undefined`.
      const written = this.source.slice(d.binding.end, d.idEnd);
      const unassigned = written.includes(':') && !/\b(?:undefined|unknown|any)\b/.test(written) ? 'undefined!' : 'undefined';
      if (!d.init) return { start: d.idEnd, end: d.idEnd, text: ` = ${init.condition} ? ${stored} : ${unassigned}` };
      const text = this.source.slice(d.init.start, d.init.end);
      return { start: d.init.start, end: d.init.end, text: `${init.condition} ? ${stored} : ${d.init.binds === 'low' ? `(${text})` : text}` };
    });
  }

  /** A declaration as the assignment of the names it declared (`x = f()`, `({ a, b } = g())`): its keyword and annotations go. */
  private assignEdits(start: number, declaration: DeclarationFacts | undefined): Edit[] {
    if (!declaration) return [];
    const [first] = declaration.declarators;
    // A pattern alone: in parentheses, so that `{` does not open a block.
    const pattern = declaration.declarators.length === 1 && first!.pattern;
    const edits: Edit[] = [{ start, end: first!.binding.start, text: pattern ? `${this.semi ? '' : ';'}(` : '' }];
    for (const d of declaration.declarators) if (d.binding.end < d.idEnd) edits.push({ start: d.binding.end, end: d.idEnd, text: '' });
    if (pattern) edits.push({ start: first!.init!.end, end: first!.init!.end, text: ')' });
    return edits;
  }

  /** The question: `return mrtr.ask(step, { carried }, { key: inputRequired.*(...) })`, with its notes. */
  private ask(p: number, indent: string): string[] {
    const { source, U } = this;
    const point = this.plan.points[p]!;
    const lines: string[] = [];
    const guidance = new Set(point.requests.map((r) => KINDS[r.kind].guidance).filter((g) => g !== undefined));
    for (const g of guidance) lines.push(lineComment(indent, `${NOTE_MARKER}: ${g}`));
    if (point.secrets.length > 0) {
      lines.push(markerComment({ indent, code: 'secret-in-state', text: markerLine(secretInState(point.secrets)) }));
    }
    if (point.requestBound.length > 0) {
      const reads = point.requestBound.map((n) => `\`${n}\``).join(', ');
      lines.push(
        lineComment(
          indent,
          `${NOTE_MARKER}: the code after this question reads ${reads}: on the retry that answers it, that is the retry's request (its id, progress token and signal), not the first call's.`,
        ),
      );
    }
    const carried = this.layout.carried[p]!;
    const locals = carried.length === 0 ? '{}' : `{ ${carried.map((l) => l.name).join(', ')} }`;
    // A request's continuation lines keep their indentation relative to its first line.
    const requestLines = (request: (typeof point.requests)[number], at: string) => {
      const [first, ...rest] = request.requestText.split('\n');
      const starts: number[] = [];
      for (let from = request.paramsStart; starts.length < rest.length;) starts.push((from = source.indexOf('\n', from) + 1));
      return [first!.replace(/\r$/, ''), ...this.reindent(rest, starts, indentAt(source, request.paramsStart), at)];
    };
    const asked = point.requests[0]!;
    if (asked.maybeAsk) {
      const earlier = this.plan.points.slice(0, p).filter((q) => q.requests[0]!.maybeAsk).length;
      const outcome = `mrtrOutcome${earlier > 0 ? earlier + 1 : ''}`;
      const stepLocal = this.layout.stepVar === 'mrtr.step' ? undefined : this.layout.stepVar;
      const ask = {
        indent,
        requestLines: asked.takesContext ? withContext(requestLines(asked, indent), this.plan.ctxName) : requestLines(asked, indent),
        step: this.q(point.step),
        locals,
        ...(asked.carries ? { carries: true } : {}),
        key: asked.key,
        outcome,
        quote: (t: string) => this.q(t),
        semi: this.semi,
      };
      return [...lines, ...maybeAskLines(stepLocal ? { ...ask, stepLocal } : ask)];
    }
    lines.push(`${indent}return mrtr.ask(${this.q(point.step)}, ${locals}, {`);
    const keyIndent = indent + U;
    for (const request of point.requests) {
      const text = requestLines(request, keyIndent);
      text[0] = `${keyIndent}${request.key}: ${text[0]}`;
      text[text.length - 1] = `${text[text.length - 1]},`;
      lines.push(...text);
    }
    lines.push(`${indent}})${this.semi}`);
    return lines;
  }

  private restore(locals: readonly LiftedLocal[], indent: string): string[] {
    const lines: string[] = [];
    for (const mutable of [false, true]) {
      const group = locals.filter((l) => l.mutable === mutable);
      if (group.length === 0) continue;
      lines.push(`${indent}${mutable ? 'let' : 'const'} { ${group.map((l) => l.name).join(', ')} } = mrtr.locals${this.localsType(group)}()${this.semi}`);
    }
    return lines;
  }

  /** The carried locals assigned to the names declared before the guard (first in the guard's else block). */
  private restoreInto(locals: readonly LiftedLocal[], indent: string): string[] {
    return [`${indent}({ ${locals.map((l) => l.name).join(', ')} } = mrtr.locals${this.localsType(locals)}())${this.semi}`];
  }

  /**
   * Reads a round's answers into the variables the legacy code used, re-asking when any is
   * missing. The answer lands directly in the declared name where there is one; otherwise in
   * a temporary the original binding (pattern, assignment, return, inline use) takes it from.
   * `fromState`: when it holds (a later step is resumed), the answer comes from the state.
   */
  private read(p: number, indent: string, fromState?: string): string[] {
    const { source, typed, semi } = this;
    const point = this.plan.points[p]!;
    const { binding, requests } = point;
    const single = requests.length === 1;
    const wrapped = requests.some((r) => r.resultWrap);
    const direct =
      binding.form !== 'declare' || wrapped
        ? undefined
        : single
          ? binding.name
            ? [binding.name]
            : undefined
          : binding.elements?.length === requests.length
            ? binding.elements
            : undefined;
    const names = direct ?? requests.map((_, i) => (single ? 'mrtrAnswer' : `mrtrAnswer${i + 1}`));
    const declKind = direct && binding.form === 'declare' ? binding.kind : 'const';
    const response = (r: (typeof requests)[number]) =>
      r.maybeAsk ? maybeAskValue(r, (t) => this.q(t), typed) : `mrtr.response${typed ? `<${r.resultType}>` : ''}(${this.q(r.key)}, ${this.q(r.guard)})`;
    const lines = requests.map((r, i) =>
      fromState
        ? `${indent}${declKind} ${names[i]} = ${fromState} ? mrtr.locals${typed ? `<{ ${names[i]}: ${r.resultType} }>` : ''}().${names[i]} : ${response(r)}${semi}`
        : `${indent}${declKind} ${names[i]} = ${response(r)}${semi}`,
    );
    const tail = point.inline ? '' : (lineTail(source, point.statement.end) ?? '');
    const missing = names.map((n) => `${n} === undefined`).join(' || ');
    const wrap = (name: string, i: number) =>
      requests[i]!.maybeAsk ? maybeAskAnswer(name, requests[i]!) : requests[i]!.resultWrap ? resultCall(requests[i]!, name) : name;
    const value = single ? wrap(names[0]!, 0) : `[${names.map(wrap).join(', ')}]`;
    const tuple = typed && !single ? `: [${requests.map((r) => r.resultType).join(', ')}]` : '';
    let finish: string | undefined;
    if (binding.form === 'declare' && !direct)
      finish = binding.name ? `${binding.kind} ${binding.name}${tuple} = ${value}${semi}` : `${binding.kind} ${binding.pattern} = ${value}${semi}`;
    if (binding.form === 'assign') finish = `${binding.name} = ${value}${semi}`;
    if (binding.form === 'return') finish = `return ${value}${semi}`;
    if (binding.form === 'discard' && wrapped && !point.inline) finish = `${value}${semi}`;
    if (binding.form === 'discard' && single && !point.inline && !wrapped) {
      return [`${indent}if (${response(requests[0]!)} === undefined) return mrtr.askAgain()${semi}${tail}`];
    }
    lines.push(`${indent}if (${missing}) return mrtr.askAgain()${semi}${finish ? '' : tail}`);
    if (finish) lines.push(`${indent}${finish}${tail}`);
    if (point.inline) lines.push(...this.inline(point, indent));
    return lines;
  }

  /** The statement that awaited inline, now reading the answer where the await was. */
  private inline(point: SuspensionPoint, target: string): string[] {
    const { source } = this;
    const inline = point.inline!;
    const request = point.requests[0]!;
    const wrap = request.maybeAsk ? undefined : request.resultWrap;
    const answer = request.maybeAsk ? maybeAskAnswer('mrtrAnswer', request) : wrap ? resultCall(request, 'mrtrAnswer') : 'mrtrAnswer';
    // `(await ask())` becomes `mrtrAnswer` (or `mrtrAnswer.value`), without the parentheses it no longer needs (an awaited value keeps them).
    const paren = !wrap && !request.asyncResult && inline.parenthesized === true;
    const at = paren ? { start: inline.start - 1, end: inline.end + 1 } : inline;
    const { lines, starts } = this.spliced(lineStartOf(source, point.statement.start), lineEndOf(source, point.statement.end), [{ ...at, text: answer }]);
    return this.reindent(lines, starts, indentAt(source, point.statement.start), target);
  }

  /** The lines of source[from, to) with `edits` applied, each with the source offset it started at. */
  private spliced(from: number, to: number, edits: readonly Edit[]): Lines {
    const ordered = [...edits].sort((a, b) => a.start - b.start);
    const lines: string[] = [];
    const starts: number[] = [];
    let line = '';
    let lineStart = from;
    let cursor = from;
    const take = (text: string, sourceAt: number | undefined) => {
      for (let i = 0; i < text.length; i++) {
        if (text[i] === '\n') {
          lines.push(line);
          starts.push(lineStart);
          line = '';
          lineStart = sourceAt === undefined ? lineStart : sourceAt + i + 1;
        } else line += text[i];
      }
    };
    for (const edit of ordered) {
      take(this.source.slice(cursor, edit.start), cursor);
      take(edit.text, undefined);
      cursor = edit.end;
    }
    take(this.source.slice(cursor, to), cursor);
    lines.push(line);
    starts.push(lineStart);
    return { lines: lines.map((l) => l.replace(/\r$/, '')), starts };
  }

  /** Whole lines of source[from, to) moved from `orig` to `target` indentation. */
  private shift(from: number, to: number, orig: string, target: string): string[] {
    if (to <= from) return [];
    const inner = this.innerIn(from, to);
    if (inner.length > 0) {
      const { lines, starts } = this.spliced(from, this.source[to - 1] === '\n' ? to - 1 : to, inner);
      return this.reindent(lines, starts, orig, target);
    }
    const lines = this.source.slice(from, to).replace(/\n$/, '').split('\n');
    const starts: number[] = [];
    let at = from;
    for (const line of lines) {
      starts.push(at);
      at += line.length + 1;
    }
    return this.reindent(lines, starts, orig, target);
  }

  /**
   * Lines moved from `orig` to `target` indentation, except a line that starts inside a string
   * or template literal: its text is data. `starts[i]` is where line i starts in the source.
   */
  private reindent(lines: readonly string[], starts: readonly number[], orig: string, target: string): string[] {
    return lines.flatMap((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (this.plan.verbatim.some((s) => s.start < starts[i]! && starts[i]! < s.end)) return [line];
      if (this.dropped.has(starts[i]!)) return [];
      if (line.trim() === '') return [''];
      const moved = line.startsWith(orig) ? target + line.slice(orig.length) : line;
      const marker = this.marker(starts[i]!, orig, target);
      return marker === undefined ? [moved] : [marker, moved];
    });
  }

  /** The marker above the source line starting at `lineStart`, moved as its line is (written once). */
  private marker(lineStart: number, orig: string, target: string): string | undefined {
    const marker = this.markers.get(lineStart);
    if (!marker) return undefined;
    this.markers.delete(lineStart);
    const indent = marker.indent.startsWith(orig) ? target + marker.indent.slice(orig.length) : marker.indent;
    return this.markerText({ ...marker, indent });
  }
}
