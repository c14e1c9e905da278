// A handler's rounds: its sites grouped by the statement that asks them, the keys their
// answers go under, the request each makes, and the names in scope at each round and read
// after it.
import type { Node, Statement } from '@babel/types';
import { boundNames, propertyOf, referencedNames } from '../analyse/ast.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { codeSnippet } from '../core/escape.ts';
import { readableFields, urlParamsText } from '../rewrite/edits/url-elicitation.ts';
import { locateRound, type LocatedRound } from './body-tree.ts';
import { declaredBy, namesReadIn, type Declared } from './liveness.ts';
import { Refusal, refuse } from './refusal.ts';
import type { Binding, ItemPlan, LiftedLocal, ListPlan, PathStep, PlannedRequest } from './types.ts';

/** A round before keys and liveness: where it sits, its binding and its sites in order. */
export interface Round extends LocatedRound {
  binding: Binding;
  sites: LegacySite[];
}

/** Groups the sites into rounds: each the awaited call (or Promise.all) of one statement. */
export function roundsOf(statements: Statement[], sites: LegacySite[], fn: HandlerSite['fn'], source: string): Round[] | Refusal {
  const rounds: Round[] = [];
  for (const site of sites) {
    if (site.enclosing !== fn) {
      return refuse('closure', 'nestedFunction').at(site);
    }
    if (site.kind === undefined) {
      const request = site.call.type === 'CallExpression' || site.call.type === 'OptionalCallExpression' ? site.call.arguments[0] : undefined;
      const method = request?.type === 'ObjectExpression' ? propertyOf(request, 'method') : undefined;
      return (
        method
          ? refuse('unknown-request', 'methodUnread', { method: codeSnippet(source.slice(method.start!, method.end!)) })
          : refuse('unknown-request', 'notLiteral')
      ).at(site);
    }
    if (site.params && propertyOf(site.params, 'task') !== undefined) {
      return refuse('task-augmented', 'asTask').at(site);
    }
    if (site.kind === 'elicitUrl' && (site.params?.type !== 'ObjectExpression' || (site.paramsRead !== undefined && !readableFields(site.params)))) {
      return refuse('url-elicitation', 'paramsNotInline').at(site);
    }
    if (rounds.some((r) => r.sites.includes(site))) continue; // taken with its Promise.all siblings
    const located = locateRound(statements, site, sites, source);
    if (located instanceof Refusal) return located;
    const roundSites = located.shape.calls.map((call) => sites.find((s) => s.call === call));
    if (roundSites.some((s) => s === undefined)) {
      return refuse('mixed-promise-all', 'withOtherWork').at(site);
    }
    // A helper that may answer without asking goes on alone, as the retry of its own round.
    const alone = roundSites.length > 1 ? roundSites.find((s) => s?.via?.maybeAsk) : undefined;
    if (alone) return refuse('mixed-promise-all', 'helperMayNotAsk', { helper: alone.via!.helper }).at(site);
    if (located.statement.type === 'ThrowStatement') {
      const problem = urlThrowProblem(located);
      if (problem) return problem.at(site);
    }
    rounds.push({ ...located, binding: located.shape.binding, sites: roundSites as LegacySite[] });
  }
  return rounds.sort((a, b) => a.statement.start! - b.statement.start!);
}

/**
 * A thrown URL elicitation is resumed after the throw: the retry goes on with the code that
 * follows it (the work the user's visit made possible), without running again what came
 * before it. It cannot be resumed inside a try whose catch or finally saw the error.
 */
function urlThrowProblem(located: LocatedRound): Refusal | undefined {
  if (located.frames.some((f) => f.role === 'try' || f.role === 'catch')) {
    return refuse('url-elicitation', 'thrownInTry');
  }
  return undefined;
}

/** The iteration counters of the for...of loops a question sits in: they travel too. */
export function loopCounters(tree: ListPlan, path: PathStep[], typed: boolean): LiftedLocal[] {
  const out: LiftedLocal[] = [];
  let list: ListPlan | undefined = tree;
  for (const step of path) {
    const item: ItemPlan | undefined = list?.items[step.item];
    if (step.child === undefined || item?.type !== 'compound') break;
    if (item.loop?.kind === 'for-of') out.push({ name: `mrtrIndex${item.loop.n}`, mutable: true, typeText: typed ? 'number' : undefined });
    list = item.children[step.child]?.list;
  }
  return out;
}

/** Locals in scope at a round's statement: declared earlier in each enclosing list, catch parameters and loop variables. */
export function declaredInScope(round: Round): Declared[] {
  const out: Declared[] = [];
  for (const frame of round.frames) {
    for (const s of frame.list.slice(0, frame.index)) out.push(...declaredBy(s));
    const c = frame.compound;
    if (frame.role === 'loop' && c) {
      const decl = c.type === 'ForOfStatement' ? c.left : c.type === 'ForStatement' ? c.init : undefined;
      if (decl?.type === 'VariableDeclaration') out.push(...declaredBy(decl));
    }
    if (frame.role === 'catch' && frame.compound?.type === 'TryStatement' && frame.compound.handler?.param) {
      for (const b of boundNames(frame.compound.handler.param)) out.push({ name: b.name, start: b.start, mutable: true, via: 'caught' });
    }
  }
  return out;
}

/** Each round's namesReadAfter: asked by the rederivation at each of its steps, then by the lift. */
const READ_AFTER = new WeakMap<Round, ReadonlySet<string>>();

