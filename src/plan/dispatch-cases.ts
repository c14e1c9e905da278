// A low-level tools/call handler that dispatches on the tool's name (`switch
// (request.params.name) { case 'a': ... case 'b': ... }`) serves several tools from one
// function: a question in one case and a problem in another are different tools' business.
// Such a handler is migrated case by case: a case that cannot be migrated is left as it was,
// with its markers, and the other cases still migrate (a call for the tool it serves still
// pushes its request, as before, and is marked).
import type { Node, SwitchStatement } from '@babel/types';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { refuse, Refusal } from './refusal.ts';
import type { HandlerPlan } from './types.ts';

/** The case of the handler's dispatching switch a node sits in; undefined outside one (or for another handler). */
export type CaseOf = (node: Node, ancestors: readonly Node[]) => Node | undefined;

/** The dispatching switch of a low-level handler: a statement of its body switching over string cases. */
export function dispatchCases(handler: HandlerSite): CaseOf | undefined {
  if (!handler.lowLevel || handler.fn.body.type !== 'BlockStatement') return undefined;
  const dispatch = handler.fn.body.body.find(
    (s): s is SwitchStatement => s.type === 'SwitchStatement' && s.cases.length > 1 && s.cases.every((c) => !c.test || c.test.type === 'StringLiteral'),
  );
  if (!dispatch) return undefined;
  const cases = new Set<Node>(dispatch.cases);
  return (_node, ancestors) => ancestors.find((a) => cases.has(a));
}

/** A site, or a call into a helper that cannot be migrated, known to be refused before planning. */
export interface Blocked {
  node: Node;
  ancestors: readonly Node[];
  refusal: Refusal;
  /** The site itself, when it is one (it is then marked with the refusal). */
  site?: LegacySite;
}

/**
 * Plans the handler without the cases that cannot be migrated: those holding a blocked node,
 * then, one at a time, the case of each site planning refuses. `drops` says why each site left
 * out is; the result is the plan of what remains, or the refusal when nothing does (or when a
 * problem lies outside every case).
 */
export function planByCase(
  caseOf: CaseOf,
  sites: readonly LegacySite[],
  blocked: readonly Blocked[],
  plan: (sites: LegacySite[]) => HandlerPlan | Refusal,
): { result: HandlerPlan | Refusal; drops: Map<LegacySite, Refusal> } {
  const drops = new Map<LegacySite, Refusal>();
  let active = [...sites];
  const dropCase = (c: Node, refusal: Refusal) => {
    // The site a refusal is about carries it; the others of its case say why they wait (a
    // refusal about no site in particular, a helper path, is every site's).
    for (const site of active.filter((s) => caseOf(s.call, s.ancestors) === c))
      drops.set(site, refusal.site === undefined || refusal.site === site ? refusal : sibling(refusal));
    active = active.filter((s) => caseOf(s.call, s.ancestors) !== c);
  };
  for (const b of blocked) {
    const c = caseOf(b.node, b.ancestors);
    if (!c) return { result: b.refusal, drops: new Map() };
    dropCase(c, b.refusal);
  }
  for (;;) {
    if (active.length === 0) return { result: drops.values().next().value ?? refuse('blocked-by-sibling', 'noSiteLeft'), drops };
    const result = plan(active);
    if (!(result instanceof Refusal)) return { result, drops };
    const c = result.site ? caseOf(result.site.call, result.site.ancestors) : undefined;
    if (!c) return { result, drops: new Map() };
    dropCase(c, result);
  }
}

function sibling(refusal: Refusal): Refusal {
  if (!refusal.site) return refuse('blocked-by-sibling', 'otherInCaseAnywhere', { code: refusal.code });
  return refuse('blocked-by-sibling', 'otherInCase', { line: String(refusal.site.call.loc!.start.line), code: refusal.code });
}
