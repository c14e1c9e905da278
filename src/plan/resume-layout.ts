// How a migrated handler is written: in place, each question once. The body keeps its
// statements where they are; the retry that answers a question runs the same code, skipping
// what ran before the question:
//
// - Statements before a question run only when the call is not resuming at it (or at a later
//   one): they go in a guard, `if (mrtr.step === undefined) { ... return mrtr.ask(...) }`.
//   Those that only derive values (rederive.ts) stay where they are and run on every entry.
// - A compound statement holding a question is entered on the retry as the first call entered
//   it: the branch's condition, a loop's condition and initialiser, a switch's value take the
//   resumed step into account; a for...of loop skips the items already done; a try enters its
//   catch block by throwing when the question is there.
// - A local declared before a question and used after it is declared where it was, its value
//   taken from the state on the retry (`const count = mrtr.step === 'answer' ? ... : f()`), or
//   restored after the question when its declaration sits in the guard.
//
// `R`, the values the step can have when control reaches a place (undefined: the first call),
// decides which guards are needed and how each is written. In a handler with a question in a
// loop the step is a local (`mrtrStep`) cleared once its answer is read, so the loop's next
// iteration asks again.
import { refuse, Refusal } from './refusal.ts';
import type { Binding, DeclarationFacts, StatementFacts } from './resume-facts.ts';
import type {
  CompoundLayout,
  DeclaratorInit,
  HandlerLayout,
  HandlerPlan,
  ItemPlan,
  LiftedLocal,
  ListLayout,
  ListPlan,
  Part,
  SuspensionPoint,
  Unit,
} from './types.ts';

/** The layout without the statements starting at `starts` (declarations the migration leaves unused). */
export function dropStatements(layout: HandlerLayout, tree: ListPlan, starts: ReadonlySet<number>): HandlerLayout {
  const inList = (list: ListPlan, l: ListLayout): ListLayout => ({
    parts: l.parts
      .map((part) => ({
        ...part,
        units: part.units
          .filter((u) => u.type !== 'item' || !starts.has(list.items[u.item]!.span.start))
          .map((u) => {
            if (u.type !== 'compound') return u;
            const item = list.items[u.item] as Extract<ItemPlan, { type: 'compound' }>;
            return { ...u, layout: { ...u.layout, children: u.layout.children.map((c, j) => (c ? inList(item.children[j]!.list, c) : c)) } };
          }),
      }))
      .filter((part) => part.units.length > 0),
  });
  return { ...layout, body: inList(tree, layout.body) };
}

/** The first call: no step. */
const FRESH = '';

interface Context {
  plan: HandlerPlan;
  source: string;
  facts: ReadonlyMap<number, StatementFacts>;
  quote: (text: string) => string;
  v: string;
  loops: boolean;
  /** TypeScript: a local keeps the narrowing its checks made only in their block. */
  typed: boolean;
  /** Points under each compound item (by its start). */
  under: Map<number, number[]>;
  carried: LiftedLocal[][];
}

export function layoutHandler(
  source: string,
  plan: HandlerPlan,
  facts: ReadonlyMap<number, StatementFacts>,
  quote: (text: string) => string,
  typed: boolean,
): HandlerLayout | Refusal {
  const under = new Map<number, number[]>();
  const loopVars: Array<Set<string>> = plan.points.map(() => new Set());
  let loops = false;
  let assigned = false;
  plan.points.forEach((point, p) => {
    let list: ListPlan = plan.tree;
    for (const step of point.path) {
      const item = list.items[step.item]!;
      if (item.type !== 'compound' || step.child === undefined) break;
      under.set(item.span.start, [...(under.get(item.span.start) ?? []), p]);
      if (item.kind === 'loop') {
        loops = true;
        const forOf = facts.get(item.span.start)?.forOf;
        if (forOf?.assigned && forOf.kind !== 'const') assigned = true;
        for (const name of forOf?.names ?? []) loopVars[p]!.add(name);
      }
      list = item.children[step.child]!.list;
    }
  });
  if (assigned) {
    return refuse('loop', 'loopVariableAssigned');
  }
  if (loops && plan.tree.items.some((item) => facts.get(item.span.start)?.reads.has('mrtrStep'))) {
    return refuse('name-clash', 'usedInHandler', { name: 'mrtrStep' });
  }
  const carried = plan.points.map((point, p) => point.lifted.filter((l) => !loopVars[p]!.has(l.name)));
  const ctx: Context = { plan, source, facts, quote, v: loops ? 'mrtrStep' : 'mrtr.step', loops, typed, under, carried };
  const all = new Set([FRESH, ...plan.points.map((p) => p.step)]);
  const body = layoutList(ctx, plan.tree, all, new Set());
  if (body instanceof Refusal) return body;
  return { stepVar: ctx.v, facts, carried, body: body.layout };
}

