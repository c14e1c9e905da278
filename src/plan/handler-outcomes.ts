// Each handler's outcome, once every site is placed (see plan-file.ts): planned, or refused
// whole. A helper is split only if every handler that calls it migrates the call: otherwise it
// stays, with its markers, and the handlers (or cases) that did migrate through it are left as
// they were too.
import type { Node } from '@babel/types';
import { walk } from '../analyse/ast.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { jsString } from '../core/escape.ts';
import { dispatchCases, planByCase, type Blocked } from './dispatch-cases.ts';
import type { FilePlanning } from './file-planning.ts';
import { nullChecked } from './lifting.ts';
import { handlerId, planHandler } from './plan-handler.ts';
import { refuse, Refusal } from './refusal.ts';
import { statementFacts } from './resume-facts.ts';
import { layoutHandler } from './resume-layout.ts';
import type { HandlerPlan } from './types.ts';
import { unservedRegistration } from './v1-registrations.ts';

/** A handler's outcome, and the sites of the cases left out of it (see dispatch-cases.ts). */
export interface Outcome {
  result: HandlerPlan | Refusal;
  drops: Map<LegacySite, Refusal>;
}

export interface Outcomes {
  /** Each handler that asks, with its outcome. */
  byHandler: ReadonlyMap<HandlerSite, Outcome>;
  /** The helpers left whole because a handler that calls one could not be migrated. */
  abandoned: ReadonlySet<string>;
  /** Whether the handler migrates the site (it is planned, and the site not left out with its case). */
  migrates(handler: HandlerSite, site: LegacySite): boolean;
}

export function decideOutcomes(file: FilePlanning): Outcomes {
  // Refused before planning (shared function, URL throw, preset, --sampling=flag, a helper that
  // cannot be split), or planned (a handler that dispatches on the tool's name, case by case).
  const own = new Map<HandlerSite, Outcome>();
  for (const [handler, handlerSites] of file.byHandler) own.set(handler, ownOutcome(file, handler, handlerSites));
  const abandoned = new Set<string>();
  const outcome = (handler: HandlerSite): Outcome => {
    const mine = own.get(handler)!;
    if (mine.result instanceof Refusal) return mine;
    const through = file.byHandler.get(handler)!.filter((s) => s.via && abandoned.has(s.via.helper) && !mine.drops.has(s));
    if (through.length === 0) return mine;
    return ownOutcome(
      file,
      handler,
      file.byHandler.get(handler)!,
      through.map((s) => ({ node: s.call, ancestors: s.ancestors, refusal: blockedByHelper(s.via!.helper, s.call), site: s })),
    );
  };
  const migratesCall = (handler: HandlerSite, call: Node) => {
    const { result, drops } = outcome(handler);
    return !(result instanceof Refusal) && ![...drops.keys()].some((s) => s.call === call);
  };
  for (;;) {
    const failing = file.splits.filter(({ split, tree }) => !abandoned.has(split.name) && tree.handlerCalls.some((c) => !migratesCall(c.handler, c.site.call)));
    if (failing.length === 0) break;
    // A tree is split whole or not at all.
    for (const f of failing) for (const s of f.tree.splits) abandoned.add(s.split.name);
  }
  const byHandler = new Map([...file.byHandler.keys()].map((handler) => [handler, outcome(handler)] as const));
  const migrates = (handler: HandlerSite, site: LegacySite) => !(byHandler.get(handler)!.result instanceof Refusal) && !byHandler.get(handler)!.drops.has(site);
  return { byHandler, abandoned, migrates };
}

