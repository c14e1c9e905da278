// The last steps of planning a file (see plan-file.ts), once each handler's outcome is known:
// the edits outside the handlers (contexts handed on to delegated functions, helper splits,
// widened definers, what the migration leaves unused, imports and wiring), the report line of
// each site, and the plan, or a refused file when a name the migration adds is taken.
import type { HandlerSite } from '../analyse/find-handlers.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import type { Edit } from '../core/vocabulary.ts';
import { deadDeclarations, type DeadCode, type Replaced } from './dead-code.ts';
import { widenDefinerEdits } from './definer-types.ts';
import { dynamicHalvesEdits } from './dynamic-imports.ts';
import { externalCalls, markWrappedCall } from './external-helpers.ts';
import { bracketCalls, migratedDispatches, migratedLinkedMethods } from './dispatch.ts';
import { exportedNameOf, mark, markHelper, markReaching, markThrow, quotedNode, type FilePlanning } from './file-planning.ts';
import type { Outcomes } from './handler-outcomes.ts';
import { callerContext } from './place-sites.ts';
import { handlerId } from './plan-handler.ts';
import { markerLine, refuse, Refusal } from './refusal.ts';
import { registryQuestions } from './registry-questions.ts';
import { dropStatements } from './resume-layout.ts';
import { secretInState } from './secrets.ts';
import { serverTypeNames, typeImports } from './server-type-names.ts';
import type { FilePlan, HandlerPlan, ListPlan } from './types.ts';
import { fileEdits, type FileEdits, type UsedOutside } from './wiring.ts';
import { addedParameter, lastArgument } from '../rewrite/edits/arguments.ts';

export function assemblePlan(file: FilePlanning, outcomes: Outcomes): FilePlan {
  const { analysis } = file;
  const handedOn = handOnContexts(file, outcomes);
  const dispatched = migratedDispatches(file, outcomes);
  const splitEdits = applySplits(file, outcomes);
  const planned = reportHandlers(file, outcomes);
  moveMarkersIntoBodies(file, planned);
  const { definers, edits: definerEdits } = widenDefiners(file, planned);
  const edits = [
    ...file.urlThrows.edits,
    ...file.urlThrows.returnTypes,
    ...file.dualEra.edits,
    ...file.frameworkEdits,
    ...handedOn.edits,
    ...dispatched.edits,
    ...splitEdits,
    ...definerEdits,
  ];
  const dead = file.options.sitesOnly?.() ? { edits: [], importDrops: new Map(), inBodies: new Set<number>() } : unusedAfter(file, outcomes, edits);
  edits.push(...dead.edits);
  const tail = fileEdits(
    analysis,
    file.options,
    planned,
    usedOutside(
      file,
      outcomes,
      planned,
      new Set([...handedOn.contextTypes, ...dispatched.names]),
      definerEdits.length > 0 || file.urlThrows.returnTypes.length > 0,
    ),
    dead.importDrops,
  );
  if (tail instanceof Refusal) return refusedFile(file, outcomes, planned, tail);
  edits.push(...tail.edits);
  if (tail.unwired) {
    const refusal = refuse('server-elsewhere', 'verifierNotWired');
    const { reason, next } = refusal;
    const kind = planned[0]!.points[0]!.requests[0]!.kind;
    file.reports.push({ line: 1, column: 1, kind, status: 'marked', code: 'server-elsewhere', reason, next, marker: markerLine(refusal) });
  }
  return {
    handlers: planned,
    markers: file.markers,
    sites: file.reports,
    edits,
    typed: analysis.typed,
    style: tail.style,
    ...(planned.length > 0 ? { stateSpecifier: tail.stateSpecifier } : {}),
    eol: file.eol,
    uncertain: file.uncertain,
    exportedHelpers: file.exportedHelpers,
    externalCalls: externalCalls(file, outcomes.migrates),
    // Exported helpers split here (the engine told other modules to ask through their halves).
    splitExported: [
      ...file.splits.filter((s) => !outcomes.abandoned.has(s.split.name)).flatMap((s) => exportedNameOf(analysis, s.site.enclosing!) ?? []),
      ...file.earlierEntries,
    ],
    ...(file.rerunAtHelpers.length > 0 ? { rerunAtHelpers: file.rerunAtHelpers } : {}),
    definers,
    ...registryQuestions(file),
    ...(file.options.dispatch?.methods?.length ? { linkedMigrated: migratedLinkedMethods(file, outcomes) } : {}),
  };
}