/** A unit before layout: what it is, the steps that must skip it, what it declares and reads. */
interface Pending {
  unit: Unit;
  skip: Set<string>;
  declares: string[];
  reads: ReadonlySet<string>;
  /** The point whose ask this is. */
  asks?: number;
  declaration?: DeclarationFacts;
}

/** A list being laid out: the parts written so far, the names in scope, the values the step has. */
interface ListPass {
  list: ListPlan;
  pending: Pending[];
  parts: Part[];
  visible: Set<string>;
  R: Set<string>;
}

type CompoundItem = Extract<ItemPlan, { type: 'compound' }>;

const NONE: ReadonlySet<string> = new Set();

/** The layout of one list entered with the step values `entry`, and the values that leave it. */
function layoutList(
  ctx: Context,
  list: ListPlan,
  entry: ReadonlySet<string>,
  visibleIn: ReadonlySet<string>,
): { layout: ListLayout; exit: Set<string> } | Refusal {
  const pending = pendingUnits(ctx, list);
  const pass: ListPass = { list, pending, parts: [], visible: new Set(visibleIn), R: new Set(entry) };
  for (let i = 0; i < pending.length;) {
    const u = pending[i]!;
    if (u.unit.type === 'compound') {
      const laid = layoutCompound(ctx, list.items[u.unit.item] as CompoundItem, pass.R, u.skip, pass.visible);
      if (laid instanceof Refusal) return laid;
      pass.parts.push({ units: [{ ...u.unit, layout: laid.layout }] });
      pass.R = laid.exit;
      i++;
      continue;
    }
    const j = groupEnd(pending, i);
    const laid = layoutGroup(ctx, pass, i, j);
    if (laid instanceof Refusal) {
      // Where a declaration the group makes cannot reach the question after it, the question joins the guard.
      const joined = joinedToQuestion(ctx, pass, i, j);
      if (joined === false) return laid;
      if (joined instanceof Refusal) return joined;
      i = j + 1;
      continue;
    }
    i = j;
  }
  return { layout: { parts: pass.parts }, exit: pass.R };
}

/** A list's units in order, each with the steps that skip it: those of the questions after it. */
function pendingUnits(ctx: Context, list: ListPlan): Pending[] {
  const { plan } = ctx;
  const stepsOf = (item: ItemPlan): string[] =>
    item.type === 'point'
      ? [plan.points[item.point]!.step]
      : item.type === 'compound'
        ? (ctx.under.get(item.span.start) ?? []).map((p) => plan.points[p]!.step)
        : [];
  const later = (k: number) => new Set(list.items.slice(k + 1).flatMap(stepsOf));
  // What only derives values runs on every entry: no step skips it.
  const rederived = new Set(plan.rederived);
  const pending: Pending[] = [];
  list.items.forEach((item, k) => {
    const facts = ctx.facts.get(item.span.start);
    const reads = facts?.reads ?? NONE;
    if (item.type === 'plain') {
      const declares = facts?.declaration ? facts.declaration.declarators.flatMap((d) => d.names) : [];
      const skip = rederived.has(item.span.start) ? new Set<string>() : later(k);
      pending.push({ unit: { type: 'item', item: k }, skip, declares, reads, ...(facts?.declaration ? { declaration: facts.declaration } : {}) });
    } else if (item.type === 'point') {
      pending.push(...pointUnits(ctx, item.point, k, later(k), facts));
    } else {
      pending.push({ unit: { type: 'compound', item: k, layout: { children: [], suspendedFinally: false } }, skip: later(k), declares: [], reads });
    }
  });
  return pending;
}

