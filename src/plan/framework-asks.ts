// Plans a framework tool's questions (see analyse/frameworks.ts) where the framework passes no
// verified requestState: each question is answered in place. The handler runs from the top on
// every round, reads the answer from the context's inputResponses, and returns the question
// when it is missing. That is sound only when nothing needs to travel between rounds: the code
// before a question only derives values (it runs again), and a call asks at most once (no
// earlier answer to carry). Anything else is refused with what would have had to travel.
import type { Node, Statement, SwitchCase } from '@babel/types';
import { argumentParams, boundNames, isFunction, propertyOf, referencedNames, stringValue, walk } from '../analyse/ast.ts';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import type { FrameworkHandler } from '../analyse/framework-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { isFreshValue, statementPurity, expressionPurity, type HandlerName } from '../analyse/purity.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { codeSnippet } from '../core/escape.ts';
import type { InputKind } from '../core/vocabulary.ts';
import { alwaysExits } from './body-tree.ts';
import { plannedRequest, requestKeys, roundsOf, type Round } from './handler-rounds.ts';
import { declaredBy } from './liveness.ts';
import { headerOf, HandlerScope } from './rederive.ts';
import { Refusal, refuse } from './refusal.ts';
import type { FrameworkPlan, FrameworkRound } from '../rewrite/edits/framework-asks.ts';

/** The sites of `sites` that are the handler's own framework questions (`extra.elicit(...)` on its context). */
export function frameworkAsks(handler: FrameworkHandler, sites: readonly LegacySite[]): LegacySite[] {
  return sites.filter((site) => site.functions.includes(handler.fn) && askedKind(handler, site) !== undefined);
}

export function planFrameworkHandler(
  analysis: FileAnalysis,
  handler: FrameworkHandler,
  asks: readonly LegacySite[],
  facts: TypeFacts | undefined,
  { idempotent, flagSampling }: { idempotent: readonly string[]; flagSampling: boolean },
): FrameworkPlan | Refusal {
  const { fn } = handler;
  if (fn.body.type !== 'BlockStatement') return refuse('expression-body', 'expressionBody').at(asks[0]!);
  if (!fn.async) return refuse('nested-site', 'notAsync').at(asks[0]!);
  const taken = [...referencedNames(fn.body)].find((n) => /^mrtr(?:Answer|Asked)\d*$/.test(n));
  if (taken) return refuse('name-clash', 'usedInHandler', { name: taken }).at(asks[0]!);
  const sites = asks.map((site) => ({ ...site, kind: askedKind(handler, site), params: argumentsOf(site)[0] }));
  // --sampling=flag leaves a handler that samples as it was, as it does an SDK handler.
  const sampling = flagSampling ? sites.find((s) => s.kind === 'sampling') : undefined;
  if (sampling) return refuse('sampling', 'flagged').at(sampling);
  const rounds = roundsOf(fn.body.body, sites, fn, analysis.source);
  if (rounds instanceof Refusal) return rounds;
  const framework = handler.adapter.name;
  for (const round of rounds) {
    if (round.frames.some((f) => f.role === 'loop')) return refuse('framework-state', 'inLoop', { framework }).at(round.sites[0]!);
    if (round.frames.some((f) => f.role === 'try' || f.role === 'catch')) return refuse('framework-state', 'inTry').at(round.sites[0]!);
  }
  // Without loops control only goes forward: a call asks once when every question but the last ends its path.
  for (let i = 0; i < rounds.length - 1; i++) {
    if (!alwaysExits(rounds[i]!.statement)) {
      return refuse('framework-state', 'asksTwice', { framework, line: String(rounds[i + 1]!.statement.loc!.start.line) }).at(rounds[i]!.sites[0]!);
    }
  }
  const again = runsAgainProblem(analysis, handler, rounds, facts, idempotent);
  if (again) return again;
  const keys = requestKeys(rounds);
  const named = new Map<Statement[], number>();
  return {
    rounds: rounds.map((round, i) => {
      const requests = round.sites.map((site, j) => {
        const { key, kind, requestText, paramsStart } = plannedRequest(analysis.source, site, keys[i]![j]!, undefined);
        return { call: site.call, key, kind, requestText, paramsStart, ...(site.params ? { params: site.params } : {}) };
      });
      // Numbered by round: two rounds may share a statement list.
      const asked = i === 0 ? 'mrtrAsked' : `mrtrAsked${i + 1}`;
      return { statement: round.statement, requests, asked, ...answersOf(round, named), ...braceCaseOf(round) };
    }),
  };
}