/**
 * A delegation migrated: each calling handler hands its context on (adding it where it had
 * none). `contextTypes`: the types of the context parameters added (`ctx: ServerContext`), to
 * import. A delegation whose function was refused leaves its helper chain marked instead.
 */
function handOnContexts(file: FilePlanning, outcomes: Outcomes): { edits: Edit[]; contextTypes: Set<string> } {
  const edits: Edit[] = [];
  const contextAdded = new Set<HandlerSite>();
  const contextTypes = new Set<string>();
  for (const { delegation, chains } of file.delegations) {
    if (outcomes.byHandler.get(delegation.handler)!.result instanceof Refusal) {
      for (const { site, chain } of chains.slice(0, 1)) markReaching(file, site, chain);
      continue;
    }
    for (const { handler, call } of delegation.calls) {
      const context = callerContext(file, handler)!;
      if (context.addParam && !contextAdded.has(handler)) {
        contextAdded.add(handler);
        if (handler.contextType && file.analysis.typed) contextTypes.add(`type ${handler.contextType}`);
        edits.push(...addedParameter(context.addParam));
      }
      edits.push(lastArgument(call, context.name));
    }
  }
  return { edits, contextTypes };
}

/** The edits of the helpers split, and the report line of each; a helper left whole is marked with the chain. */
function applySplits(file: FilePlanning, outcomes: Outcomes): Edit[] {
  const { abandoned } = outcomes;
  const edits: Edit[] = [];
  for (const { site, chain, split, external } of file.splits) {
    // A function here that calls another module's helper: its call is marked if it stays whole.
    if (external && abandoned.has(split.name)) {
      markWrappedCall(file, site.call, site.ancestors, external, chain, { handler: true });
      continue;
    }
    // The innermost helper's request is the site; an outer helper's split builds on it.
    if (site.via) {
      if (!abandoned.has(split.name)) edits.push(split.edit);
      continue;
    }
    if (abandoned.has(split.name)) {
      // A handler refused for a reason of its own is marked with it: via-helper would name the wrong
      // blocker. One left whole for this helper's path (blocked-by-helper) is marked with the path.
      markHelper(file, site, chain, undefined, (handler) => {
        const result = outcomes.byHandler.get(handler)?.result;
        return result instanceof Refusal && result.code !== 'blocked-by-helper';
      });
      continue;
    }
    edits.push(split.edit);
    const { line, column } = site.call.loc!.start;
    file.reports.push({
      line,
      column: column + 1,
      kind: site.kind!,
      handler: `helper:${split.name}`,
      status: 'migrated',
      lifted: [],
      ...(split.rederived ? { rederived: split.rederived } : {}),
      ...(split.rerun ? { rerun: split.rerun } : {}),
      guidance: KINDS[site.kind!].guidance,
    });
  }
  return edits;
}

/** The planned handlers; each site gets its report line (and a refused one its marker). */
function reportHandlers(file: FilePlanning, { byHandler, abandoned, migrates }: Outcomes): HandlerPlan[] {
  const planned: HandlerPlan[] = [];
  for (const [handler, { result, drops }] of byHandler) {
    const handlerSites = file.byHandler.get(handler)!.filter((s) => !s.via || !abandoned.has(s.via.helper) || result instanceof Refusal);
    for (const [site, refusal] of drops) {
      if (site.via && refusal.code === 'blocked-by-helper') continue;
      mark(file, site, refusal, handler);
    }
    const inner = file.urlThrows.inner.filter((x) => x.handler === handler);
    if (result instanceof Refusal) {
      for (const { t } of inner) markThrow(file, t, handler, result.site ? blockedBySibling(file, result) : result);
      for (const site of handlerSites) {
        // Through a helper, only the handler's own problem is news: the helper's markers say the rest.
        if (site.via && result.code === 'blocked-by-helper') continue;
        const own = result.site === undefined || result.site === site;
        mark(file, site, own ? result : blockedBySibling(file, result), handler);
      }
      continue;
    }
    const innerEdits = [...inner.map((x) => x.edit), ...dynamicHalvesEdits(file, handler, migrates)];
    if (innerEdits.length > 0) result.innerEdits = innerEdits;
    for (const { t } of inner) {
      const { line, column } = t.statement.loc!.start;
      file.reports.push({ line, column: column + 1, kind: 'elicitUrl', handler: handlerId(handler), status: 'migrated', lifted: [] });
    }
    noteBrackets(file, handler, result, bracketCalls(file, handler));
    planned.push(result);
    reportMigrated(file, result);
  }
  return planned;
}