/** A question's units: the ask (skipped by its own step too), then what the retry runs: restore and read. */
function pointUnits(ctx: Context, p: number, k: number, later: Set<string>, facts: StatementFacts | undefined): Pending[] {
  const point = ctx.plan.points[p]!;
  const units: Pending[] = [{ unit: { type: 'ask', item: k, point: p }, skip: new Set([point.step, ...later]), declares: [], reads: NONE, asks: p }];
  if (ctx.loops) units.push({ unit: { type: 'clear', point: p }, skip: later, declares: [], reads: NONE });
  units.push({ unit: { type: 'restore', point: p, locals: [] }, skip: later, declares: [], reads: NONE });
  units.push({ unit: { type: 'read', point: p }, skip: later, declares: bindingNames(point, facts), reads: point.inline ? (facts?.reads ?? NONE) : NONE });
  return units;
}

/** The end of the group starting at `i`: the units after it that the same resumed steps skip. */
function groupEnd(pending: readonly Pending[], i: number): number {
  let j = i + 1;
  while (j < pending.length && pending[j]!.unit.type !== 'compound' && sameSet(pending[j]!.skip, pending[i]!.skip)) j++;
  return j;
}

/**
 * Lays out the group pending[i, j) in one guard the steps that skip it pass by; a declaration
 * in it that is used past the guard is declared outside it instead (see pulledOut).
 */
function layoutGroup(ctx: Context, into: ListPass, i: number, j: number): void | Refusal {
  const pass: ListPass = { ...into, parts: [], visible: new Set(into.visible) };
  const { pending } = pass;
  const S = intersect(pending[i]!.skip, pass.R);
  const guard = S.size > 0 ? condition(ctx, pass.R, S) : undefined;
  const readsAfter = new Set(pending.slice(j).flatMap((p) => [...p.reads]));
  const lastAsk = pending[j - 1]!.asks;
  const restoredAfter = new Set(lastAsk === undefined ? [] : ctx.carried[lastAsk]!.map((l) => l.name));
  let inside: Unit[] = [];
  const declaredInside = new Set<string>();
  const flush = () => {
    if (inside.length > 0) pass.parts.push(guard ? { guard, units: inside } : { units: inside });
    inside = [];
    declaredInside.clear();
  };
  for (const [at, g] of pending.slice(i, j).entries()) {
    // What the retry runs after a question no step resumes here is not written (see joinedToQuestion).
    if (pass.R.size === 0 && (g.unit.type === 'restore' || g.unit.type === 'read' || g.unit.type === 'clear')) continue;
    let unit = g.unit;
    let declares = g.declares;
    if (unit.type === 'restore') {
      unit = restoreUnit(ctx, unit.point, pass.visible);
      declares = (unit as Extract<Unit, { type: 'restore' }>).locals.map((l) => l.name);
    }
    const escaping = guard ? declares.filter((n) => readsAfter.has(n) && !restoredAfter.has(n)) : [];
    if (!guard || escaping.length === 0) {
      if (guard && unit.type === 'item' && constantInGuard(ctx, pass, g, pending.slice(i + at + 1, j), restoredAfter)) unit = { ...unit, constant: true };
      inside.push(unit);
      for (const name of declares) declaredInside.add(name);
      if (!guard) for (const name of declares) pass.visible.add(name);
      pass.R = after(ctx, g, pass.R);
      continue;
    }
    // Declared in the guard and used past it: declared outside it instead, where a check later in the guard no longer narrows it.
    const narrowed = ctx.typed ? escaping.find((n) => pending.slice(i + at + 1, j).some((r) => narrows(ctx, pass.list, r, n))) : undefined;
    if (narrowed) return refuse('nested-site', 'narrowingLost', { name: narrowed });
    const out = pulledOut(ctx, { ...g, unit }, escaping, S);
    if (out instanceof Refusal) return out;
    // A declaration that runs nothing and reads nothing the guard declared (`let reason: string;`)
    // goes before the guard, which stays one block: the names it declares stay in scope for its ask.
    const hoistable = out.type === 'item' && ![...g.reads].some((n) => declaredInside.has(n));
    if (!hoistable) flush();
    pass.parts.push({ units: [out] });
    for (const name of declares) pass.visible.add(name);
    pass.R = after(ctx, g, pass.R);
  }
  flush();
  into.parts.push(...pass.parts);
  into.visible = pass.visible;
  into.R = pass.R;
}

