// The handler body as a tree of statement lists: where each question sits (its path), and
// which compound statements (if/else, try/catch/finally, switch cases, loops, blocks) lead to
// one. Only those are restructured; every other statement is copied as written.
import type { Node, Statement } from '@babel/types';
import type { LegacySite } from '../analyse/find-sites.ts';
import { hasSideEffects, isFunction, isSideEffect, someNode, walk } from '../analyse/ast.ts';
import { declaredBy } from './liveness.ts';
import { refuse, Refusal } from './refusal.ts';
import { statementShape, type StatementShape } from './statement-shape.ts';
import { lineTail, startsLine } from '../core/vocabulary.ts';
import type { ChildPlan, ItemPlan, ListPlan, LoopPlan, PathStep } from './types.ts';

/** A located question: its statement, how its answer is bound, and where it sits. */
export interface LocatedRound {
  statement: Statement;
  shape: StatementShape;
  /** The `await` expression when the round is awaited inside a larger expression. */
  inline?: Node;
  path: PathStep[];
  /** The lists and compound statements along the path, outermost first. */
  frames: Frame[];
}

/** One level of a path: the list, the index of the item in it, and the child list entered. */
export interface Frame {
  list: Statement[];
  index: number;
  /** The compound statement at `index`, and which of its parts holds the next level. */
  compound?: Statement;
  role?: ChildPlan['role'];
}

const contains = (outer: Node, inner: Node) => outer.start! <= inner.start! && inner.end! <= outer.end!;

/**
 * A statement list inside a compound statement: a block's body (`open` just after its `{`,
 * `close` at its `}`) or a switch case's consequent (`open` just after `case x:`, `close` at
 * the next case or the switch's `}`).
 */
interface Part {
  role: ChildPlan['role'];
  body: Statement[];
  open: number;
  close: number;
}

const inPart = (part: Part, node: Node) => part.open <= node.start! && node.end! <= part.close;

const isLoop = (node: Node) => /^(For|ForIn|ForOf|While|DoWhile)Statement$/.test(node.type);

/** Finds the round a site belongs to, descending through if/else, try/catch, switch cases, loops and blocks. */
export function locateRound(body: Statement[], site: LegacySite, sites: LegacySite[], source: string): LocatedRound | Refusal {
  let list = body;
  const path: PathStep[] = [];
  const frames: Frame[] = [];
  for (;;) {
    const index = list.findIndex((s) => contains(s, site.call));
    const statement = list[index]!;
    if (!startsLine(source, statement.start!) || lineTail(source, statement.end!) === undefined) {
      return refuse('layout', 'sharedLine').at(site);
    }
    const shape = statementShape(statement, source);
    if (shape && shape.calls.includes(site.call)) {
      path.push({ item: index });
      frames.push({ list, index });
      return { statement, shape, path, frames };
    }
    const child = childContaining(statement, site.call, source);
    if (child instanceof Refusal) return child.at(site);
    // The retry would enter the finally block without running the try block again, which
    // nothing writes yet: refused, not migrated with the try block run twice.
    if (child?.role === 'finally') return refuse('finally', 'inFinally').at(site);
    if (!child) {
      // Awaited inside the statement's own expression: resumable when nothing with side
      // effects runs before the question in that statement.
      const inline = inlineAwait(statement, site, sites);
      if (inline instanceof Refusal) return inline.at(site);
      path.push({ item: index });
      frames.push({ list, index });
      return { statement, shape: { binding: { form: 'discard' }, calls: [site.call] }, inline, path, frames };
    }
    // The rewrite re-emits a restructured block line by line: its braces must end and start lines.
    if (lineTail(source, child.open) === undefined || !startsLine(source, child.close)) {
      return refuse('layout', 'blockOnSharedLine').at(site);
    }
    if (child.role === 'case') {
      const problem = caseContinuation(
        child.body,
        child.body.findIndex((s) => contains(s, site.call)),
      );
      if (problem) return problem.at(site);
    }
    path.push({ item: index, child: child.index });
    frames.push({ list, index, compound: statement, role: child.role });
    list = child.body;
  }
}

/** The child list of a compound statement that holds `node`, undefined when it is in the statement's own expressions. */
function childContaining(statement: Statement, node: Node, source: string): (Part & { index: number }) | undefined | Refusal {
  const parts = childParts(statement, source);
  for (let i = 0; i < parts.length; i++) if (inPart(parts[i]!, node)) return { index: i, ...parts[i]! };
  if (statement.type === 'IfStatement' && (contains(statement.consequent, node) || (statement.alternate && contains(statement.alternate, node)))) {
    return refuse('nested-site', 'bracelessBranch');
  }
  if (isLoop(statement) && contains((statement as { body: Node }).body, node)) {
    return refuse('loop', loopProblem(statement) ?? 'bracelessLoop');
  }
  if (statement.type === 'LabeledStatement' && contains(statement.body, node)) {
    return refuse('nested-site', 'labeled');
  }
  return undefined;
}