/** Names the code that resumes after a round may read: the rest of every enclosing list and handler. */
export function namesReadAfter(round: Round): ReadonlySet<string> {
  let names = READ_AFTER.get(round);
  if (!names) READ_AFTER.set(round, (names = findNamesReadAfter(round)));
  return names;
}

function findNamesReadAfter(round: Round): Set<string> {
  const names = new Set<string>();
  const add = (nodes: readonly Node[]) => {
    for (const n of namesReadIn(nodes as Statement[])) names.add(n);
  };
  round.frames.forEach((frame, k) => {
    add(frame.list.slice(frame.index + 1));
    const c = frame.compound;
    // A loop goes on after the interrupted iteration: its header and its whole body run again,
    // but with their own bindings of what each iteration declares afresh (a for...of/in `const`
    // or `let`; a `const` or `let` of the body, the next frame's list, before the question),
    // not this iteration's. (An outer local of the same name in scope at the question is
    // refused as shadowed.)
    if (frame.role === 'loop' && c) {
      const afresh = new Set<string>();
      const left = c.type === 'ForOfStatement' || c.type === 'ForInStatement' ? c.left : undefined;
      const body = round.frames[k + 1];
      for (const d of [left, ...(body ? body.list.slice(0, body.index) : [])]) {
        if (d?.type === 'VariableDeclaration' && d.kind !== 'var') for (const v of d.declarations) for (const b of boundNames(v.id)) afresh.add(b.name);
      }
      for (const n of namesReadIn([c as Statement])) if (!afresh.has(n)) names.add(n);
    }
    if (c?.type === 'TryStatement') {
      if (frame.role === 'try' && c.handler) add([c.handler.body]);
      if (frame.role !== 'finally' && c.finalizer) add([c.finalizer]);
    }
  });
  if (round.inline) add([round.statement]);
  // A split helper's result is computed on resume from the call's own arguments.
  for (const site of round.sites) for (const arg of site.via?.resultArgs ?? []) for (const n of referencedNames(arg)) names.add(n);
  return names;
}

/**
 * Restored names live at the top of the resumed step, so the code after an enclosing block
 * must not declare them again (legal in the original's nested scope, not at the top).
 */
export function resumeClash(round: Round, lifted: LiftedLocal[]): Declared | undefined {
  const atTop = new Set(lifted.map((l) => l.name));
  if (round.binding.form === 'declare') for (const n of round.binding.name ? [round.binding.name] : (round.binding.names ?? [])) atTop.add(n);
  for (const frame of round.frames.slice(0, -1)) {
    for (const s of frame.list.slice(frame.index + 1)) for (const d of declaredBy(s)) if (atTop.has(d.name)) return d;
  }
  return undefined;
}

/** What an answer is called when the code gives it no name. */
const DEFAULT_KEYS = { elicit: 'answer', elicitUrl: 'url', sampling: 'completion', roots: 'roots' } as const;

/** Keys name the answers: the variable a response lands in where there is one. */
export function requestKeys(rounds: Round[]): string[][] {
  const used = new Set<string>();
  const unique = (base: string) => {
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}${n}`;
    used.add(key);
    return key;
  };
  return rounds.map(({ binding, sites }) =>
    sites.map((site, j) => {
      const named =
        sites.length === 1
          ? binding.form === 'assign'
            ? binding.name
            : binding.form === 'declare'
              ? (binding.name ?? binding.names?.[0])
              : undefined
          : binding.form === 'declare'
            ? binding.elements?.[j]
            : undefined;
      return unique(inheritedName(named) ? `${named}Answer` : (named ?? DEFAULT_KEYS[site.kind!]));
    }),
  );
}

/**
 * A name every object already has (`__proto__`, `constructor`, `toString`): as a key of the
 * generated `inputRequests` literal, `__proto__: ...` would set its prototype instead.
 */
function inheritedName(name: string | undefined): name is string {
  return name !== undefined && name in Object.prototype;
}

export function plannedRequest(source: string, site: LegacySite, key: string, binding: Binding | undefined): PlannedRequest {
  const kind = site.kind!;
  const paramsText =
    kind === 'elicitUrl' && site.params?.type === 'ObjectExpression'
      ? urlParamsText(source, site.params, site.paramsRead)
      : (site.paramsRead ?? (site.params ? source.slice(site.params.start!, site.params.end!) : ''));
  const { line, column } = (site.at ?? site.call).loc!.start;
  return {
    key,
    kind,
    requestText: site.via ? site.via.requestText : `${KINDS[kind].builder}(${paramsText})`,
    ...(site.via ? { resultWrap: site.via.result } : {}),
    ...(site.via?.maybeAsk ? { maybeAsk: true as const } : {}),
    ...(site.via?.takesContext ? { takesContext: true as const } : {}),
    ...(site.via?.asyncResult ? { asyncResult: true as const } : {}),
    ...(site.via?.carried ? { carries: true as const } : {}),
    paramsStart: site.params?.start ?? site.call.start!,
    resultType: site.via
      ? (site.shape.resultType ?? KINDS[kind].resultType)
      : (binding?.form === 'declare' && binding.annotation) || site.shape.resultType || KINDS[kind].resultType,
    guard: kind === 'elicitUrl' ? 'elicit' : kind,
    line,
    column: column + 1,
  };
}

export function answerNames(binding: Binding): string[] {
  if (binding.form === 'assign') return [binding.name];
  if (binding.form !== 'declare') return [];
  return [binding.name, ...(binding.names ?? []), ...(binding.elements ?? [])].filter((n): n is string => n !== undefined);
}