/** A handler's outcome from its own sites and what blocks it (`more`: calls through abandoned helpers). */
function ownOutcome(file: FilePlanning, handler: HandlerSite, handlerSites: LegacySite[], more: Blocked[] = []): Outcome {
  const { handlers, options, preset } = file;
  if (handler.unnamed)
    return whole(
      typeof handler.unnamed === 'object'
        ? refuse('unknown-tool-name', 'instanceName', { member: handler.unnamed.member })
        : refuse('unknown-tool-name', 'computedName'),
    );
  if (handlers.some((h) => h !== handler && h.fn === handler.fn)) {
    // One function serving several registrations: the state must name the one it was minted for.
    const names = handlers
      .filter((h) => h.fn === handler.fn)
      .map(handlerId)
      .join(', ');
    return whole(refuse('shared-handler', 'severalRegistrations', { names }));
  }
  if (handler.factory && handler.factory.returns > 1)
    return whole(refuse('shared-handler', 'factoryAlternatives', { handler: handlerId(handler), count: String(handler.factory.returns) }));
  const elsewhere = methodUsedElsewhere(file, handler);
  if (elsewhere) return whole(refuse('shared-handler', 'methodUsedElsewhere', { method: elsewhere, handler: handlerId(handler) }));
  if (file.urlThrows.blocked.has(handler)) return whole(refuse('blocked-by-sibling', 'urlThrow'));
  const flagged = options.sampling === 'flag' ? handlerSites.find((s) => s.kind === 'sampling') : undefined;
  const blocked: Blocked[] = [
    ...handlerSites.filter((s) => preset.has(s)).map((s) => ({ node: s.call, ancestors: s.ancestors, refusal: preset.get(s)!, site: s })),
    ...(flagged ? [{ node: flagged.call, ancestors: flagged.ancestors, refusal: refuse('sampling', 'flagged').at(flagged), site: flagged }] : []),
    ...(file.reachHelpers.get(handler) ?? []).map((r) => ({ node: r.call, ancestors: r.ancestors, refusal: blockedByHelper(r.helper, r.call) })),
    ...more,
  ];
  // The handler's own problem says more than the helper path that blocks it too.
  const pinned = blocked.find((b) => b.site);
  // Under a registration v2 lacks, no case of it is served.
  const unserved = unservedRegistration(file, handler);
  if (unserved) return whole(pinned?.refusal ?? unserved);
  const plan = (sites: LegacySite[]) => withLayout(file, planHandler(file.analysis, handler, sites, options.typeFacts, options.idempotent), handler, sites);
  const caseOf = dispatchCases(handler);
  if (caseOf) return planByCase(caseOf, handlerSites, blocked, plan);
  if (pinned) return whole(pinned.refusal);
  const result = plan(handlerSites);
  return whole(blocked.length > 0 && !(result instanceof Refusal) ? blocked[0]!.refusal : result);
}

/**
 * A class's method registered as a handler (`this.handle.bind(this)`, `this.handle`) that is
 * also named elsewhere (`svc.handle.bind(svc)` registered again, a call from another
 * handler): its state would name one registration and serve the others. Its name, or undefined.
 */
function methodUsedElsewhere(file: FilePlanning, handler: HandlerSite): string | undefined {
  if (handler.call === handler.fn) return undefined; // registered by another module
  const holder = file.analysis.index.functions.find((f) => f.node === handler.fn)?.ancestors.at(-1);
  const method =
    handler.fn.type === 'ClassMethod' && handler.fn.key.type === 'Identifier'
      ? handler.fn.key.name
      : holder?.type === 'ClassProperty' && holder.key.type === 'Identifier'
        ? holder.key.name
        : undefined;
  const registration = handler.call;
  // A function handlers delegate to (`return this.forecast(args)`, see delegates.ts) is named for itself, not for them.
  const callee = registration.type === 'CallExpression' ? registration.callee : undefined;
  if (!method || (callee?.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === method)) return undefined;
  const outside = (at: number) => !within(at, registration) && !within(at, handler.fn);
  return (memberNames(file.analysis.program).get(method) ?? []).some(outside) ? method : undefined;
}

function within(at: number, node: Node): boolean {
  return node.start! <= at && at < node.end!;
}

/** Where each name is read as a member (`x.name`), by name: one walk of the module, made when a handler first asks. */
const MEMBER_NAMES = new WeakMap<Node, Map<string, number[]>>();

function memberNames(program: Node): Map<string, number[]> {
  const cached = MEMBER_NAMES.get(program);
  if (cached) return cached;
  const found = new Map<string, number[]>();
  walk(program, (node) => {
    if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && !node.computed && node.property.type === 'Identifier') {
      const list = found.get(node.property.name);
      if (list) list.push(node.start!);
      else found.set(node.property.name, [node.start!]);
    }
  });
  MEMBER_NAMES.set(program, found);
  return found;
}

function whole(result: HandlerPlan | Refusal): Outcome {
  return { result, drops: new Map() };
}

/** A planned handler with how it is written (or why it cannot be written in place). */
function withLayout(file: FilePlanning, plan: HandlerPlan | Refusal, handler: HandlerSite, handlerSites: LegacySite[]): HandlerPlan | Refusal {
  if (plan instanceof Refusal) return plan;
  const layout = layoutHandler(
    file.source,
    plan,
    statementFacts(handler.fn.body, nullChecked),
    (text) => jsString(text, file.style.quote),
    file.analysis.typed,
  );
  if (layout instanceof Refusal) return layout.site ? layout : layout.at(handlerSites[0]!);
  plan.layout = layout;
  return plan;
}

function blockedByHelper(helper: string, call: Node): Refusal {
  return refuse('blocked-by-helper', 'helperPath', { helper, line: String(call.loc!.start.line) });
}