/** The parts of a compound statement the rewrite can restructure, in source order. */
function childParts(statement: Statement, source: string): Part[] {
  const block = (role: ChildPlan['role'], b: Extract<Node, { type: 'BlockStatement' }>): Part => ({
    role,
    body: b.body,
    open: b.start! + 1,
    close: b.end! - 1,
  });
  switch (statement.type) {
    case 'BlockStatement':
      return [block('block', statement)];
    case 'IfStatement':
      return [
        ...(statement.consequent.type === 'BlockStatement' ? [block('consequent', statement.consequent)] : []),
        ...(statement.alternate?.type === 'BlockStatement' ? [block('alternate', statement.alternate)] : []),
      ];
    case 'TryStatement':
      return [
        block('try', statement.block),
        ...(statement.handler ? [block('catch', statement.handler.body)] : []),
        ...(statement.finalizer ? [block('finally', statement.finalizer)] : []),
      ];
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'ForStatement':
    case 'ForOfStatement':
      return statement.body.type === 'BlockStatement' && !loopProblem(statement) ? [block('loop', statement.body)] : [];
    case 'SwitchStatement':
      return statement.cases.map((c, i) => {
        const only = c.consequent.length === 1 ? c.consequent[0]! : undefined;
        // `case 'x': {` ... `}`: the block is the case's list.
        if (only?.type === 'BlockStatement') return { role: 'case' as const, body: only.body, open: only.start! + 1, close: only.end! - 1 };
        const labelEnd = source.indexOf(':', c.test ? c.test.end! : c.start! + 'default'.length) + 1;
        const next = statement.cases[i + 1];
        return { role: 'case' as const, body: c.consequent, open: labelEnd, close: next ? next.start! : statement.end! - 1 };
      });
    default:
      return [];
  }
}

/** Why a loop cannot be resumed mid-iteration (the loop message that says it), or undefined when it can. */
function loopProblem(statement: Statement): 'forIn' | 'forAwait' | 'computedIterable' | 'forInitExpression' | 'labeledJump' | undefined {
  if (statement.type === 'ForInStatement') return 'forIn';
  if (statement.type === 'ForOfStatement') {
    if (statement.await) return 'forAwait';
    if (hasSideEffects(statement.right)) return 'computedIterable';
  }
  if (statement.type === 'ForStatement' && statement.init && statement.init.type !== 'VariableDeclaration' && hasSideEffects(statement.init)) {
    return 'forInitExpression';
  }
  const body = (statement as { body: Node }).body;
  let labeled = false;
  walk(body, (n) => {
    if ((n.type === 'BreakStatement' || n.type === 'ContinueStatement') && n.label) labeled = true;
    return labeled ? false : undefined;
  });
  return labeled ? 'labeledJump' : undefined;
}

/**
 * Resuming inside a switch case runs the rest of that case only: it must end by leaving the
 * switch (`break;` last) or the handler, with no other `break` that would need the switch.
 */
function caseContinuation(body: Statement[], index: number): Refusal | undefined {
  const rest = body.slice(index + 1);
  // `case 'x': return await ask();`: the statement itself leaves.
  if (rest.length === 0 && alwaysExits(body[index]!)) return undefined;
  const last = rest[rest.length - 1];
  const ends = last !== undefined && ((last.type === 'BreakStatement' && !last.label) || alwaysExits(last));
  const innerBreak = rest.slice(0, -1).some((s) => breaksOut(s));
  if (!ends || innerBreak) {
    return refuse('switch-case', 'fallsThrough');
  }
  return undefined;
}

/** Whether an unlabeled `break` in `node` leaves the enclosing switch (not a nested loop or switch). */
function breaksOut(node: Node): boolean {
  // A loop, switch or function (the node itself included) owns the breaks inside it.
  return someNode(
    node,
    (n) => n.type === 'BreakStatement' && !n.label,
    (n) => isLoop(n) || n.type === 'SwitchStatement' || isFunction(n),
  );
}

function inlineAwait(statement: Statement, site: LegacySite, sites: LegacySite[]): Node | Refusal {
  const parent = site.ancestors[site.ancestors.length - 1];
  if (!parent || parent.type !== 'AwaitExpression') {
    return refuse('nested-site', 'notAwaited');
  }
  if (sites.some((s) => s !== site && contains(statement, s.call))) {
    return refuse('nested-site', 'twoRequests');
  }
  // `cond ? await ask() : x`, `ok && (await ask())`, `a ?? (await ask())`, `x?.f(await ask())`:
  // asked only sometimes; the rewrite would ask every time.
  if (conditionallyEvaluated(statement, [...site.ancestors, site.call])) {
    return refuse('nested-site', 'conditional');
  }
  // Anything evaluated before the await that does something would run again on the retry.
  let impure = false;
  walk(statement, (node) => {
    if (impure || node === parent) return false;
    if (node.end! <= parent.start! && isSideEffect(node)) impure = true;
    return undefined;
  });
  if (impure) {
    return refuse('nested-site', 'workBeforeAwait');
  }
  if (isLoop(statement) || statement.type === 'SwitchStatement') {
    return refuse('loop', 'inHeader');
  }
  return parent;
}