/**
 * The per-round bracket calls around a migrated method's dispatch, among what the handler runs
 * again: on its own report lines, or (when it asks only through helpers, each counted at the
 * helper) on the report of the first helper it asks through, here or in another module.
 */
function noteBrackets(file: FilePlanning, handler: HandlerSite, plan: HandlerPlan, brackets: HandlerPlan['rerun']): void {
  if (!brackets?.length) return;
  const own = plan.points.some((p) => p.requests.some((r) => !r.resultWrap));
  const split = own ? undefined : file.splits.find((s) => s.chain.reaching.some((r) => r.handler === handler));
  const at = split?.site.call.loc!.start;
  const helper = at && file.reports.find((s) => s.status === 'migrated' && s.line === at.line && s.column === at.column + 1);
  const external = own || helper ? undefined : file.externalVia.find((e) => e.handler === handler)?.external;
  if (helper) helper.rerun = [...(helper.rerun ?? []), ...brackets];
  else if (external) file.rerunAtHelpers.push({ file: external.file, helper: external.name, calls: brackets });
  else plan.rerun = [...(plan.rerun ?? []), ...brackets];
}

/** The refusal of a handler's other sites when one of them is refused. */
export function blockedBySibling(file: FilePlanning, result: Refusal): Refusal {
  return refuse('blocked-by-sibling', 'otherSite', {
    line: String(result.site!.call.loc!.start.line),
    code: result.code,
    request: quotedNode(file.source, result.site!.call),
  });
}

/**
 * A migrated handler's report lines: what travels, and what to keep in mind (a deprecation, the
 * retry's request); a secret carried in the state is a line left for a person.
 */
function reportMigrated(file: FilePlanning, plan: HandlerPlan): void {
  for (const p of plan.points) {
    for (const r of p.requests) {
      if (r.resultWrap) continue; // counted once, at the helper
      const bound = p.requestBound.length > 0 ? `After the question, ${p.requestBound.join(', ')} is the retry's request, not the first call's.` : undefined;
      file.reports.push({
        line: r.line,
        column: r.column,
        kind: r.kind,
        handler: plan.id,
        status: 'migrated',
        lifted: p.lifted.map((l) => l.name),
        ...(plan.rederivedNames?.length ? { rederived: plan.rederivedNames } : {}),
        ...(plan.rerun?.length ? { rerun: plan.rerun } : {}),
        guidance: [KINDS[r.kind].guidance, bound].filter(Boolean).join(' ') || undefined,
      });
    }
    // Migrated, but left for a person: a file-level report, as server-elsewhere is (not a site of its own).
    if (p.secrets.length > 0) {
      const first = p.requests.find((r) => !r.resultWrap) ?? p.requests[0]!;
      const { reason, next, marker } = secretInState(p.secrets);
      file.reports.push({ line: first.line, column: first.column, kind: first.kind, status: 'marked', code: 'secret-in-state', reason, next, marker });
    }
  }
}

/** Markers inside a body the rewrite renders go with it. */
function moveMarkersIntoBodies(file: FilePlanning, planned: HandlerPlan[]): void {
  for (const h of planned) {
    const inside = file.markers.filter((m) => h.body.start < m.lineStart && m.lineStart < h.body.end);
    if (inside.length === 0) continue;
    h.markers = inside;
    for (const m of inside) file.markers.splice(file.markers.indexOf(m), 1);
  }
}

/**
 * Tool definitions migrated here: the definer that types them admits InputRequiredResult (here,
 * or in its module, which the engine widens: `definers`).
 */
