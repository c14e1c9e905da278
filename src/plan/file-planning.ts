// What planning one file keeps between its steps (see plan-file.ts): the sites placed so far,
// by handler; what blocks a handler before it is planned; the helpers split for their callers;
// and the markers and report lines written so far, in the order the plan lists them.
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { isFunction, isStatementLike, type FunctionNode } from '../analyse/ast.ts';
import { callGraphOf, type HelperChain } from '../analyse/call-graph.ts';
import { codeStyleOf, type CodeStyle } from '../analyse/code-style.ts';
import { registeredHandlers, type HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite, UrlElicitationThrow } from '../analyse/find-sites.ts';
import { registryHandlers, withRegistryHandlers } from '../analyse/registry-declarations.ts';
import { registeredInstances } from '../analyse/registry-links.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { type Edit, eolOf, indentAt, type InputKind, lineStartOf } from '../core/vocabulary.ts';
import type { Delegation } from './delegates.ts';
import { dispatchedMethods, linkedMethodHandlers, type BlockedDispatch, type Dispatch } from '../analyse/command-dispatch.ts';
import type { HelperTree } from './helper-tree.ts';
import { handlerId } from './plan-handler.ts';
import type { ExternalHelper, PlanOptions } from './plan-options.ts';
import { codeSnippet } from '../core/escape.ts';
import { helperStep, MARKER_QUOTE_MAX, markerLine, refuse, type Refusal } from './refusal.ts';
import { blockingTryLine } from './try-split.ts';
import { pointsOneCallReaches } from './maybe-ask-points.ts';
import { innermostWhy } from './short-why.ts';
import type { HelperSplit } from './split-helper.ts';
import type { FilePlan, Marker, SiteReport } from './types.ts';

/** A helper split for the handlers that reach it, with its tree (split whole, or not at all). */
export interface PlannedSplit {
  site: LegacySite;
  chain: HelperChain;
  split: HelperSplit;
  tree: HelperTree;
  /** Set on a function of this module that calls another module's split helper (`site` is that call): marked if its tree is left whole. */
  external?: ExternalHelper;
  /** Its other calls of other modules' split helpers, which it is split at too (its other points). */
  alsoThrough?: Array<{ call: Node; external: ExternalHelper }>;
}

/** A request in a helper that cannot be split, and why (or that is split, as `tree` says, only if handlers cannot delegate to it). */
export interface UnsplitHelper {
  site: LegacySite;
  chain: HelperChain;
  why: string;
  tree?: HelperTree;
}

/** A handler's call of another module's split helper, asked through its halves (`call`: the call of it in a function of this module the handler calls). */
export interface ExternalCall {
  handler: HandlerSite;
  site: LegacySite;
  external: ExternalHelper;
  call?: Node;
}

export interface FilePlanning {
  readonly analysis: FileAnalysis;
  readonly options: PlanOptions;
  readonly source: string;
  readonly eol: string;
  readonly style: CodeStyle;
  /** The file's handlers, and its functions other modules register as handlers (the engine found them). */
  readonly handlers: readonly HandlerSite[];
  /** The checker's word on each site whose receiver is in doubt (see receiverVerdict). */
  readonly verdicts: ReadonlyMap<LegacySite, boolean | undefined>;
  /** The sites planned: all but those the checker says are not MCP requests. */
  readonly candidates: readonly LegacySite[];
  /** Sites recognised by name only, kept for want of type facts. */
  readonly uncertain: number;
  readonly markers: Marker[];
  /** The markers written for a handler, by code and line: a repeat of one is counted on it, not written again. */
  readonly repeats: Map<string, { marker: Marker; text: string; more: number }>;
  readonly reports: SiteReport[];
  /** The sites each handler asks at (its own, and its calls of split helpers). */
  readonly byHandler: Map<HandlerSite, LegacySite[]>;
  readonly exportedHelpers: FilePlan['exportedHelpers'];
  /** Exported helpers an earlier run split and kept under their names (legacy-entry-sites.ts): split already. */
  readonly earlierEntries: string[];
  /** Calls from handlers into helpers that cannot be migrated: they block their handler (or, in a handler dispatching by tool name, their case). */
  readonly reachHelpers: Map<HandlerSite, Array<{ helper: string; call: Node; ancestors: readonly Node[] }>>;
  readonly splits: PlannedSplit[];
  /** Functions split at several calls of other modules' helpers: their later calls are placed with the first (external-helpers.ts). */
  readonly splitAtSeveral: Set<FunctionNode>;
  /** Sites refused before planning; their handler is then left whole too. */
  readonly preset: Map<LegacySite, Refusal>;
  /** Requests in helpers that cannot be split, decided once every site is placed (a delegation). */
  readonly deferred: UnsplitHelper[];
  /**
   * URL elicitations returned as input requests at once (see planUrlThrow), the return types of
   * their handlers widened to admit them, and the handlers one that cannot move leaves whole;
   * `inner`: those of a handler that asks more, which its rewrite writes where they are.
   */
  readonly urlThrows: {
    edits: Edit[];
    returnTypes: Edit[];
    planned: Array<{ t: UrlElicitationThrow; handler: HandlerSite }>;
    blocked: Set<HandlerSite>;
    inner: Array<{ t: UrlElicitationThrow; handler: HandlerSite; edit: Edit }>;
  };
  readonly externalVia: ExternalCall[];
  /** What handlers asking only through other modules' split helpers run again on each retry (FilePlan.rerunAtHelpers). */
  readonly rerunAtHelpers: NonNullable<FilePlan['rerunAtHelpers']>;
  /** The 2025-era arms of dual-era handlers deleted (see dual-era.ts), and the URL throws that went with them. */
  readonly dualEra: { edits: Edit[]; throws: Set<UrlElicitationThrow> };
  /** A framework's tools answered in place (see framework-placement.ts): their edits, imports included. */
  readonly frameworkEdits: Edit[];
  /** Functions handlers delegate to, migrated as handlers of their own, with the helper requests they hold. */
  readonly delegations: Array<{ delegation: Delegation; chains: UnsplitHelper[] }>;
  /** Command methods handlers dispatch to through an object, planned as handlers of their own. */
  readonly dispatches: readonly Dispatch[];
  /** Dispatches to such methods that their handlers cannot hand a context through: the markers on the way name them. */
  readonly blockedDispatches: readonly BlockedDispatch[];
}