/** A `let` reassigned only after the guard is a `const` inside it (its restored copy is the `let`). */
function constantInGuard(ctx: Context, pass: ListPass, g: Pending, rest: readonly Pending[], restoredAfter: ReadonlySet<string>): boolean {
  if (g.declaration?.kind !== 'let' || !g.declares.every((n) => restoredAfter.has(n))) return false;
  return !rest.some((r) => {
    const assigns = r.unit.type === 'item' ? ctx.facts.get(pass.list.items[r.unit.item]!.span.start)?.assigns : undefined;
    return g.declares.some((n) => assigns?.has(n));
  });
}

/** Whether a unit is a check that rules null and undefined out for `name` (`if (!name) return ...`). */
function narrows(ctx: Context, list: ListPlan, u: Pending, name: string): boolean {
  return u.unit.type === 'item' && ctx.facts.get(list.items[u.unit.item]!.span.start)?.rulesOut?.includes(name) === true;
}

/**
 * The group pending[i, j) and the `if` after it, whose branch ends with the question, as one
 * guard, where a declaration of the group cannot be declared outside the guard for the
 * question to read (it is not carried, or a check in the guard narrowed it):
 *
 *   let elicitationId: string;
 *   if (mrtr.step === undefined) {
 *     const found = invoices.get(id);
 *     if (!found) return missing();
 *     elicitationId = newElicitationId();
 *     if (!isSettled(elicitationId)) {
 *       return mrtr.ask('url', { elicitationId }, { url: inputRequired.elicitUrl({ message: `Pay ${found.amount}`, ... }) });
 *     }
 *   } else {
 *     ({ elicitationId } = mrtr.locals<{ elicitationId: string }>());
 *     if (mrtr.response<ElicitResult>('url', 'elicit') === undefined) return mrtr.askAgain();
 *   }
 *
 * The first call runs the group and the `if` as written; the retry restores what the question
 * carries and reads the answer in the else block. A declaration the code after the `if` reads
 * is declared before the guard with its declared type and assigned in it (both branches assign
 * it, each with its narrowed type). False where the shape is not that one.
 */
function joinedToQuestion(ctx: Context, pass: ListPass, i: number, j: number): boolean | Refusal {
  const group = pass.pending.slice(i, j);
  const at = questionEndingIf(ctx, pass, j);
  if (!at || group.some((g) => g.unit.type !== 'item')) return false;
  const S = new Set([ctx.plan.points[at.p]!.step]);
  if (!sameSet(intersect(group[0]!.skip, pass.R), S)) return false;
  const readsAfter = new Set([...pass.pending.slice(j + 1).flatMap((p) => [...p.reads]), ...at.readsOfRead]);
  const split = splitAroundGuard(ctx, group, at.p, readsAfter);
  if (split instanceof Refusal) return split;
  const restored = ctx.carried[at.p]!.filter((l) => !pass.visible.has(l.name));
  const missing = restored.find((l) => !split.before.some((u) => u.type === 'declare' && u.locals.includes(l)));
  if (missing) return refuse('nested-site', 'declarationNotCarried', { name: missing.name });
  const inScope = new Set([...pass.visible, ...group.flatMap((g) => g.declares)]);
  const laid = layoutCompound(ctx, at.item, difference(pass.R, S), pass.pending[j]!.skip, inScope);
  if (laid instanceof Refusal) return laid;
  const compound: Unit = { type: 'compound', item: pass.list.items.indexOf(at.item), layout: laid.layout };
  const restore: Unit[] = restored.length > 0 ? [{ type: 'restore', point: at.p, locals: restored, assign: true }] : [];
  if (split.before.length > 0) pass.parts.push({ units: split.before });
  pass.parts.push({ guard: condition(ctx, pass.R, S), units: [...split.inside, compound], otherwise: [...restore, { type: 'read', point: at.p }] });
  for (const name of split.declaredBefore) pass.visible.add(name);
  return true;
}