function widenDefiners(file: FilePlanning, planned: HandlerPlan[]): { definers: FilePlan['definers']; edits: Edit[] } {
  const { analysis } = file;
  const definers: FilePlan['definers'] = [];
  const localDefiners = new Set(file.options.widenDefiners ?? []);
  const handlers = [
    ...planned.map((h) => file.handlers.find((x) => handlerId(x) === h.id && x.fn.body.start === h.body.start)),
    // A handler that returns a URL elicitation it threw returns InputRequiredResult too.
    ...file.urlThrows.planned.map((p) => p.handler),
  ];
  for (const handler of new Set(handlers)) {
    // A declaration a registry's factory turns into a handler is typed by the function it is handed to as well.
    const callee = (handler?.definition || handler?.factory) && handler.call.type === 'CallExpression' ? handler.call.callee : undefined;
    if (callee?.type !== 'Identifier') continue;
    const imported = analysis.importedNames.get(callee.name);
    if (imported) definers.push({ from: imported.from, name: imported.imported });
    else localDefiners.add(callee.name);
  }
  return { definers, edits: widenDefinerEdits(analysis, [...localDefiners]) };
}

/**
 * What the rewrite names outside the migrated handlers' own lines: the server package's types a
 * widened definer, a widened return type of a handler returning a URL elicitation or an added
 * context parameter names; for a module whose helpers are split for
 * other modules' handlers (with none migrated itself), the builders and the answer types its
 * halves name; and names of the file's own modules (another module's split helper's halves,
 * beside the helper's import; the type a lifted local is restored with).
 */
function usedOutside(
  file: FilePlanning,
  { byHandler, abandoned, migrates }: Outcomes,
  planned: HandlerPlan[],
  contextTypes: ReadonlySet<string>,
  widened: boolean,
): UsedOutside {
  const { analysis } = file;
  const serverTypes = new Set<string>(contextTypes);
  for (const [handler, { result }] of byHandler)
    if (!(result instanceof Refusal) && result.addParam && handler.contextType && analysis.typed) serverTypes.add(`type ${handler.contextType}`);
  if (widened) serverTypes.add('type InputRequiredResult');
  const splitOnly = file.splits.filter((s) => !abandoned.has(s.split.name) && !s.site.via);
  // A function here that asks through another module's helper names the answer's type itself.
  const answerTyped = file.splits.filter((s) => !abandoned.has(s.split.name) && (!s.site.via || s.external));
  const names = serverTypeNames(analysis);
  if (analysis.typed) for (const s of answerTyped) for (const t of typeImports(names, s.split.resultType)) serverTypes.add(t);
  for (const s of file.splits) if (!abandoned.has(s.split.name)) for (const t of s.split.types ?? []) serverTypes.add(t);
  const halves = file.externalVia
    .filter(({ handler, site, external }) => migrates(handler, site) && !external.split!.method)
    .flatMap(({ site, external, call }) => {
      const base = external.name.split('.').pop()!;
      const called = call ?? site.call;
      const from = called.type === 'CallExpression' && called.callee.type === 'Identifier' ? analysis.importedNames.get(called.callee.name)?.from : undefined;
      return from === undefined ? [] : [`${base}Request`, ...(external.split!.identity ? [] : [`${base}Result`])].map((name) => ({ name, from, type: false }));
    });
  // An exported function split to ask through another module's halves that no handler here calls imports them too.
  for (const { site, external } of file.splits.filter((s) => s.external && !abandoned.has(s.split.name) && !s.external.split!.method)) {
    const called = site.call;
    const from = called.type === 'CallExpression' && called.callee.type === 'Identifier' ? analysis.importedNames.get(called.callee.name)?.from : undefined;
    const base = external!.name.split('.').pop()!;
    const names = [`${base}Request`, ...(external!.split!.identity ? [] : [`${base}Result`])];
    if (from !== undefined) for (const name of names) if (!halves.some((h) => h.name === name)) halves.push({ name, from, type: false });
  }
  const typeNames = [
    ...planned.flatMap((h) => h.points.flatMap((p) => p.lifted.flatMap((l) => (l.typeImports ?? []).map((t) => ({ ...t, type: true }))))),
    ...file.splits.filter((s) => !abandoned.has(s.split.name)).flatMap((s) => (s.split.moduleTypes ?? []).map((t) => ({ ...t, type: true }))),
  ];
  return {
    builders:
      file.urlThrows.edits.length > 0 || planned.some((h) => h.innerEdits?.some((e) => file.urlThrows.inner.some((x) => x.edit === e))) || splitOnly.length > 0,
    serverTypes: [...serverTypes],
    moduleNames: [...halves, ...typeNames],
  };
}