/**
 * Where a round's answers go: into the name its statement declares (`const result = await
 * extra.sample(...)`, the statement then replaced), nowhere when it discards them (the
 * statement goes), else into `mrtrAnswer` names read where the awaited question was, numbered
 * apart from another round's in the same list.
 */
function answersOf(round: Round, named: Map<Statement[], number>): Pick<FrameworkRound, 'answers' | 'declares' | 'awaited'> {
  const { binding } = round;
  if (!round.inline && binding.form === 'declare' && binding.name && !binding.annotation && round.sites.length === 1) {
    return { answers: [binding.name], declares: binding.kind };
  }
  if (!round.inline && binding.form === 'discard') return { answers: [] };
  const list = round.frames[round.frames.length - 1]!.list;
  const first = named.get(list) ?? 0;
  named.set(list, first + round.sites.length);
  const answers = round.sites.map((_, j) => (first + j === 0 ? 'mrtrAnswer' : `mrtrAnswer${first + j + 1}`));
  return { answers, ...awaitedOf(round) };
}

/** The kind a framework site asks, undefined when it is no question of the handler's context. */
function askedKind(handler: FrameworkHandler, site: LegacySite): InputKind | undefined {
  const call = site.call;
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.computed) return undefined;
  const { object, property } = call.callee;
  if (object.type !== 'Identifier' || object.name !== handler.context || property.type !== 'Identifier') return undefined;
  const kind = Object.hasOwn(handler.adapter.asks, property.name) ? handler.adapter.asks[property.name] : undefined;
  const params = call.arguments[0];
  return kind === 'elicit' && params && stringValue(propertyOf(params, 'mode')) === 'url' ? 'elicitUrl' : kind;
}

function argumentsOf(site: LegacySite): Node[] {
  return site.call.type === 'CallExpression' ? site.call.arguments : [];
}

/**
 * What runs before a question on every round must only derive values: the statements before it
 * in each enclosing list and the headers of the blocks it is in. The first that does more is
 * refused: as a local that would have to travel when the code after the question reads what
 * it declares, else as work that would run again.
 */
function runsAgainProblem(
  analysis: FileAnalysis,
  handler: FrameworkHandler,
  rounds: readonly Round[],
  facts: TypeFacts | undefined,
  idempotent: readonly string[],
): Refusal | undefined {
  const { fn, adapter } = handler;
  const params = argumentParams(fn);
  const argNames = new Set(params.slice(0, adapter.context.index).flatMap((p) => boundNames(p).map((b) => b.name)));
  const scope = new HandlerScope({ analysis, fn, argNames, facts, idempotent }, { declared: declaredIn(fn), context: new Set([handler.context]) });
  const derived = new Map<string, HandlerName>();
  const checked = new Set<Node>();
  const once = (node: Node) => !checked.has(node) && Boolean(checked.add(node));
  for (const round of rounds) {
    for (const [k, frame] of round.frames.entries()) {
      const inner = round.frames[k + 1];
      // In the order they run: the list before the block, its header, the cases falling into this one.
      for (const statement of frame.list.slice(0, frame.index)) {
        const blocker = once(statement) && statementPurity(statement, scope.with(derived)).blocker;
        if (blocker) return blockedBy(analysis, handler, rounds, statement, blocker);
        for (const d of declaredBy(statement)) derived.set(d.name, d.init && isFreshValue(d.init) ? 'fresh' : 'derived');
      }
      for (const header of frame.compound ? headerOf(frame.compound) : []) {
        const blocker = once(header) && expressionPurity(header, scope.with(derived)).blocker;
        if (blocker) return blockedBy(analysis, handler, rounds, frame.compound!, blocker);
      }
      for (const statement of frame.compound && inner ? fallenInto(frame.compound, inner.list) : []) {
        const blocker = once(statement) && statementPurity(statement, scope.with(derived)).blocker;
        if (blocker) return blockedBy(analysis, handler, rounds, statement, blocker);
      }
    }
  }
  return undefined;
}