/** The `if` at pending[j] when its only question ends one of its branches (no loop in the handler), and what reading its answer reads. */
function questionEndingIf(ctx: Context, pass: ListPass, j: number): { item: CompoundItem; p: number; readsOfRead: ReadonlySet<string> } | undefined {
  const unit = pass.pending[j]?.unit;
  if (ctx.loops || unit?.type !== 'compound') return undefined;
  const item = pass.list.items[unit.item] as CompoundItem;
  const points = ctx.under.get(item.span.start) ?? [];
  // A question a helper may answer without asking goes on past the `if` on the first call: its answer cannot be read in an else block.
  if (item.kind !== 'if' || points.length !== 1 || ctx.plan.points[points[0]!]!.requests[0]!.maybeAsk) return undefined;
  const last = item.children.map((child) => child.list.items.at(-1)).find((l) => l?.type === 'point' && l.point === points[0]);
  if (!last) return undefined;
  // A question awaited inside a statement is read by writing that statement again.
  const readsOfRead = ctx.plan.points[points[0]!]!.inline ? (ctx.facts.get(last.span.start)?.reads ?? NONE) : NONE;
  return { item, p: points[0]!, readsOfRead };
}

/**
 * The group's units inside the guard, and before it: a declaration the code after the guard
 * reads, all of whose names the question carries (`let x: T;` before, `x = f();` inside), or
 * one that runs and carries nothing (`let reason: string;`, as written).
 */
function splitAroundGuard(
  ctx: Context,
  group: readonly Pending[],
  p: number,
  readsAfter: ReadonlySet<string>,
): { before: Unit[]; inside: Unit[]; declaredBefore: string[] } | Refusal {
  const carried = new Map(ctx.carried[p]!.map((l) => [l.name, l]));
  const out = { before: [] as Unit[], inside: [] as Unit[], declaredBefore: [] as string[] };
  const declaredInside = new Set<string>();
  for (const g of group) {
    const escaping = g.declares.filter((n) => readsAfter.has(n));
    const { item } = g.unit as Extract<Unit, { type: 'item' }>;
    if (escaping.length === 0) {
      out.inside.push(g.unit);
      for (const name of g.declares) declaredInside.add(name);
      continue;
    }
    if (assignable(g.declaration) && g.declares.every((n) => carried.has(n))) {
      out.before.push({ type: 'declare', locals: g.declares.map((n) => carried.get(n)!) });
      out.inside.push({ type: 'assign', item });
    } else {
      const idle = g.declaration?.declarators.every((d) => d.pure && !d.init) && !g.declares.some((n) => carried.has(n));
      if (!idle || [...g.reads].some((n) => declaredInside.has(n))) return refuse('nested-site', 'declarationNotCarried', { name: escaping[0]! });
      out.before.push(g.unit);
    }
    out.declaredBefore.push(...g.declares);
  }
  return out;
}

/** A `const` or `let` whose declarators all have a value, written again as an assignment (a pattern only alone). */
function assignable(declaration: DeclarationFacts | undefined): boolean {
  if (!declaration || declaration.kind === 'var') return false;
  const { declarators } = declaration;
  return declarators.every((d) => d.init !== undefined) && (declarators.length === 1 || declarators.every((d) => !d.pattern));
}

function restoreUnit(ctx: Context, point: number, visible: ReadonlySet<string>): Unit {
  return { type: 'restore', point, locals: ctx.carried[point]!.filter((l) => !visible.has(l.name) && !/^mrtrIndex\d+$/.test(l.name)) };
}

/**
 * A unit of a guard whose declarations are used after the guard: declared outside it, its
 * values taken from the state when a skipping step is resumed (so every such step must carry
 * them), or as written when that is harmless (nothing to run twice, nothing carried).
 */