/** Whether some expression between `statement` and the end of `chain` (the call and its ancestors) evaluates the part holding it only on a condition. */
function conditionallyEvaluated(statement: Statement, chain: readonly Node[]): boolean {
  for (let i = chain.indexOf(statement); i >= 0 && i < chain.length - 1; i++) {
    const node = chain[i]!;
    const child = chain[i + 1]!;
    if (node.type === 'ConditionalExpression' && child !== node.test) return true;
    if (node.type === 'LogicalExpression' && child === node.right) return true;
    if (node.type === 'AssignmentExpression' && ['&&=', '||=', '??='].includes(node.operator) && child === node.right) return true;
    if (node.type === 'OptionalCallExpression' && child !== node.callee) return true;
    if (node.type === 'OptionalMemberExpression' && child === node.property) return true;
  }
  return false;
}

/** Builds the list tree: compounds only where a question sits below, plain statements elsewhere. */
export function buildTree(block: Extract<Node, { type: 'BlockStatement' }>, rounds: LocatedRound[], source: string): ListPlan {
  return new TreeBuilder(rounds, source).list({ body: block.body, open: block.start! + 1, close: block.end! - 1, role: 'block' });
}

/** The tree of one handler body; its loops numbered as they are met, outer before inner. */
class TreeBuilder {
  private loops = 0;

  constructor(
    private readonly rounds: LocatedRound[],
    private readonly source: string,
  ) {}

  list(part: Pick<Part, 'body' | 'open' | 'close' | 'role'>): ListPlan {
    return {
      open: part.open,
      close: part.close,
      ...(part.role === 'case' ? { caseList: true } : {}),
      items: part.body.map((statement) => this.item(statement)),
    };
  }

  private item(statement: Statement): ItemPlan {
    const span = { start: statement.start!, end: statement.end! };
    const declares = declaredBy(statement).length > 0 && statement.type !== 'ExpressionStatement';
    const point = this.rounds.findIndex((r) => r.statement === statement);
    if (point !== -1) return { type: 'point', span, point, declares };
    const below = this.rounds.some((r) => r.statement !== statement && contains(statement, r.statement));
    const parts = below ? childParts(statement, this.source) : [];
    if (parts.length > 0) return this.compound(statement, parts);
    const isBreak = statement.type === 'BreakStatement' && !statement.label;
    return { type: 'plain', span, declares, exits: alwaysExits(statement), ...(isBreak ? { isBreak } : {}) };
  }

  private compound(statement: Statement, parts: Part[]): ItemPlan {
    const kind =
      statement.type === 'IfStatement'
        ? 'if'
        : statement.type === 'TryStatement'
          ? 'try'
          : statement.type === 'SwitchStatement'
            ? 'switch'
            : parts[0]!.role === 'loop'
              ? 'loop'
              : 'block';
    const loop = kind === 'loop' ? this.loopPlan(statement) : undefined;
    return {
      type: 'compound',
      span: { start: statement.start!, end: statement.end! },
      kind,
      children: parts.map((p) => ({ role: p.role, list: this.list(p) })),
      declares: false,
      exits: alwaysExits(statement),
      ...(loop ? { loop } : {}),
    };
  }

  private loopPlan(statement: Statement): LoopPlan | undefined {
    const n = ++this.loops;
    const text = (node: Node | null | undefined) => (node ? this.source.slice(node.start!, node.end!) : undefined);
    switch (statement.type) {
      case 'WhileStatement':
        return { kind: 'while', n, test: text(statement.test) };
      case 'DoWhileStatement':
        return { kind: 'do-while', n, test: text(statement.test) };
      case 'ForStatement':
        return { kind: 'for', n, test: text(statement.test), update: text(statement.update) };
      case 'ForOfStatement':
        return { kind: 'for-of', n, left: text(statement.left), iterable: text(statement.right) };
      default:
        return undefined;
    }
  }
}

/** Whether a statement never completes normally (conservative: false when unsure). */
export function alwaysExits(statement: Node): boolean {
  switch (statement.type) {
    case 'ReturnStatement':
    case 'ThrowStatement':
      return true;
    case 'BlockStatement':
      return statement.body.length > 0 && alwaysExits(statement.body[statement.body.length - 1]!);
    case 'IfStatement':
      return !!statement.alternate && alwaysExits(statement.consequent) && alwaysExits(statement.alternate);
    case 'TryStatement':
      return (
        (statement.finalizer && alwaysExits(statement.finalizer)) ||
        (alwaysExits(statement.block) && (!statement.handler || alwaysExits(statement.handler.body)))
      );
    case 'SwitchStatement':
      // Every way through ends the handler: a default, each case ending in an exit, no break.
      return (
        statement.cases.some((c) => c.test === null) &&
        statement.cases.every((c) => c.consequent.length === 0 || alwaysExits(c.consequent[c.consequent.length - 1]!)) &&
        !statement.cases.some((c) => c.consequent.some(breaksOut)) &&
        statement.cases[statement.cases.length - 1]!.consequent.length > 0
      );
    default:
      return false;
  }
}