/**
 * A name the migration adds that the module already declares, in any scope, would not compile
 * or would be shadowed: the file is refused, every site that would have migrated marked.
 */
function refusedFile(file: FilePlanning, outcomes: Outcomes, planned: HandlerPlan[], tail: Refusal & Pick<FileEdits, 'style'>): FilePlan {
  const migrated = new Set([...planned.map((h) => h.body.start), ...file.splits.map((s) => s.site.enclosing!.body.start!)]);
  for (const site of file.candidates) if (site.functions.some((f) => migrated.has(f.body.start!))) mark(file, site, tail);
  for (const { t, handler } of file.urlThrows.planned) markThrow(file, t, handler, tail);
  for (const h of planned) file.markers.push(...(h.markers ?? []));
  const kept = file.reports.filter((r) => r.status !== 'migrated');
  const calls = externalCalls(file, outcomes.migrates).map((c) => ({ ...c, migrated: false }));
  return {
    handlers: [],
    markers: file.markers,
    sites: kept,
    edits: [],
    typed: file.analysis.typed,
    style: tail.style,
    eol: file.eol,
    uncertain: file.uncertain,
    exportedHelpers: file.exportedHelpers,
    externalCalls: calls,
    splitExported: [],
    definers: [],
  };
}

/**
 * The declarations the migration leaves unused, and how each goes: a statement of a migrated
 * handler is left out of its layout, other statements are removed (unless another edit
 * rewrites them), import specifiers are dropped with the import edits.
 */
function unusedAfter(file: FilePlanning, { byHandler, abandoned, migrates }: Outcomes, edits: readonly Edit[]): DeadCode {
  // Each migrated handler with the sites it migrates (not those of a case it leaves as it was).
  const migrated = [...byHandler].flatMap(([handler, { result }]) =>
    result instanceof Refusal
      ? []
      : [{ plan: result, sites: file.byHandler.get(handler)!.filter((s) => migrates(handler, s) && (!s.via || !abandoned.has(s.via.helper))) }],
  );
  if (migrated.length === 0 && edits.length === 0) return { edits: [], importDrops: new Map(), inBodies: new Set() };
  const replaced: Replaced[] = edits.map((e) => ({ start: e.start, end: e.end, text: e.text }));
  const renderable = new Set<number>();
  for (const { plan, sites } of migrated) {
    for (const e of plan.innerEdits ?? []) replaced.push({ start: e.start, end: e.end, text: e.text });
    const asked = plan.points.flatMap((p) => p.requests.map((r) => r.requestText)).join('\n');
    // A thrown URL elicitation: the whole throw (its error class included) becomes the question.
    // A call of a split helper becomes its halves' calls: the result half's takes arguments too.
    for (const site of sites) {
      const { start, end } = site.at ?? site.call;
      replaced.push({ start: start!, end: end!, text: site.via ? `${asked}\n${site.via.result.join('')}` : asked });
    }
    const visit = (list: ListPlan) => {
      for (const item of list.items) {
        if (item.type === 'plain') renderable.add(item.span.start);
        if (item.type === 'compound') for (const child of item.children) visit(child.list);
      }
    };
    visit(plan.tree);
  }
  const dead = deadDeclarations(
    file.analysis,
    replaced,
    migrated.map((m) => m.plan.body),
    renderable,
  );
  for (const { plan } of migrated) {
    const dropped = [...dead.inBodies].filter((at) => plan.body.start <= at && at < plan.body.end);
    if (dropped.length > 0 && plan.layout) plan.layout = dropStatements(plan.layout, plan.tree, new Set(dropped));
  }
  // A removal inside text another edit rewrites (a split helper) is that edit's business.
  return { ...dead, edits: dead.edits.filter((d) => !edits.some((e) => e.start < d.end && d.start < e.end)) };
}