function pulledOut(ctx: Context, g: Pending, escaping: string[], S: ReadonlySet<string>): Unit | Refusal {
  const resumed = ctx.plan.points.flatMap((p, i) => (S.has(p.step) ? [i] : []));
  const carriedBy = (i: number, name: string) => ctx.carried[i]!.find((l) => l.name === name);
  const carriedEverywhere = (name: string) => resumed.every((i) => carriedBy(i, name) !== undefined);
  const carriedSomewhere = (name: string) => resumed.some((i) => carriedBy(i, name) !== undefined);
  const local = (name: string) => resumed.map((i) => carriedBy(i, name)).find(Boolean)!;
  const notCarried = (name: string) => refuse('nested-site', 'declarationNotCarried', { name });
  const when = resumedCondition(ctx, S);
  if (g.unit.type === 'item' && g.declaration) {
    if (g.declaration.kind === 'var') return notCarried(escaping[0]!);
    // A local some question carries, declared before the guard: the others that skip its
    // declaration carry it too (where it is not read after them, it only restores its value).
    for (const name of g.declaration.declarators.flatMap((d) => d.names).filter(carriedSomewhere))
      for (const i of resumed) if (!carriedBy(i, name)) ctx.carried[i]!.push(local(name));
    const inits: DeclaratorInit[] = [];
    for (const [index, d] of g.declaration.declarators.entries()) {
      if (d.names.every(carriedEverywhere) && (!d.pattern || d.init)) {
        // Declared before the guard, it has its declared type: a check in the guard that narrowed it does not reach the question.
        const narrowed = d.names.find((n) => resumed.some((i) => carriedBy(i, n)?.declaredType !== undefined));
        if (narrowed) return refuse('nested-site', 'narrowingLost', { name: narrowed });
        inits.push({ declarator: index, condition: when, locals: d.names.map(local) });
      } else if (!d.pure || d.names.some(carriedSomewhere)) return notCarried(d.names.find((n) => !carriedEverywhere(n)) ?? d.names[0]!);
    }
    return inits.length === 0 ? g.unit : { type: 'init', item: g.unit.item, inits };
  }
  if (g.unit.type === 'item') return g.unit; // a function or class declaration: nothing runs
  if (g.unit.type === 'restore') {
    const missing = escaping.find((n) => !carriedEverywhere(n));
    return missing ? notCarried(missing) : g.unit;
  }
  if (g.unit.type === 'read') {
    const point = ctx.plan.points[g.unit.point]!;
    const simple =
      point.binding.form === 'declare' && point.binding.name !== undefined && point.requests.length === 1 && !point.inline && !point.requests[0]!.resultWrap;
    if (!simple || !escaping.every(carriedEverywhere)) return notCarried(escaping[0]!);
    return { type: 'read', point: g.unit.point, fromState: when };
  }
  return notCarried(escaping[0]!);
}

/** The values the step has after a unit. */
function after(ctx: Context, u: Pending, R: ReadonlySet<string>): Set<string> {
  // Only the steps that skip a question go on: its own answer, and later questions.
  if (u.unit.type === 'ask') return intersect(R, u.skip);
  if (u.unit.type === 'clear') {
    const step = ctx.plan.points[u.unit.point]!.step;
    const next = new Set(R);
    if (next.delete(step)) next.add(FRESH);
    return next;
  }
  return new Set(R);
}

/** A compound statement being laid out: the values that reach it and the steps resumed in it. */
interface CompoundPass {
  item: CompoundItem;
  R: ReadonlySet<string>;
  /** Later steps, which skip the whole statement. */
  later: Set<string>;
  /** The values that enter it. */
  entering: Set<string>;
  /** Its own steps that enter it. */
  resumable: Set<string>;
  /** The steps under each child list. */
  childSteps: Set<string>[];
  layout: CompoundLayout;
  /** The names its child lists see (a for loop's declarations added). */
  inScope: Set<string>;
  /** Whether the whole statement is wrapped in a guard the later steps skip. */
  wrap: boolean;
}

/** The layout of a compound statement holding questions, reached with the values `R`; `skip`: the later steps. */
function layoutCompound(
  ctx: Context,
  item: CompoundItem,
  R: ReadonlySet<string>,
  skip: ReadonlySet<string>,
  visible: ReadonlySet<string>,
): { layout: CompoundLayout; exit: Set<string> } | Refusal {
  const mine = new Set((ctx.under.get(item.span.start) ?? []).map((p) => ctx.plan.points[p]!.step));
  const later = intersect(skip, R);
  const entering = difference(R, later);
  const c: CompoundPass = {
    item,
    R,
    later,
    entering,
    resumable: intersect(mine, entering),
    childSteps: item.children.map((child) => stepsIn(ctx, child.list)),
    layout: { children: [], suspendedFinally: false },
    inScope: new Set(visible),
    wrap: later.size > 0,
  };
  const header = compoundHeader(ctx, c);
  if (header instanceof Refusal) return header;
  if (c.wrap) c.layout.wrap = condition(ctx, R, later);
  return layoutChildren(ctx, c);
}

