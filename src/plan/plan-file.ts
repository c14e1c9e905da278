// From the analysis of one file to its plan: per handler, the suspension points, what
// travels across each, and the keys; per refused site, a marker with the reason and the
// next step. A handler is migrated whole or not at all: one site we cannot move safely
// leaves the whole handler as it was, with every site marked.
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { registeredHandlers, type HandlerSite } from '../analyse/find-handlers.ts';
import { urlThrowSites, type LegacySite, type UrlElicitationThrow } from '../analyse/find-sites.ts';
import { callGraphOf, handlersReaching, type HelperChain, type NamedCall } from '../analyse/call-graph.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { codeSnippet, jsString } from '../core/escape.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { codeStyleOf } from '../analyse/code-style.ts';
import { dropStatements, layoutHandler } from './resume-layout.ts';
import { statementFacts } from './resume-facts.ts';
import { contextParameter, handlerId, planHandler, type ContextParameter } from './plan-handler.ts';
import { delegationTo, type Delegation } from './delegates.ts';
import { shapeCalls, type HelperSplit } from './split-helper.ts';
import type { FilePlan, HandlerPlan, ListPlan, Marker, SiteReport, SplitShape } from './types.ts';
import type { ExternalHelper, PlanOptions } from './plan-options.ts';
import { splitTree, viaSite, type HelperTree } from './helper-tree.ts';
import { isFunction, isStatementLike, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import { planUrlThrow } from './url-elicitation.ts';
import { refuse, Refusal } from './refusal.ts';
import { type Edit, eolOf, indentAt, type InputKind, lineStartOf } from '../core/vocabulary.ts';
import { type DeadCode, deadDeclarations, type Replaced } from './dead-code.ts';
import { widenDefinerEdits } from './definer-types.ts';
import { dispatchCases, planByCase, type Blocked } from './dispatch-cases.ts';
import { fileEdits } from './wiring.ts';

export function planFile(analysis: FileAnalysis, options: PlanOptions = {}): FilePlan {
  const { source } = analysis;
  const style = codeStyleOf(source, analysis.program);
  // This module's functions other modules register as handlers (the engine found them).
  const handlers = options.registeredAs?.length ? [...analysis.handlers, ...registeredHandlers(analysis.program, options.registeredAs)] : analysis.handlers;
  // A call that only looks like a legacy request (an LLM client's own `.server.createMessage`)
  // is left alone when the checker says its receiver is not an MCP SDK object.
  const fromSdk = options.typeFacts?.fromSdk;
  const verdicts = new Map(analysis.sites.filter((s) => s.uncertain).map((s) => [s, fromSdk && receiverVerdict(s, fromSdk)]));
  const candidates = analysis.sites.filter((s) => verdicts.get(s) !== false);
  const uncertain = fromSdk ? 0 : verdicts.size;
  const markers: Marker[] = [];
  const reports: SiteReport[] = [];
  const planned: HandlerPlan[] = [];

  const eol = eolOf(source);
  const byHandler = new Map<HandlerSite, LegacySite[]>();
  const exportedHelpers: FilePlan['exportedHelpers'] = [];
  const addSite = (handler: HandlerSite, site: LegacySite) => {
    const list = byHandler.get(handler);
    if (list) list.push(site);
    else byHandler.set(handler, [site]);
  };
  // Calls from handlers into helpers that cannot be migrated: they block their handler (or, in a
  // handler dispatching by tool name, their case).
  const reachHelpers = new Map<HandlerSite, Array<{ helper: string; call: Node; ancestors: readonly Node[] }>>();
  const reaches = (handler: HandlerSite, helper: string, call: Node, ancestors: readonly Node[]) => reachHelpers.set(handler, [...(reachHelpers.get(handler) ?? []), { helper, call, ancestors }]);
  // Helpers split for the handlers that reach them: each with its tree (split whole, or not at all).
  const splits: Array<{ site: LegacySite; chain: HelperChain; split: HelperSplit; tree: HelperTree }> = [];
  // Sites refused before planning; their handler is then left whole too.
  const preset = new Map<LegacySite, Refusal>();
  // Requests in helpers that cannot be split, decided once every site is placed (a delegation).
  const deferred: Array<{ site: LegacySite; chain: HelperChain; why: string }> = [];
  // A module on the v1 SDK (imported here, or through a module of the project that stays on
  // v1): v1 has no MRTR, and v2 calls would not run on its server.
  const v1 = [...analysis.importedNames.values()].find((i) => i.from === '@modelcontextprotocol/sdk' || i.from.startsWith('@modelcontextprotocol/sdk/'))?.from ?? (/\brequire\s*\(\s*['"]@modelcontextprotocol\/sdk\b/.test(source) ? '@modelcontextprotocol/sdk' : undefined);
  const onV1 = v1 ? refuse('legacy-sdk', 'importsV1', { specifier: codeSnippet(v1) }) : options.v1Through ? refuse('legacy-sdk', 'reachesV1', { specifier: codeSnippet(options.v1Through) }) : undefined;
  for (const site of candidates) {
    if (onV1) {
      preset.set(site, onV1.at(site));
      continue;
    }
    // A function handed in, called where no handler reaches and no other module can: whatever it
    // is, it asks outside a request (below), which says more than an unknown receiver.
    if (site.handedIn && !handlers.some((h) => site.functions.includes(h.fn)) && askingExports(site).length === 0 && !handlersReaching(callGraphOf(analysis.index), handlers, site.enclosing)) continue;
    if (site.uncertain && verdicts.get(site) !== true) {
      // Refuse rather than guess: only the method name says this is an MCP request.
      preset.set(site, refuse('unknown-receiver', 'notAnMcpObject', { receiver: codeSnippet(source.slice(site.receiver.start!, site.receiver.end!)) }).at(site));
    } else if (site.call.type === 'OptionalCallExpression') {
      // `x?.elicitInput(...)` asks only sometimes; the rewrite would make it always ask.
      preset.set(site, refuse('optional-call', 'optionalCall').at(site));
    }
  }
  for (const site of candidates) {
    const owner = handlers.find((h) => site.functions.includes(h.fn));
    const refused = preset.get(site);
    if (refused && !owner) {
      mark(site, refused);
      // Its handlers, here and in other modules, still reach it: they are marked too.
      for (const name of askingExports(site)) exportedHelpers.push({ name, line: site.call.loc!.start.line });
      const chain = handlersReaching(callGraphOf(analysis.index), handlers, site.enclosing);
      if (chain) {
        markReaching(site, chain);
        for (const r of chain.reaching) reaches(r.handler, chain.helper, r.call.call, r.call.ancestors);
      }
      continue;
    }
    if (refused) {
      addSite(owner!, site);
      continue;
    }
    // A helper asked through by handlers: split (with the helpers on the way) when the whole
    // tree can be. One this module exports is asked through by other modules' handlers too: it
    // is split only when the engine says every one of them migrates (splitExported); until
    // then it is marked, and what its split would be is reported for those modules to plan with.
    const exported = owner ? [] : askingExports(site);
    const chain = owner ? undefined : handlersReaching(callGraphOf(analysis.index), handlers, site.enclosing);
    const tree = owner ? undefined : helperTree(site);
    const pending = tree && typeof tree !== 'string' ? tree.splits.filter((s) => exportedNameOf(s.site.enclosing!) !== undefined && !options.splitExported?.has(exportedNameOf(s.site.enclosing!)!)) : [];
    if (tree && typeof tree !== 'string' && pending.length === 0 && (tree.handlerCalls.length > 0 || exported.length > 0)) {
      for (const s of tree.splits) splits.push({ ...s, chain: chain ?? { helper: tree.splits[0]!.split.name, reaching: [] }, tree });
      for (const c of tree.handlerCalls) addSite(c.handler, c.site);
      continue;
    }
    for (const name of exported) {
      const proposed = pending.find((s) => exportedNameOf(s.site.enclosing!) === name);
      exportedHelpers.push({ name, line: site.call.loc!.start.line, ...(proposed ? { split: shapeOf(proposed.split) } : {}) });
    }
    if (chain) {
      const why = typeof tree === 'string' ? tree : 'it is exported: other modules call it too, and it is split only once each of their handlers can be migrated (this run could not show that).';
      // Not split: a function its handlers delegate to may still be migrated as a handler (below).
      if (exported.length === 0) deferred.push({ site, chain, why });
      else {
        markHelper(site, chain, why);
        for (const r of chain.reaching) reaches(r.handler, chain.helper, r.call.call, r.call.ancestors);
      }
      continue;
    }
    if (!owner && analysis.unnamedHandlers.some((call) => site.ancestors.includes(call))) {
      mark(site, refuse('unknown-tool-name', 'computedName'));
      continue;
    }
    if (exported.length > 0) {
      const first = exported[exported.length - 1]!;
      mark(site, typeof tree === 'string' ? refuse('in-helper', 'exportedUnsplittable', { helper: first, why: tree }) : refuse('in-helper', 'exported', { helper: first }));
      continue;
    }
    if (!owner) {
      mark(site, refuse('no-request-to-answer', 'outsideHandler'));
      continue;
    }
    addSite(owner, site);
  }

  // URL elicitations thrown as errors: questions of their handler where code follows them,
  // input requests returned at once where nothing does (see planUrlThrow). One that cannot move
  // leaves its handler whole.
  const urlEdits: Edit[] = [];
  const urlBlocked = new Set<HandlerSite>();
  const urlPlanned: Array<{ t: UrlElicitationThrow; handler: HandlerSite }> = [];
  const markThrow = (t: UrlElicitationThrow, handler: HandlerSite | undefined, refusal: Refusal) => markAt(t.statement, [...t.ancestors, t.statement], 'elicitUrl', handler, refusal);
  for (const t of analysis.urlThrows) {
    const handler = handlers.find((h) => h.fn === t.functions[t.functions.length - 1]);
    const outcome = planUrlThrow(source, eol, t, handler?.fn, handler !== undefined && byHandler.has(handler));
    if (outcome === 'question') {
      for (const site of urlThrowSites(t)) addSite(handler!, site);
    } else if (outcome instanceof Refusal) {
      markThrow(t, handler, outcome);
      if (handler) urlBlocked.add(handler);
    } else {
      urlEdits.push(outcome);
      urlPlanned.push({ t, handler: handler! });
      const { line, column } = t.statement.loc!.start;
      reports.push({ line, column: column + 1, kind: 'elicitUrl', handler: handlerId(handler!), status: 'migrated', lifted: [] });
    }
  }

  // A handler registered from `oninitialized` never exists for a 2026-07-28 client: there is
  // no initialize on that revision, so the hook never runs.
  for (const handler of handlers) {
    const hook = handler.ancestors.find((a) => a.type === 'AssignmentExpression' && a.left.type === 'MemberExpression' && !a.left.computed && a.left.property.type === 'Identifier' && a.left.property.name === 'oninitialized');
    if (!hook || !byHandler.has(handler)) continue;
    const refusal = refuse('registered-late', 'fromOninitialized', { handler: handlerId(handler) });
    markAt(handler.call, handler.ancestors, byHandler.get(handler)![0]!.kind ?? 'elicit', handler, refusal);
  }

  // Calls from handlers into another module's helper that makes a request: asked through its
  // halves where the engine says it is split, marked otherwise.
  const externalVia: Array<{ handler: HandlerSite; site: LegacySite; external: ExternalHelper }> = [];
  if (options.externalHelpers && options.externalHelpers.size > 0) {
    for (const call of callGraphOf(analysis.index).calls) {
      const external = externalHelperOf(call);
      const handler = external && handlers.find((h) => call.functions.includes(h.fn));
      if (!external || !handler) continue;
      const via = external.split ? externalViaSite(call, external, external.split) : undefined;
      if (via) {
        externalVia.push({ handler, site: via, external });
        addSite(handler, via);
        continue;
      }
      const refusal = refuse('via-helper', 'otherModule', { helper: external.name, file: external.file, line: String(external.line) });
      markAt(call.call, call.ancestors, 'elicit', handler, refusal);
      reaches(handler, external.name, call.call, call.ancestors);
    }
  }

  // Functions handlers delegate to (return await this.handleX(args)): migrated as handlers of
  // their own, when the handlers that call them ask nothing themselves. Else marked, as helpers.
  const delegations: Array<{ delegation: Delegation; chains: Array<{ site: LegacySite; chain: HelperChain; why: string }> }> = [];
  const deferredDelegations = new Set([...new Set(deferred.map((d) => d.site.enclosing!))].flatMap((fn) => {
    const d = delegationTo(callGraphOf(analysis.index), handlers, fn);
    return typeof d === 'string' ? [] : d.calls.map((c) => c.handler);
  }));
  // A helper that was split for a handler that also delegates to one that cannot be: delegated
  // too, so that the handler (asking nothing itself) needs no state of its own.
  const direct = (h: HandlerSite) => (byHandler.get(h) ?? []).some((x) => !x.via);
  for (const tree of new Set(splits.map((s) => s.tree))) {
    if (tree.splits.length !== 1 || !tree.handlerCalls.some((c) => deferredDelegations.has(c.handler)) || tree.handlerCalls.some((c) => direct(c.handler))) continue;
    const { site, split } = tree.splits[0]!;
    const graph = callGraphOf(analysis.index);
    if (exportedNameOf(site.enclosing!) || typeof delegationTo(graph, handlers, site.enclosing!) === 'string') continue;
    for (const c of tree.handlerCalls) {
      const rest = byHandler.get(c.handler)!.filter((x) => x !== c.site);
      if (rest.length > 0) byHandler.set(c.handler, rest);
      else byHandler.delete(c.handler);
    }
    splits.splice(0, splits.length, ...splits.filter((x) => x.tree !== tree));
    deferred.push({ site, chain: handlersReaching(graph, handlers, site.enclosing) ?? { helper: split.name, reaching: [] }, why: 'it is delegated to.' });
  }
  for (const fn of new Set(deferred.map((d) => d.site.enclosing!))) {
    const mine = deferred.filter((d) => d.site.enclosing === fn);
    const delegation = delegationTo(callGraphOf(analysis.index), handlers, fn);
    const ok = typeof delegation !== 'string' && delegation.calls.every((c) => !byHandler.has(c.handler) && callerContext(c.handler) !== undefined);
    if (ok) {
      delegations.push({ delegation, chains: mine });
      for (const d of mine) addSite(delegation.handler, d.site);
      continue;
    }
    for (const { site, chain, why } of mine) {
      markHelper(site, chain, why);
      for (const r of chain.reaching) reaches(r.handler, chain.helper, r.call.call, r.call.ancestors);
    }
  }

  // Each handler's own outcome, once: refused before planning (shared function, URL throw,
  // preset, --sampling=flag, a helper that cannot be split), or planned (a handler that
  // dispatches on the tool's name, case by case: `drops` are the sites of cases left out).
  const own = new Map<HandlerSite, Outcome>();
  for (const [handler, handlerSites] of byHandler) own.set(handler, ownOutcome(handler, handlerSites));

  // A helper is split only if every handler that calls it migrates the call: otherwise it stays,
  // with its markers, and the handlers (or cases) that did migrate through it are left as they
  // were too.
  const abandoned = new Set<string>();
  const outcome = (handler: HandlerSite): Outcome => {
    const mine = own.get(handler)!;
    if (mine.result instanceof Refusal) return mine;
    const through = byHandler.get(handler)!.filter((s) => s.via && abandoned.has(s.via.helper) && !mine.drops.has(s));
    if (through.length === 0) return mine;
    return ownOutcome(handler, byHandler.get(handler)!, through.map((s) => ({ node: s.call, ancestors: s.ancestors, refusal: blockedByHelper(s.via!.helper), site: s })));
  };
  const migratesCall = (handler: HandlerSite, call: Node) => {
    const { result, drops } = outcome(handler);
    return !(result instanceof Refusal) && ![...drops.keys()].some((s) => s.call === call);
  };
  for (;;) {
    const failing = splits.filter(({ split, tree }) => !abandoned.has(split.name) && tree.handlerCalls.some((c) => !migratesCall(c.handler, c.site.call)));
    if (failing.length === 0) break;
    // A tree is split whole or not at all.
    for (const f of failing) for (const s of f.tree.splits) abandoned.add(s.split.name);
  }
  const outcomes = new Map([...byHandler.keys()].map((handler) => [handler, outcome(handler)] as const));
  const results = new Map([...outcomes].map(([handler, o]) => [handler, o.result] as const));
  const migrates = (handler: HandlerSite, site: LegacySite) => !(results.get(handler) instanceof Refusal) && !outcomes.get(handler)!.drops.has(site);
  // For the engine: whether each call of another module's split helper migrated (it splits the helper only if all do).
  const externalCalls = [...externalVia.map(({ handler, site, external }) => ({ file: external.file, name: external.name, migrated: migrates(handler, site) })), ...externalLeftovers()];

  function ownOutcome(handler: HandlerSite, handlerSites: LegacySite[], more: Blocked[] = []): Outcome {
    if (handlers.some((h) => h !== handler && h.fn === handler.fn)) {
      // One function serving several registrations: the state must name the one it was minted for.
      const names = handlers.filter((h) => h.fn === handler.fn).map(handlerId).join(', ');
      return whole(refuse('shared-handler', 'severalRegistrations', { names }));
    }
    if (urlBlocked.has(handler)) return whole(refuse('blocked-by-sibling', 'urlThrow'));
    const flagged = options.sampling === 'flag' ? handlerSites.find((s) => s.kind === 'sampling') : undefined;
    const blocked: Blocked[] = [
      ...handlerSites.filter((s) => preset.has(s)).map((s) => ({ node: s.call, ancestors: s.ancestors, refusal: preset.get(s)!, site: s })),
      ...(flagged ? [{ node: flagged.call, ancestors: flagged.ancestors, refusal: refuse('sampling', 'flagged').at(flagged), site: flagged }] : []),
      ...(reachHelpers.get(handler) ?? []).map((r) => ({ node: r.call, ancestors: r.ancestors, refusal: blockedByHelper(r.helper) })),
      ...more,
    ];
    const plan = (sites: LegacySite[]) => withLayout(planHandler(analysis, handler, sites, options.typeFacts), handler, sites);
    const caseOf = dispatchCases(handler);
    if (caseOf) return planByCase(caseOf, handlerSites, blocked, plan);
    // The handler's own problem says more than the helper path that blocks it too.
    const pinned = blocked.find((b) => b.site);
    if (pinned) return whole(pinned.refusal);
    const result = plan(handlerSites);
    return whole(blocked.length > 0 && !(result instanceof Refusal) ? blocked[0]!.refusal : result);
  }

  /** A planned handler with how it is written (or why it cannot be written in place). */
  function withLayout(plan: HandlerPlan | Refusal, handler: HandlerSite, handlerSites: LegacySite[]): HandlerPlan | Refusal {
    if (plan instanceof Refusal) return plan;
    const layout = layoutHandler(source, plan, statementFacts(handler.fn.body), (text) => jsString(text, style.quote));
    if (layout instanceof Refusal) return layout.site ? layout : layout.at(handlerSites[0]!);
    plan.layout = layout;
    return plan;
  }

  function blockedByHelper(helper: string): Refusal {
    return refuse('blocked-by-helper', 'helperPath', { helper });
  }

  const edits: Edit[] = [...urlEdits];
  // A delegation migrated: each calling handler hands its context on (adding it where it had none).
  const contextAdded = new Set<HandlerSite>();
  // The types of the context parameters added with one (`ctx: ServerContext`): imported.
  const contextTypes = new Set<string>();
  for (const { delegation, chains } of delegations) {
    if (results.get(delegation.handler) instanceof Refusal) {
      for (const { site, chain } of chains.slice(0, 1)) markReaching(site, chain);
      continue;
    }
    for (const { handler, call } of delegation.calls) {
      const context = callerContext(handler)!;
      if (context.addParam && !contextAdded.has(handler)) {
        contextAdded.add(handler);
        if (handler.contextType && analysis.typed) contextTypes.add(`type ${handler.contextType}`);
        edits.push({ start: context.addParam.at, end: context.addParam.at, text: context.addParam.text });
        if (context.addParam.close) edits.push({ start: context.addParam.close.at, end: context.addParam.close.at, text: context.addParam.close.text });
      }
      const last = call.arguments[call.arguments.length - 1];
      edits.push(last ? { start: last.end!, end: last.end!, text: `, ${context.name}` } : { start: call.end! - 1, end: call.end! - 1, text: context.name });
    }
  }
  // Exported helpers split here (the engine told other modules to ask through their halves).
  const splitExported = splits.filter((s) => !abandoned.has(s.split.name)).flatMap((s) => exportedNameOf(s.site.enclosing!) ?? []);
  for (const { site, chain, split } of splits) {
    // The innermost helper's request is the site; an outer helper's split builds on it.
    if (site.via) {
      if (!abandoned.has(split.name)) edits.push(split.edit);
      continue;
    }
    if (abandoned.has(split.name)) {
      markHelper(site, chain, undefined);
      continue;
    }
    edits.push(split.edit);
    const { line, column } = site.call.loc!.start;
    reports.push({ line, column: column + 1, kind: site.kind!, handler: `helper:${split.name}`, status: 'migrated', lifted: [], guidance: KINDS[site.kind!].guidance });
  }


  for (const [handler, result] of results) {
    const handlerSites = byHandler.get(handler)!.filter((s) => !s.via || !abandoned.has(s.via.helper) || result instanceof Refusal);
    for (const [site, refusal] of outcomes.get(handler)!.drops) {
      if (site.via && refusal.code === 'blocked-by-helper') continue;
      mark(site, refusal, handler);
    }
    if (result instanceof Refusal) {
      for (const site of handlerSites) {
        // Through a helper, only the handler's own problem is news: the helper's markers say the rest.
        if (site.via && result.code === 'blocked-by-helper') continue;
        const own = result.site === undefined || result.site === site;
        mark(site, own ? result : refuse('blocked-by-sibling', 'otherSite', { line: String(result.site!.call.loc!.start.line), code: result.code }), handler);
      }
      continue;
    }
    planned.push(result);
    for (const p of result.points) {
      for (const r of p.requests) {
        if (r.resultWrap) continue; // counted once, at the helper
        const secret = p.secrets.length > 0 ? `${p.secrets.join(', ')} travel${p.secrets.length === 1 ? 's' : ''} in requestState, which the client can read: keep secrets on the server.` : undefined;
        const bound = p.requestBound.length > 0 ? `After the question, ${p.requestBound.join(', ')} is the retry's request, not the first call's.` : undefined;
        reports.push({ line: r.line, column: r.column, kind: r.kind, handler: result.id, status: 'migrated', lifted: p.lifted.filter((l) => !l.fresh).map((l) => l.name), guidance: [KINDS[r.kind].guidance, secret, bound].filter(Boolean).join(' ') || undefined });
      }
    }
  }


  // Markers inside a body the rewrite renders go with it.
  for (const h of planned) {
    const inside = markers.filter((m) => h.body.start < m.lineStart && m.lineStart < h.body.end);
    if (inside.length === 0) continue;
    h.markers = inside;
    for (const m of inside) markers.splice(markers.indexOf(m), 1);
  }

  // Tool definitions migrated here: the definer that types them admits InputRequiredResult (here,
  // or in its module, which the engine widens).
  const definers: FilePlan['definers'] = [];
  const localDefiners = new Set(options.widenDefiners ?? []);
  for (const h of planned) {
    const handler = handlers.find((x) => handlerId(x) === h.id && x.fn.body.start === h.body.start);
    const callee = handler?.definition && handler.call.type === 'CallExpression' ? handler.call.callee : undefined;
    if (callee?.type !== 'Identifier') continue;
    const imported = analysis.importedNames.get(callee.name);
    if (imported) definers.push({ from: imported.from, name: imported.imported });
    else localDefiners.add(callee.name);
  }
  const definerEdits = widenDefinerEdits(analysis, [...localDefiners]);
  edits.push(...definerEdits);

  // What the migration leaves unused (imports, aliases of the push API): removed.
  const migratedSites = [...results].flatMap(([handler, r]) => (r instanceof Refusal ? [] : [{ plan: r, sites: byHandler.get(handler)!.filter((s) => migrates(handler, s) && (!s.via || !abandoned.has(s.via.helper))) }]));
  const dead = unusedAfter(analysis, migratedSites, edits);
  edits.push(...dead.edits);

  // Outside the handlers: the server package's types a widened definer names, and a module
  // whose helpers are split for other modules' handlers (with none migrated itself) needs the
  // builders and the answer types its halves name.
  const serverTypes = new Set<string>(contextTypes);
  for (const [handler, r] of results) if (!(r instanceof Refusal) && r.addParam && handler.contextType && analysis.typed) serverTypes.add(`type ${handler.contextType}`);
  if (definerEdits.length > 0) serverTypes.add('type InputRequiredResult');
  const splitOnly = splits.filter((s) => !abandoned.has(s.split.name) && !s.site.via);
  if (analysis.typed) for (const s of splitOnly) for (const t of s.split.resultType.split('|')) serverTypes.add(`type ${t.trim()}`);
  // Names of the file's own modules the rewrite now uses: another module's split helper's
  // halves (beside the helper's import), the type a lifted local is restored with.
  const halves = externalVia.filter(({ handler, site, external }) => migrates(handler, site) && !external.split!.method).flatMap(({ site, external }) => {
    const base = external.name.split('.').pop()!;
    const from = site.call.type === 'CallExpression' && site.call.callee.type === 'Identifier' ? analysis.importedNames.get(site.call.callee.name)?.from : undefined;
    return from === undefined ? [] : [`${base}Request`, ...(external.split!.identity ? [] : [`${base}Result`])].map((name) => ({ name, from, type: false }));
  });
  const typeNames = planned.flatMap((h) => h.points.flatMap((p) => p.lifted.flatMap((l) => (l.typeImports ?? []).map((t) => ({ ...t, type: true })))));
  const tail = fileEdits(analysis, options, planned, { builders: urlEdits.length > 0 || splitOnly.length > 0, serverTypes: [...serverTypes], moduleNames: [...halves, ...typeNames] }, dead.importDrops);
  if (tail instanceof Refusal) {
    // A name the migration adds that the module already declares, in any scope, would not
    // compile or would be shadowed: the file is refused.
    const migrated = new Set([...planned.map((h) => h.body.start), ...splits.map((s) => s.site.enclosing!.body.start!)]);
    for (const site of candidates) if (site.functions.some((f) => migrated.has(f.body.start!))) mark(site, tail);
    for (const { t, handler } of urlPlanned) markThrow(t, handler, tail);
    for (const h of planned) markers.push(...(h.markers ?? []));
    const kept = reports.filter((r) => r.status !== 'migrated');
    return { handlers: [], markers, sites: kept, edits: [], typed: analysis.typed, style: tail.style, eol, uncertain, exportedHelpers, externalCalls: externalCalls.map((c) => ({ ...c, migrated: false })), splitExported: [], definers: [] };
  }
  edits.push(...tail.edits);
  if (tail.unwired) {
    const { reason, next } = refuse('server-elsewhere', 'verifierNotWired');
    reports.push({
      line: 1, column: 1, kind: planned[0]!.points[0]!.requests[0]!.kind, status: 'marked', code: 'server-elsewhere',
      reason,
      next,
    });
  }

  return {
    handlers: planned,
    markers,
    sites: reports,
    edits,
    typed: analysis.typed,
    style: tail.style,
    ...(planned.length > 0 ? { stateSpecifier: tail.stateSpecifier } : {}),
    eol,
    uncertain,
    exportedHelpers,
    externalCalls,
    splitExported,
    definers,
  };

  function mark(site: LegacySite, refusal: Refusal, handler?: HandlerSite) {
    markAt(site.call, site.ancestors, site.kind ?? 'elicit', handler, refusal, site.kind ? KINDS[site.kind].guidance : undefined, site.at);
  }

  /** Reports `node` as marked, and writes the marker above its statement. */
  function markAt(node: Node, ancestors: readonly Node[], kind: InputKind, handler: HandlerSite | undefined, refusal: Refusal, guidance?: string, reportAt: Node = node) {
    const { line, column } = reportAt.loc!.start;
    reports.push({ line, column: column + 1, kind, handler: handler ? handlerId(handler) : undefined, status: 'marked', code: refusal.code, reason: refusal.reason, next: refusal.next, guidance });
    addMarker(ancestors, node, refusal);
  }

  /**
   * The name under which other modules call a function of this module: an exported top-level
   * function (or const), or `Class.method` for a method of an exported class.
   */
  function exportedNameOf(fn: FunctionNode): string | undefined {
    const graph = callGraphOf(analysis.index);
    const name = graph.nameOf(fn);
    if (!name) return undefined;
    const ancestors = analysis.index.functions.find((f) => f.node === fn)?.ancestors ?? [];
    if (fn.type === 'ClassMethod') {
      const cls = ancestors[ancestors.length - 2];
      const className = (cls?.type === 'ClassDeclaration' || cls?.type === 'ClassExpression') && cls.id ? cls.id.name : undefined;
      return className && analysis.exportedNames.has(className) && ancestors.filter(isFunction).length === 0 ? `${className}.${name}` : undefined;
    }
    return ancestors.filter(isFunction).length === 0 && analysis.exportedNames.has(name) ? name : undefined;
  }

  /** Whether a function (a method: its class) is exported where it is declared (`export async function confirm`). */
  function exportedInline(fn: FunctionNode): boolean {
    const ancestors = analysis.index.functions.find((f) => f.node === fn)?.ancestors ?? [];
    const holder = fn.type === 'ClassMethod' ? ancestors[ancestors.length - 2] : fn.type === 'FunctionDeclaration' ? fn : ancestors[ancestors.length - 2];
    const parent = holder ? [...ancestors, fn][[...ancestors, fn].indexOf(holder) - 1] : undefined;
    return parent?.type === 'ExportNamedDeclaration';
  }

  /** The exported functions of this module that make the request, or reach it through calls here. */
  function askingExports(site: LegacySite): string[] {
    if (!site.enclosing || site.functions.length !== 1) return []; // asked from a callback inside it, not by it
    const graph = callGraphOf(analysis.index);
    const found: string[] = [];
    const seen = new Set<FunctionNode>();
    const queue: FunctionNode[] = [site.enclosing];
    while (queue.length > 0) {
      const fn = queue.shift()!;
      if (seen.has(fn)) continue;
      seen.add(fn);
      const exported = exportedNameOf(fn);
      if (exported) found.push(exported);
      const name = graph.nameOf(fn);
      if (!name) continue;
      for (const c of graph.calls) if (c.callee === name && c.member !== graph.plain(fn) && c.functions.length > 0) queue.push(c.functions[c.functions.length - 1]!);
    }
    return found;
  }

  /**
   * Uses of another module's split helper that no handler here asks through: a call outside a
   * handler, the function passed around, a call of a method of that name on an object nothing
   * here explains. Each keeps the helper whole (the engine splits it only if none is left).
   */
  function externalLeftovers(): Array<{ file: string; name: string; migrated: false }> {
    const helpers = options.externalHelpers;
    if (!helpers || helpers.size === 0) return [];
    const asked = new Set<Node>(externalVia.map((e) => e.site.call));
    const out: Array<{ file: string; name: string; migrated: false }> = [];
    const methods = new Map<string, ExternalHelper[]>();
    for (const [key, h] of helpers) if (key.includes('.')) methods.set(key.split('.')[1]!, [...(methods.get(key.split('.')[1]!) ?? []), h]);
    for (const call of callGraphOf(analysis.index).calls) {
      if (asked.has(call.call)) continue;
      const known = externalHelperOf(call);
      if (known?.split) out.push({ file: known.file, name: known.name, migrated: false });
      else if (!known && call.member) for (const h of methods.get(call.callee) ?? []) if (h.split) out.push({ file: h.file, name: h.name, migrated: false });
    }
    // The function named anywhere but in the calls asked through (passed as a callback, re-exported).
    const callees = new Set<Node>(externalVia.map((e) => (e.site.call as { callee: Node }).callee));
    walk(analysis.program, (node, parents) => {
      if (node.type !== 'Identifier' || callees.has(node)) return undefined;
      const h = helpers.get(node.name);
      const parent = parents[parents.length - 1];
      if (!h?.split || parent?.type === 'ImportSpecifier' || (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed)) return undefined;
      out.push({ file: h.file, name: h.name, migrated: false });
      return undefined;
    });
    return out;
  }

  /** The other module's helper a call calls: an imported function by its local name, or a method of an instance of an imported class. */
  function externalHelperOf(call: NamedCall): ExternalHelper | undefined {
    const helpers = options.externalHelpers!;
    const callee = call.call.callee;
    if (callee.type === 'Identifier') return helpers.get(callee.name);
    if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return undefined;
    const cls = receiverResolver(analysis.index, analysis.importedNames).classOf(callee.object, call.functions);
    if (!cls || cls === 'other' || !('imported' in cls)) return undefined;
    const local = [...analysis.importedNames].find(([, i]) => i.from === cls.from && i.imported === cls.imported)?.[0];
    return local ? helpers.get(`${local}.${callee.property.name}`) : undefined;
  }

  /** A call of another module's split helper, standing for its request (its halves imported by their exported names). */
  function externalViaSite(call: NamedCall, external: ExternalHelper, shape: SplitShape): LegacySite | undefined {
    const base = external.name.split('.').pop()!;
    const halves = [`${base}Request`, ...(shape.identity ? [] : [`${base}Result`])];
    // A function's halves are imported: a name this module already uses for something else stops it.
    if (!shape.method && halves.some((h) => analysis.declaredAnywhere.has(h) && analysis.importedNames.get(h)?.imported !== h)) return undefined;
    return viaSite(source, call, { name: base, ...shape, ...shapeCalls(base, shape) });
  }

  /** The context a handler hands on to a function it delegates to: its own parameter, or one added; undefined when it destructures it. */
  function callerContext(handler: HandlerSite): ContextParameter | undefined {
    const param = handler.fn.params[handler.ctxIndex];
    if (param && param.type !== 'Identifier') return undefined;
    const context = contextParameter(source, handler, [], referencedNames(handler.fn.body), analysis.typed);
    return context instanceof Refusal || context.paramEdit ? undefined : context;
  }

  /** The splits of the helpers on the way from a request to its handlers, or why not. */
  function helperTree(site: LegacySite): HelperTree | string {
    const graph = callGraphOf(analysis.index);
    const kept = (fn: FunctionNode) => {
      const name = graph.nameOf(fn);
      // `export { confirm }` would name a function the split removes.
      if (exportedNameOf(fn) && !exportedInline(fn)) return 'it is exported through an export list, which would name the function the split removes.';
      const taken = name ? [`${name}Request`, `${name}Result`].find((n) => analysis.declaredAnywhere.has(n) || graph.calls.some((c) => c.callee === n)) : undefined;
      return taken ? `the module already declares \`${taken}\`, a name the split needs.` : undefined;
    };
    return splitTree({ source, graph, index: analysis.index, imports: analysis.importedNames, handlers, typed: analysis.typed, eol, kept, exported: (fn) => exportedNameOf(fn) !== undefined }, site);
  }

  function addMarker(ancestors: readonly Node[], node: Node, refusal: Refusal) {
    const statement = [...ancestors].reverse().find(isStatementLike) ?? node;
    const lineStart = lineStartOf(source, statement.start!);
    if (markers.some((m) => m.lineStart === lineStart)) return;
    markers.push({ lineStart, indent: indentAt(source, statement.start!), code: refusal.code, reason: refusal.reason, next: refusal.next });
  }

  /**
   * A request made in a helper: the helper cannot suspend its caller. The helper's site and
   * every call that reaches it from a handler are marked, naming the chain. `why` it cannot be
   * split; undefined when it could, but a handler that calls it could not be migrated.
   */
  function markHelper(site: LegacySite, chain: HelperChain, why: string | undefined) {
    const ids = [...new Set(chain.reaching.map((r) => handlerId(r.handler)))];
    const reaching = { helper: chain.helper, handlers: ids.join(', '), reach: ids.length === 1 ? 'reaches' : 'reach' };
    mark(site, why === undefined ? refuse('in-helper', 'callerNotMigrated', reaching) : refuse('in-helper', 'unsplittable', { ...reaching, why }));
    markReaching(site, chain);
  }

  /** Every call from a handler on the way to a helper's request that stays: marked, naming the chain. */
  function markReaching(site: LegacySite, chain: HelperChain) {
    const line = String(site.call.loc!.start.line);
    for (const { handler, call, chain: names } of chain.reaching) {
      const refusal = refuse('via-helper', 'helperChain', { chain: names.map((n) => `\`${n}()\``).join(' → '), line, helper: chain.helper });
      markAt(call.call, call.ancestors, site.kind ?? 'elicit', handler, refusal);
    }
  }
}


/**
 * The checker's word on a receiver in doubt: the SDK's when the receiver's type is (a low-level
 * Server), or when `x` of `x.server` is (an McpServer); not when both are certainly other
 * types; undefined when either cannot tell (a stand-in interface, an unresolved type).
 */
function receiverVerdict(site: LegacySite, fromSdk: NonNullable<TypeFacts['fromSdk']>): boolean | undefined {
  const answers = [site.receiver, ...(site.asked && site.asked !== site.receiver ? [site.asked] : [])].map((n) => fromSdk(n.start!, n.end!));
  if (answers.includes(true)) return true;
  return answers.every((a) => a === false) ? false : undefined;
}

/** What other modules need of a split to ask through it. */
function shapeOf(split: HelperSplit): SplitShape {
  const { kind, resultType, valueType, method, requestArgs, resultArgs, identity } = split;
  return { kind, resultType, ...(valueType ? { valueType } : {}), method, requestArgs, resultArgs, identity };
}

/** A handler's outcome, and the sites of the cases left out of it (see dispatch-cases.ts). */
interface Outcome {
  result: HandlerPlan | Refusal;
  drops: Map<LegacySite, Refusal>;
}

function whole(result: HandlerPlan | Refusal): Outcome {
  return { result, drops: new Map() };
}

/**
 * The declarations the migration leaves unused, and how each goes: a statement of a migrated
 * handler is left out of its layout, other statements are removed (unless another edit
 * rewrites them), import specifiers are dropped with the import edits. `migrated`: each
 * migrated handler with the sites it migrates (not those of a case it leaves as it was).
 */
function unusedAfter(analysis: FileAnalysis, migrated: ReadonlyArray<{ plan: HandlerPlan; sites: LegacySite[] }>, edits: readonly Edit[]): DeadCode {
  if (migrated.length === 0 && edits.length === 0) return { edits: [], importDrops: new Map(), inBodies: new Set() };
  const replaced: Replaced[] = edits.map((e) => ({ start: e.start, end: e.end, text: e.text }));
  const renderable = new Set<number>();
  for (const { plan, sites } of migrated) {
    const asked = plan.points.flatMap((p) => p.requests.map((r) => r.requestText)).join('\n');
    // A thrown URL elicitation: the whole throw (its error class included) becomes the question.
    for (const site of sites) replaced.push({ start: (site.at ?? site.call).start!, end: (site.at ?? site.call).end!, text: asked });
    const visit = (list: ListPlan) => {
      for (const item of list.items) {
        if (item.type === 'plain') renderable.add(item.span.start);
        if (item.type === 'compound') for (const child of item.children) visit(child.list);
      }
    };
    visit(plan.tree);
  }
  const bodies = migrated.map((m) => m.plan.body);
  const dead = deadDeclarations(analysis.source, analysis.program, replaced, bodies, renderable);
  for (const { plan } of migrated) {
    const dropped = [...dead.inBodies].filter((at) => plan.body.start <= at && at < plan.body.end);
    if (dropped.length > 0 && plan.layout) plan.layout = dropStatements(plan.layout, plan.tree, new Set(dropped));
  }
  // A removal inside text another edit rewrites (a split helper) is that edit's business.
  return { ...dead, edits: dead.edits.filter((d) => !edits.some((e) => e.start < d.end && d.start < e.end)) };
}