export function startPlanning(analysis: FileAnalysis, options: PlanOptions): FilePlanning {
  const { source } = analysis;
  const registered = options.registeredAs?.length ? [...analysis.handlers, ...registeredHandlers(analysis.program, options.registeredAs)] : analysis.handlers;
  // Declarations of this module other modules' registries register (the engine found them).
  const declared = [
    ...(options.registries?.length ? registryHandlers(analysis.index, analysis.importedNames, [], options.registries) : []),
    ...(options.registeredAs?.some((r) => r.instance)
      ? registeredInstances(analysis.index, analysis.importedNames, analysis.program, options.registeredAs)
      : []),
  ];
  const registries = withRegistryHandlers(registered, declared);
  // Command methods handlers dispatch to are handlers of their own (see dispatch.ts).
  const dispatched = dispatchedMethods(analysis, registries);
  // And so are those handlers of other modules dispatch to (the engine linked them).
  const linked = options.dispatch?.methods?.length ? linkedMethodHandlers(analysis, options.dispatch.methods) : [];
  const handlers = [...registries, ...dispatched.dispatches.map((d) => d.handler), ...linked];
  // A call that only looks like a legacy request (an LLM client's own `.server.createMessage`)
  // is left alone when the checker says its receiver is not an MCP SDK object.
  const fromSdk = options.typeFacts?.fromSdk;
  const verdicts = new Map(analysis.sites.filter((s) => s.uncertain).map((s) => [s, fromSdk && !s.standIn ? receiverVerdict(s, fromSdk) : undefined]));
  return {
    analysis,
    options,
    source,
    eol: eolOf(source),
    style: codeStyleOf(source, analysis.program),
    handlers,
    verdicts,
    candidates: analysis.sites.filter((s) => verdicts.get(s) !== false),
    uncertain: fromSdk ? 0 : verdicts.size,
    markers: [],
    repeats: new Map(),
    reports: [],
    byHandler: new Map(),
    exportedHelpers: [],
    earlierEntries: [],
    reachHelpers: new Map(),
    splits: [],
    splitAtSeveral: new Set(),
    preset: new Map(),
    deferred: [],
    urlThrows: { edits: [], returnTypes: [], planned: [], blocked: new Set(), inner: [] },
    externalVia: [],
    rerunAtHelpers: [],
    dualEra: { edits: [], throws: new Set() },
    frameworkEdits: [],
    delegations: [],
    dispatches: dispatched.dispatches,
    blockedDispatches: dispatched.blocked,
  };
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

export function addSite(file: FilePlanning, handler: HandlerSite, site: LegacySite): void {
  const list = file.byHandler.get(handler);
  if (list) list.push(site);
  else file.byHandler.set(handler, [site]);
}

/** Each handler on the chain to a helper that stays is blocked by its call of it. */
export function blockReaching(file: FilePlanning, chain: HelperChain): void {
  for (const r of chain.reaching) blockByHelper(file, r.handler, chain.helper, r.call.call, r.call.ancestors);
}

export function blockByHelper(file: FilePlanning, handler: HandlerSite, helper: string, call: Node, ancestors: readonly Node[]): void {
  file.reachHelpers.set(handler, [...(file.reachHelpers.get(handler) ?? []), { helper, call, ancestors }]);
}

/** Reports a site as marked, and writes the marker above its statement. */
export function mark(file: FilePlanning, site: LegacySite, refusal: Refusal, handler?: HandlerSite): void {
  markAt(file, site.call, site.ancestors, site.kind ?? 'elicit', handler, refusal, site.kind ? KINDS[site.kind].guidance : undefined, site.at);
}

/** Reports `node` as marked, and writes the marker above its statement. */
export function markAt(
  file: FilePlanning,
  node: Node,
  ancestors: readonly Node[],
  kind: InputKind,
  handler: HandlerSite | undefined,
  refusal: Refusal,
  guidance?: string,
  reportAt: Node = node,
): void {
  const { line, column } = reportAt.loc!.start;
  file.reports.push({
    line,
    column: column + 1,
    kind,
    handler: handler ? handlerId(handler) : undefined,
    status: 'marked',
    code: refusal.code,
    reason: refusal.reason,
    next: refusal.next,
    marker: addMarker(file, ancestors, node, refusal, handler),
    guidance,
  });
}

export function markThrow(file: FilePlanning, t: UrlElicitationThrow, handler: HandlerSite | undefined, refusal: Refusal): void {
  markAt(file, t.statement, [...t.ancestors, t.statement], 'elicitUrl', handler, refusal);
}

/**
 * Writes the marker above the statement holding `node`, quoting `node` where its line names
 * the statement. One marker per handler and line: the same line again in the handler (each call
 * of one helper, say) is counted on the topmost marker, not written again.
 */
function addMarker(file: FilePlanning, ancestors: readonly Node[], node: Node, refusal: Refusal, handler: HandlerSite | undefined): string {
  const statement = [...ancestors].reverse().find(isStatementLike) ?? node;
  const lineStart = lineStartOf(file.source, statement.start!);
  const text = markerLine(refusal, quotedNode(file.source, node));
  const key = handler ? `${handlerId(handler)}\0${refusal.code}\0${text}` : undefined;
  const repeat = key === undefined ? undefined : file.repeats.get(key);
  const marker = { lineStart, indent: indentAt(file.source, statement.start!), code: refusal.code, text };
  if (file.markers.some((m) => m.lineStart === lineStart)) return text;
  if (!repeat) {
    file.markers.push(marker);
    if (key !== undefined) file.repeats.set(key, { marker, text, more: 0 });
    return text;
  }
  repeat.more++;
  // Kept on the topmost of them, so that the others are below it.
  const also = repeat.marker.also ?? [];
  if (lineStart < repeat.marker.lineStart) {
    also.push(repeat.marker.lineStart);
    Object.assign(repeat.marker, { lineStart, indent: marker.indent });
  } else also.push(lineStart);
  repeat.marker.also = also;
  const cut = text.indexOf(' — ');
  const more = ` (and ${repeat.more} more below)`;
  repeat.marker.text = cut < 0 ? `${text}${more}` : `${text.slice(0, cut)}${more}${text.slice(cut)}`;
  return text;
}

/** `node` as a marker quotes it: a call by its callee (`ctx.mcpReq.elicitInput(…)`), shortened. */
export function quotedNode(source: string, node: Node): string {
  const call = node.type === 'ThrowStatement' && node.argument.type === 'NewExpression' ? node.argument : node;
  if (call.type === 'CallExpression' || call.type === 'OptionalCallExpression' || call.type === 'NewExpression') {
    const prefix = `${call === node ? '' : 'throw '}${call.type === 'NewExpression' ? 'new ' : ''}`;
    const callee = codeSnippet(source.slice(call.callee.start!, call.callee.end!), MARKER_QUOTE_MAX - prefix.length - 3);
    return `\`${prefix}${callee}(${call.arguments.length > 0 ? '…' : ''})\``;
  }
  return `\`${codeSnippet(source.slice(node.start!, node.end!), MARKER_QUOTE_MAX)}\``;
}

/**
 * A request made in a helper: the helper cannot suspend its caller. The helper's site and
 * every call that reaches it from a handler are marked, naming the chain. `why` it cannot be
 * split; undefined when it could, but a handler that calls it could not be migrated.
 */
export function markHelper(
  file: FilePlanning,
  site: LegacySite,
  chain: HelperChain,
  why: string | undefined,
  refusedOnItsOwn: (handler: HandlerSite) => boolean = () => false,
): void {
  const ids = [...new Set(chain.reaching.map((r) => handlerId(r.handler)))];
  const reaching = { helper: chain.helper, handlers: ids.join(', '), reach: ids.length === 1 ? 'reaches' : 'reach', step: helperStep(site.kind ?? 'elicit') };
  // The handlers that could not be migrated are those refused on their own, when any is.
  const refused = [...new Set(chain.reaching.filter((r) => refusedOnItsOwn(r.handler)).map((r) => handlerId(r.handler)))];
  // Reached only through a command dispatch that could have resumed but for its handler: that says more than the helper's form.
  const through = chain.reaching.map((r) => file.blockedDispatches.find((b) => b.call === r.call.call)).find((b) => b !== undefined);
  mark(
    file,
    site,
    through
      ? refuse('in-helper', 'dispatchBlocked', {
          ...reaching,
          method: through.method,
          call: quotedNode(file.source, through.call),
          line: String(through.call.loc!.start.line),
          why: through.why,
          fix: through.fix,
        })
      : why === undefined
        ? refuse('in-helper', 'callerNotMigrated', refused.length > 0 ? { ...reaching, handlers: refused.join(', ') } : reaching)
        : unsplittable(reaching, why),
  );
  markReaching(file, site, { ...chain, reaching: chain.reaching.filter((r) => !refusedOnItsOwn(r.handler)) });
}

/** A helper that cannot be split, its marker naming the try statement that keeps it whole when the reason is that try, or the two points one call may reach. */
function unsplittable(reaching: Record<'helper' | 'handlers' | 'reach' | 'step', string>, why: string): Refusal {
  const line = blockingTryLine(why);
  const points = pointsOneCallReaches(why);
  if (line !== undefined) return refuse('in-helper', 'unsplittableAt', { ...reaching, why, blocker: '`try`', line: String(line) });
  if (points) return refuse('in-helper', 'unsplittablePoints', { ...reaching, why, ...points, stuck: innermostWhy(why, reaching.helper).stuck });
  return refuse('in-helper', 'unsplittable', { ...reaching, why });
}

/** Every call from a handler on the way to a helper's request that stays: marked, naming the chain. */
export function markReaching(file: FilePlanning, site: LegacySite, chain: HelperChain): void {
  const line = String(site.call.loc!.start.line);
  for (const { handler, call, chain: names } of chain.reaching) {
    const through = file.blockedDispatches.find((b) => b.call === call.call);
    const path = names.map((n) => `\`${n}()\``).join(' → ');
    const refusal = through
      ? refuse('via-helper', 'dispatchBlocked', { chain: path, line, method: through.method, why: through.why, fix: through.fix })
      : refuse('via-helper', 'helperChain', { chain: path, line, helper: chain.helper, step: helperStep(site.kind ?? 'elicit') });
    markAt(file, call.call, call.ancestors, site.kind ?? 'elicit', handler, refusal);
  }
}

/**
 * The name under which other modules call a function of this module: an exported top-level
 * function (or const), or `Class.method` for a method of an exported class.
 */
export function exportedNameOf(analysis: FileAnalysis, fn: FunctionNode): string | undefined {
  const name = callGraphOf(analysis.index).nameOf(fn);
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
export function exportedInline(analysis: FileAnalysis, fn: FunctionNode): boolean {
  const ancestors = analysis.index.functions.find((f) => f.node === fn)?.ancestors ?? [];
  const holder = fn.type === 'ClassMethod' ? ancestors[ancestors.length - 2] : fn.type === 'FunctionDeclaration' ? fn : ancestors[ancestors.length - 2];
  const parent = holder ? [...ancestors, fn][[...ancestors, fn].indexOf(holder) - 1] : undefined;
  return parent?.type === 'ExportNamedDeclaration';
}

/** The exported functions of this module that make the request, or reach it through calls here. */
export function askingExports(analysis: FileAnalysis, site: LegacySite): string[] {
  if (!site.enclosing || site.functions.length !== 1) return []; // asked from a callback inside it, not by it
  const graph = callGraphOf(analysis.index);
  const found: string[] = [];
  const seen = new Set<FunctionNode>();
  const queue: FunctionNode[] = [site.enclosing];
  while (queue.length > 0) {
    const fn = queue.shift()!;
    if (seen.has(fn)) continue;
    seen.add(fn);
    const exported = exportedNameOf(analysis, fn);
    if (exported) found.push(exported);
    const name = graph.nameOf(fn);
    if (!name) continue;
    for (const c of graph.calls)
      if (c.callee === name && c.member !== graph.plain(fn) && c.functions.length > 0) queue.push(c.functions[c.functions.length - 1]!);
  }
  return found;
}