/** The statement's header as the retry must enter it: its condition, initialiser, value or catch. */
function compoundHeader(ctx: Context, c: CompoundPass): void | Refusal {
  switch (c.item.kind) {
    case 'if':
      return ifHeader(ctx, c);
    case 'loop':
      return loopHeader(ctx, c);
    case 'switch':
      return switchHeader(ctx, c);
    case 'try': {
      const { item, layout } = c;
      const k = item.children.findIndex((child) => child.role === 'catch');
      const inCatch = k === -1 ? new Set<string>() : intersect(c.childSteps[k]!, c.resumable);
      if (inCatch.size > 0) layout.enterCatch = resumedCondition(ctx, inCatch);
      layout.suspendedFinally = item.children.some((child) => child.role === 'finally');
      return;
    }
    default:
      return;
  }
}

/** An if's condition: true when a step of its then-branch is resumed, false for one of its else-branch. */
function ifHeader(ctx: Context, c: CompoundPass): void | Refusal {
  const facts = ctx.facts.get(c.item.span.start);
  const test = facts?.test;
  if (!test) return refuse('nested-site', 'unreadableIf');
  const steps = (role: string) => intersect(c.childSteps[c.item.children.findIndex((child) => child.role === role)] ?? new Set(), c.resumable);
  const [inThen, inElse] = [steps('consequent'), steps('alternate')];
  const written = textOf(ctx, test);
  // Without an else, a later resumed step skips the statement through its condition.
  const folded = c.wrap && !facts.hasElse;
  if (folded) c.wrap = false;
  let text = folded ? `${grouped(condition(ctx, difference(c.R, inThen), c.later))} && ${operand(written, test.binds, '&&')}` : written;
  let binds: Binding = folded ? 'and' : test.binds;
  if (inElse.size > 0) {
    text = `${notResumed(ctx, inElse)} && ${operand(text, binds, '&&')}`;
    binds = 'and';
  }
  if (inThen.size > 0) text = `${resumedCondition(ctx, inThen)} || ${operand(text, binds, '||')}`;
  if (text !== written) c.layout.test = text;
}

/** A loop's condition holds when a step in it is resumed; its initialiser reads the state, a for...of counts. */
function loopHeader(ctx: Context, c: CompoundPass): void | Refusal {
  const facts = ctx.facts.get(c.item.span.start);
  const loop = c.item.loop!;
  const into = resumedCondition(ctx, c.resumable);
  if (loop.kind === 'while' || loop.kind === 'for') {
    if (facts?.test) c.layout.test = `${into} || ${operand(textOf(ctx, facts.test), facts.test.binds, '||')}`;
    else if (loop.kind === 'while') return refuse('loop', 'unreadableWhile');
  }
  if (loop.kind === 'for' && facts?.forInit) {
    const forInit = forInitLayout(ctx, c, facts.forInit.declaration, into);
    if (forInit instanceof Refusal) return forInit;
    c.layout.forInit = forInit;
  }
  if (loop.kind === 'for-of') {
    c.layout.counter = { name: `mrtrIndex${loop.n}`, resuming: into };
    for (const n of facts?.forOf?.names ?? []) c.inScope.add(n);
  }
}

/** A for loop's initialiser: skipped when resuming, or its declarators' values read from the state. */
function forInitLayout(ctx: Context, c: CompoundPass, declaration: DeclarationFacts | undefined, into: string): CompoundLayout['forInit'] | Refusal {
  if (!declaration) return { skip: into };
  const carriedHere = (name: string) => ctx.plan.points.every((p, i) => !c.resumable.has(p.step) || ctx.carried[i]!.some((l) => l.name === name));
  const inits: DeclaratorInit[] = [];
  for (const [index, d] of declaration.declarators.entries()) {
    if (d.names.every(carriedHere))
      inits.push({ declarator: index, condition: into, locals: d.names.map((n) => ctx.carried.flat().find((l) => l.name === n)!) });
    else if (!d.pure) return refuse('loop', 'forDeclaration');
    for (const n of d.names) c.inScope.add(n);
  }
  return inits;
}

/** A switch's value: the resumed case's test (`{}` for default, which matches no case). */
function switchHeader(ctx: Context, c: CompoundPass): void | Refusal {
  const facts = ctx.facts.get(c.item.span.start);
  if (!facts?.discriminant || !facts.cases) return refuse('switch-case', 'unreadableSwitch');
  let value = textOf(ctx, facts.discriminant);
  for (let k = c.item.children.length - 1; k >= 0; k--) {
    const steps = intersect(c.childSteps[k]!, c.resumable);
    if (steps.size === 0) continue;
    const test = facts.cases[k]!;
    if (test.test && !test.pure) return refuse('switch-case', 'computedTest');
    value = `${resumedCondition(ctx, steps)} ? ${test.test ? textOf(ctx, test.test) : '{}'} : ${value}`;
  }
  c.layout.discriminant = value;
}