/** The statements of the cases before a switch case's list that fall through into it (none ends in a jump). */
function fallenInto(compound: Statement, list: Statement[]): Statement[] {
  if (compound.type !== 'SwitchStatement') return [];
  const index = compound.cases.findIndex((c) => c.consequent === list || (c.consequent.length === 1 && (c.consequent[0] as { body?: unknown }).body === list));
  const fallen: Statement[] = [];
  for (let i = index - 1; i >= 0; i--) {
    const last = compound.cases[i]!.consequent.at(-1);
    if (last && /^(Return|Throw|Break|Continue)Statement$/.test(last.type)) break;
    fallen.unshift(...compound.cases[i]!.consequent);
  }
  return fallen;
}

/** The refusal for a statement before a question that does more than derive values. */
function blockedBy(analysis: FileAnalysis, handler: FrameworkHandler, rounds: readonly Round[], statement: Statement, blocker: Node): Refusal {
  const framework = handler.adapter.name;
  const line = String(statement.loc!.start.line);
  const readAfter = new Set(rounds.flatMap((r) => [...referencedNames(r.statement), ...laterNames(r)]));
  const travels = declaredBy(statement).find((d) => readAfter.has(d.name));
  const site = rounds.find((r) => r.statement.start! > statement.start!)?.sites[0] ?? rounds[0]!.sites[0]!;
  if (travels) return refuse('framework-state', 'mustTravel', { name: travels.name, line, framework }).at(site);
  return refuse('framework-state', 'runsAgain', { statement: codeSnippet(analysis.source.slice(blocker.start!, blocker.end!)), line, framework }).at(site);
}

/** Names the code after a round's statement reads, in every list around it. */
function laterNames(round: Round): Set<string> {
  const names = new Set<string>();
  for (const frame of round.frames) for (const s of frame.list.slice(frame.index + 1)) for (const n of referencedNames(s)) names.add(n);
  return names;
}

/** Every name declared in the handler, its parameters included (nested functions' own names aside). */
function declaredIn(fn: FrameworkHandler['fn']): Set<string> {
  const names = new Set<string>(fn.params.flatMap((p) => boundNames(p).map((b) => b.name)));
  walk(fn.body, (node) => {
    if (isFunction(node)) {
      if (node.type === 'FunctionDeclaration' && node.id) names.add(node.id.name);
      return false;
    }
    if (node.type === 'VariableDeclarator') for (const b of boundNames(node.id)) names.add(b.name);
    if (node.type === 'ClassDeclaration' && node.id) names.add(node.id.name);
    if (node.type === 'CatchClause' && node.param) for (const b of boundNames(node.param)) names.add(b.name);
    return undefined;
  });
  return names;
}

/**
 * The span of the awaited question(s) in the round's statement: the inline `await`, else the
 * awaited initialiser, assigned value or returned value (`return extra.elicit(...)` has no await).
 * None for a question whose answer is discarded: its statement goes.
 */
function awaitedOf(round: Round): { awaited?: FrameworkRound['awaited'] } {
  if (round.inline) {
    const node = round.inline;
    const extra = node.extra as { parenthesized?: boolean; parenStart?: number } | undefined;
    return {
      awaited: { start: node.start!, end: node.end!, ...(extra?.parenthesized && extra.parenStart === node.start! - 1 ? { parenthesized: true } : {}) },
    };
  }
  const s = round.statement;
  const value =
    s.type === 'VariableDeclaration'
      ? s.declarations[0]!.init
      : s.type === 'ReturnStatement'
        ? s.argument
        : s.type === 'ExpressionStatement' && s.expression.type === 'AssignmentExpression'
          ? s.expression.right
          : undefined;
  return value ? { awaited: { start: value.start!, end: value.end! } } : {};
}

/** The switch case whose consequent holds the round's statement directly, when it is not one block already. */
function braceCaseOf(round: Round): { braceCase?: SwitchCase } {
  const outer = round.frames[round.frames.length - 2];
  if (outer?.compound?.type !== 'SwitchStatement') return {};
  const list = round.frames[round.frames.length - 1]!.list;
  const braceCase = outer.compound.cases.find((c) => c.consequent === list);
  return braceCase ? { braceCase } : {};
}