/** Each child list on a question's path, entered with the values that may reach it. */
function layoutChildren(ctx: Context, c: CompoundPass): { layout: CompoundLayout; exit: Set<string> } | Refusal {
  const { item, layout, entering, resumable } = c;
  const exit = new Set(c.R);
  const catchSteps = layout.enterCatch ? c.childSteps[item.children.findIndex((child) => child.role === 'catch')]! : new Set<string>();
  for (const [k, child] of item.children.entries()) {
    if (c.childSteps[k]!.size === 0) {
      layout.children.push(undefined);
      continue;
    }
    let childEntry = difference(entering, difference(resumable, c.childSteps[k]!));
    if (child.role === 'try') childEntry = difference(childEntry, catchSteps);
    if (child.role === 'catch' || item.kind === 'loop') childEntry = new Set([...entering, ...(ctx.loops ? [FRESH] : [])]);
    const laid = layoutList(ctx, child.list, childEntry, c.inScope);
    if (laid instanceof Refusal) return laid;
    layout.children.push(laid.layout);
    for (const value of laid.exit) exit.add(value);
  }
  if (ctx.loops && resumable.size > 0) exit.add(FRESH);
  return { layout, exit };
}

function textOf(ctx: Context, span: { start: number; end: number }): string {
  return ctx.source.slice(span.start, span.end);
}

/** The steps of the points in a list, at any depth. */
function stepsIn(ctx: Context, list: ListPlan): Set<string> {
  const steps = new Set<string>();
  for (const item of list.items) {
    if (item.type === 'point') steps.add(ctx.plan.points[item.point]!.step);
    if (item.type === 'compound') for (const p of ctx.under.get(item.span.start) ?? []) steps.add(ctx.plan.points[p]!.step);
  }
  return steps;
}

/** The names a point's binding (or its inline statement) declares. */
function bindingNames(point: SuspensionPoint, facts: StatementFacts | undefined): string[] {
  if (point.inline) return facts?.declaration ? facts.declaration.declarators.flatMap((d) => d.names) : [];
  const b = point.binding;
  if (b.form !== 'declare') return [];
  return b.name ? [b.name] : (b.names ?? b.elements ?? []);
}

/** `the step is one of S`, as the code writes it. */
function resumedCondition(ctx: Context, S: ReadonlySet<string>): string {
  return [...S].map((s) => `${ctx.v} === ${ctx.quote(s)}`).join(' || ');
}

/** An expression written after `||` or `&&`, parenthesised where it binds more loosely (or is `&&` after `||`). */
function operand(text: string, binds: Binding, op: '||' | '&&'): string {
  const needs = binds === 'low' || (op === '&&' && binds === 'or') || (op === '||' && binds === 'and');
  return needs ? `(${text})` : text;
}

/** A condition written after `&&`: parenthesised when it is an `||` of several. */
export function grouped(condition: string): string {
  return condition.includes(' || ') ? `(${condition})` : condition;
}

/** `the step is none of S`. */
function notResumed(ctx: Context, S: ReadonlySet<string>): string {
  return [...S].map((s) => `${ctx.v} !== ${ctx.quote(s)}`).join(' && ');
}

/**
 * The guard of a unit the steps `S` skip, given the values `R` that reach it: the values that
 * run it when they are as few (`mrtr.step === undefined`), else the steps that skip it.
 */
function condition(ctx: Context, R: ReadonlySet<string>, S: ReadonlySet<string>): string {
  const runs = difference(R, S);
  const skips = intersect(R, S);
  const name = (s: string) => (s === FRESH ? 'undefined' : ctx.quote(s));
  if (runs.size > 0 && runs.size <= skips.size) return [...runs].map((s) => `${ctx.v} === ${name(s)}`).join(' || ');
  return [...skips].map((s) => `${ctx.v} !== ${name(s)}`).join(' && ');
}

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => b.has(x)));
}

function difference(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => !b.has(x)));
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
