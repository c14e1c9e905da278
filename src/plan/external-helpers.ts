// Calls from this module's handlers into another module's helper that makes a request (the
// engine finds those helpers, PlanOptions.externalHelpers): asked through the helper's halves
// where the engine says it is split, marked otherwise. The engine splits a helper only if every
// call of it, in every module, migrates: each module reports its calls (FilePlan.externalCalls).
import type { Node } from '@babel/types';
import { walk } from '../analyse/ast.ts';
import { inlineLoad, literalImport } from '../analyse/module-imports.ts';
import { callGraphOf, handlersReaching, type HelperChain, type NamedCall } from '../analyse/call-graph.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import { addSite, askingExports, blockByHelper, blockReaching, exportedNameOf, markAt, type FilePlanning } from './file-planning.ts';
import { bindingStatement, dynamicallyBound, dynamicBinding, loadedVia, withBinding } from './dynamic-imports.ts';
import type { Edit } from '../core/vocabulary.ts';
import { viaSite } from './helper-tree.ts';
import { helperTree, shapeOf } from './place-sites.ts';
import type { HelperTree } from './helper-tree.ts';
import type { ExternalHelper, RefusedCall } from './plan-options.ts';
import { helperStep, isRefusalCode, Refusal, refuse, UNREACHED_IDS } from './refusal.ts';
import { handlerId } from './plan-handler.ts';
import { shapeCalls } from './split-helper.ts';
import { markWrittenEntries } from './legacy-entry-sites.ts';
import { lineOf } from '../core/line-refs.ts';
import type { FunctionNode } from '../analyse/ast.ts';
import { shortWhy, unsplitCaller } from './short-why.ts';
import type { CallerReach, FilePlan, SplitShape } from './types.ts';

export function placeExternalCalls(file: FilePlanning): void {
  const helpers = file.options.externalHelpers;
  if (!helpers || helpers.size === 0) return;
  for (const call of callGraphOf(file.analysis.index).calls) {
    const external = externalHelperOf(file, helpers, call);
    if (!external) continue;
    const handler = file.handlers.find((h) => call.functions.includes(h.fn));
    if (!handler) {
      placeWrappedCall(file, call, external);
      continue;
    }
    // Taken with import(): asked through the halves only where the handler's own statement binds it.
    const dynamic = dynamicallyBound(call.call, file.analysis.importedNames);
    const bound = !dynamic || dynamicBinding(handler.fn, dynamic, call.call) !== undefined;
    const via = external.split && bound ? externalViaSite(file, call, external, external.split) : undefined;
    if (via) {
      file.externalVia.push({ handler, site: via, external });
      addSite(file, handler, via);
      continue;
    }
    const why = bound ? keptWholeRefusal(file, handler, external) : keptWholeRefusal(file, handler, { ...external, dynamic: true });
    markAt(file, call.call, call.ancestors, external.kind ?? external.split?.kind ?? 'elicit', handler, why);
    blockByHelper(file, handler, external.name, call.call, call.ancestors);
  }
}

/**
 * Why a handler's call of another module's helper stays a call: the handler's own refusal where
 * it could not ask through the helper's halves (heldBack), the call elsewhere that keeps the
 * helper whole, or the helper itself.
 */
function keptWholeRefusal(file: FilePlanning, handler: HandlerSite, external: ExternalHelper): Refusal {
  const held = file.options.heldBack?.[handlerId(handler)];
  if (held && isRefusalCode(held.code)) return new Refusal(held.code, held.reason, held.next, undefined, held.marker);
  if (external.through && external.throughWhy)
    return refuse('via-helper', 'throughExportedUnsplit', {
      wrapper: external.name,
      helper: external.through,
      file: external.file,
      callFile: external.file,
      fileLine: String(external.line),
      why: external.throughWhy,
      short: shortWhy(external.throughWhy),
    });
  if (external.through)
    return refuse('via-helper', 'throughExported', {
      wrapper: external.name,
      helper: external.through,
      file: external.file,
      callFile: external.file,
      fileLine: String(external.line),
    });
  const kept = external.keptWhole;
  if (kept?.sibling && !external.dynamic)
    return refuse('via-helper', 'keptWholeSibling', { helper: external.name, sibling: kept.sibling, file: kept.file, fileLine: String(kept.line) });
  // The call that keeps it whole, and where the helper asks.
  const call = kept && {
    helper: external.name,
    helperFile: external.file,
    helperLine: String(external.line),
    file: kept.file,
    callFile: kept.file,
    fileLine: String(kept.line),
  };
  if (kept?.outside && !external.dynamic) return refuse('via-helper', 'keptWholeOutside', call!);
  if (kept?.caller && kept.why && !external.dynamic)
    return refuse('via-helper', 'keptWholeUnsplit', { helper: external.name, ...unsplitCaller(kept.caller, kept.file, kept.line, kept.why) });
  if (kept?.caller && !external.dynamic)
    return refuse('via-helper', UNREACHED_IDS.viaHelper[kept.callerReach ?? 'local'], {
      helper: external.name,
      caller: kept.caller,
      file: kept.file,
      callFile: kept.file,
      fileLine: String(kept.line),
    });
  if (kept && !external.dynamic) return refuse('via-helper', kept.dynamic ? 'keptWholeDynamic' : 'keptWhole', { ...call!, code: kept.code });
  return refuse('via-helper', external.dynamic ? 'otherModuleDynamic' : 'otherModule', {
    helper: external.name,
    file: external.file,
    fileLine: String(external.line),
    step: helperStep(external.kind ?? external.split?.kind ?? 'elicit'),
  });
}

/**
 * A call of another module's helper in a function of this module that handlers call (a local
 * wrapper, `const pick = (server) => chooseProject(server, 'Pick one')`): the function is split
 * as a helper asking through the other's halves, when it can be (with the functions on the way
 * to the handlers); otherwise the call, and each handler's call on the way to it, is marked.
 */
function placeWrappedCall(file: FilePlanning, call: NamedCall, external: ExternalHelper): void {
  const { analysis } = file;
  const wrapper = call.functions[call.functions.length - 1];
  const chain = wrapper && handlersReaching(callGraphOf(analysis.index), file.handlers, wrapper);
  // No handler reaches it and other modules cannot call it: a use that keeps the helper whole (externalLeftovers).
  if (!chain && !(wrapper && exportedNameOf(analysis, wrapper))) return;
  // Taken with import(): the function's own statement binds the halves instead, or it stays whole.
  const local = dynamicallyBound(call.call, analysis.importedNames);
  const through = (shape: SplitShape) => (local ? loadedViaSite(file, call, external, shape, local) : externalViaSite(file, call, external, shape));
  const dynamic = local !== undefined && external.split !== undefined && through(external.split) === undefined;
  const via = external.split && !dynamic ? through(external.split) : undefined;
  // Kept whole by the engine: what would keep this function whole is news, when it is its own.
  const own = !via && external.proposed ? through(external.proposed) : undefined;
  const ownWhy = own ? helperTree(file, own) : undefined;
  // A function that calls other modules' helpers at several points is split once, at all of them (maybe-ask-points.ts).
  if (via && wrapper && file.splitAtSeveral.has(wrapper)) return;
  const others = via && wrapper ? otherVias(file, wrapper, call) : [];
  const tree = via ? wrappedTree(file, via, others) : undefined;
  // Exported functions on the way are split only once the engine says every call of them migrates (deep-splits.ts).
  const pending = tree && typeof tree !== 'string' ? proposeExported(file, tree, call.call, external) : false;
  const exported = via && typeof tree !== 'string' && askingExports(analysis, via).length > 0;
  if (tree && typeof tree !== 'string' && !pending && (tree.handlerCalls.length > 0 || exported)) {
    if (others.length > 0) file.splitAtSeveral.add(wrapper!);
    const on = chain ?? { helper: tree.splits[0]!.split.name, reaching: [] };
    const also = typeof others !== 'string' && others.length > 0 ? { alsoThrough: others.map((o) => ({ call: o.site.call, external: o.external })) } : {};
    for (const s of tree.splits) file.splits.push({ ...s, chain: on, tree, ...(s.site === via ? { external, ...also } : {}) });
    markWrittenEntries(file, tree);
    for (const c of tree.handlerCalls) {
      addSite(file, c.handler, c.site);
      file.externalVia.push({ handler: c.handler, site: c.site, external, call: call.call });
    }
    return;
  }
  // Exported and no handler here reaches it: why it cannot be split is what keeps the helper whole.
  const unsplit = typeof tree === 'string' ? tree : typeof ownWhy === 'string' ? ownWhy : undefined;
  if (!chain && unsplit) UNSPLIT.set(call.call, unsplit);
  if (!chain) return;
  const why: WrappedWhy =
    typeof tree === 'string'
      ? { own: tree }
      : tree
        ? { exported: true }
        : external.dynamic || dynamic
          ? { imported: true }
          : typeof ownWhy === 'string'
            ? { own: ownWhy }
            : { kept: external.keptWhole };
  markWrappedCall(file, call.call, call.ancestors, external, chain, why);
}

/** The splits above `via` and the function's other calls of other modules' helpers (`others`), or why not. */
function wrappedTree(file: FilePlanning, via: LegacySite, others: ReturnType<typeof otherVias>): HelperTree | string {
  if (typeof others === 'string') return others;
  const points = others.map((o) => o.site);
  return boundTree(file, via, helperTree(file, via, points));
}

/**
 * The other calls of other modules' split helpers in `wrapper`, as the sites they stand for, split
 * with `call`'s at once; why not, when one of them cannot be asked through (or is loaded with import()).
 */
function otherVias(file: FilePlanning, wrapper: FunctionNode, call: NamedCall): Array<{ site: LegacySite; external: ExternalHelper }> | string {
  const helpers = file.options.externalHelpers!;
  const sites: Array<{ site: LegacySite; external: ExternalHelper }> = [];
  for (const other of callGraphOf(file.analysis.index).calls) {
    if (other === call || other.functions[other.functions.length - 1] !== wrapper) continue;
    const external = externalHelperOf(file, helpers, other);
    if (!external) continue;
    const site =
      external.split && !dynamicallyBound(other.call, file.analysis.importedNames) ? externalViaSite(file, other, external, external.split) : undefined;
    if (!site)
      return `it is a helper whose lines ${lineOf(call.call)} and ${lineOf(other.call)} both ask, the second through \`${external.name}()\`, which it cannot ask through.`;
    sites.push({ site, external });
  }
  return sites;
}

/**
 * Whether `tree` splits functions this module exports that the engine has not said to split
 * (PlanOptions.splitExported): each is reported with its split for the modules that call it,
 * and the call of the other module's helper it goes through (the split of one depends on the other's).
 */
function proposeExported(file: FilePlanning, tree: HelperTree, call: Node, external: ExternalHelper): boolean {
  const pending = tree.splits.filter((s) => {
    const name = exportedNameOf(file.analysis, s.site.enclosing!);
    return name !== undefined && !file.options.splitExported?.has(name);
  });
  for (const s of pending) {
    const name = exportedNameOf(file.analysis, s.site.enclosing!)!;
    const kind = external.kind ?? external.split?.kind;
    // It can keep an entry under its name for calls that cannot ask through its halves; `reached`: this module's handlers ask through it.
    const entry = s.split.legacyEntry ? { entry: true as const, ...(tree.handlerCalls.length > 0 ? { reached: true as const } : {}) } : {};
    file.exportedHelpers.push({ name, line: call.loc!.start.line, ...(kind ? { kind } : {}), split: shapeOf(s.split), asksThrough: external.name, ...entry });
  }
  return pending.length > 0;
}

/** Why a function of this module that calls another module's helper stays whole: its own form, its export, the helper kept whole (and the call that keeps it), or a handler that cannot migrate. */
export type WrappedWhy = { own: string } | { exported: true } | { imported: true } | { kept: RefusedCall | undefined } | { handler: true };

/** A call of another module's helper in a function of this module that stays whole, and every handler's call on the way to it, marked. */
export function markWrappedCall(
  file: FilePlanning,
  call: Node,
  ancestors: readonly Node[],
  external: ExternalHelper,
  chain: HelperChain,
  why: WrappedWhy,
): void {
  const kind = external.kind ?? external.split?.kind ?? external.proposed?.kind ?? 'elicit';
  markAt(file, call, ancestors, kind, undefined, wrappedRefusal(external, chain.helper, why));
  const line = String(call.loc!.start.line);
  for (const r of chain.reaching) {
    const names = [...r.chain, external.name].map((n) => `\`${n}()\``).join(' → ');
    const refusal = refuse('via-helper', 'helperChain', { chain: names, line, helper: external.name, step: helperStep(kind) });
    markAt(file, r.call.call, r.call.ancestors, kind, r.handler, refusal);
  }
  blockReaching(file, chain);
}

function wrappedRefusal(external: ExternalHelper, wrapper: string, why: WrappedWhy): Refusal {
  const where = { helper: external.name, wrapper, file: external.file, fileLine: String(external.line) };
  if ('handler' in why) return refuse('via-helper', 'otherModuleWrappedHandler', where);
  if ('imported' in why) return refuse('via-helper', 'otherModuleWrappedImport', where);
  if ('exported' in why)
    return refuse('via-helper', 'otherModuleWrapped', { ...where, why: 'it is exported: other modules call it too.', short: 'it is exported' });
  if ('own' in why) return refuse('via-helper', 'otherModuleWrapped', { ...where, why: why.own, short: shortWhy(why.own) });
  const kept = why.kept;
  if (!kept) return refuse('via-helper', 'otherModuleWrappedWhole', where);
  if (kept.sibling) return refuse('via-helper', 'otherModuleWrappedSibling', { ...where, sibling: kept.sibling });
  const call = { helperFile: external.file, helperLine: String(external.line), file: kept.file, callFile: kept.file, fileLine: String(kept.line) };
  if (kept.outside) return refuse('via-helper', 'otherModuleWrappedOutside', { helper: external.name, wrapper, ...call });
  if (kept.caller && kept.why)
    return refuse('via-helper', 'otherModuleWrappedUnsplit', {
      helper: external.name,
      wrapper,
      caller: kept.caller,
      ...call,
      why: kept.why,
      short: shortWhy(kept.why),
    });
  if (kept.caller)
    return refuse('via-helper', UNREACHED_IDS.wrapped[kept.callerReach ?? 'local'], { helper: external.name, wrapper, caller: kept.caller, ...call });
  return kept.dynamic
    ? refuse('via-helper', 'otherModuleWrappedDynamic', { helper: external.name, wrapper, ...call })
    : refuse('via-helper', 'otherModuleWrappedKept', { helper: external.name, wrapper, ...call, code: kept.code });
}

/**
 * For the engine: whether each call of another module's split helper migrated, and the uses
 * of one that no handler here asks through (`migrated` false: they keep the helper whole).
 */
export function externalCalls(file: FilePlanning, migrates: (handler: HandlerSite, site: LegacySite) => boolean): FilePlan['externalCalls'] {
  return [
    ...file.externalVia.map(({ handler, site, external }) => ({
      file: external.file,
      name: external.name,
      migrated: migrates(handler, site),
      handler: handlerId(handler),
    })),
    ...exportedWrapperCalls(file),
    ...externalLeftovers(file),
  ];
}

/** The calls of another module's helper in exported functions split to ask through its halves that no handler here calls: they migrate with the split. */
function exportedWrapperCalls(file: FilePlanning): FilePlan['externalCalls'] {
  const byHandlers = new Set(file.externalVia.map((e) => e.call));
  return file.splits.flatMap(({ site, external, alsoThrough = [] }) =>
    external && !byHandlers.has(site.call)
      ? [external, ...alsoThrough.map((a) => a.external)].map((e) => ({ file: e.file, name: e.name, migrated: true }))
      : [],
  );
}

/**
 * Uses of another module's split helper that no handler here asks through: a call outside a
 * handler, the function passed around, a call of a method of that name on an object nothing
 * here explains. Each keeps the helper whole (the engine splits it only if none is left).
 */
function externalLeftovers(file: FilePlanning): FilePlan['externalCalls'] {
  const helpers = file.options.externalHelpers;
  if (!helpers || helpers.size === 0) return [];
  const asked = new Set<Node>([
    ...file.externalVia.map((e) => e.call ?? e.site.call),
    ...file.splits.flatMap((s) => (s.external ? [s.site.call, ...(s.alsoThrough ?? []).map((a) => a.call)] : [])),
  ]);
  const out: FilePlan['externalCalls'] = [];
  const methods = new Map<string, ExternalHelper[]>();
  for (const [key, h] of helpers) if (key.includes('.')) methods.set(key.split('.')[1]!, [...(methods.get(key.split('.')[1]!) ?? []), h]);
  const graph = callGraphOf(file.analysis.index);
  for (const call of graph.calls) {
    if (asked.has(call.call)) continue;
    const known = externalHelperOf(file, helpers, call);
    if (known?.split || known?.through)
      out.push({ file: known.file, name: known.name, migrated: false, line: call.call.loc!.start.line, ...unreachedCaller(file, call) });
    else if (!known && call.member)
      for (const h of methods.get(call.callee) ?? []) if (h.split) out.push({ file: h.file, name: h.name, migrated: false, named: call.call.loc!.start.line });
  }
  // The function named anywhere but in the calls asked through (passed as a callback, re-exported).
  const callees = new Set<Node>([...asked].map((call) => (call as { callee: Node }).callee));
  walk(file.analysis.program, (node, parents) => {
    if (node.type !== 'Identifier' || callees.has(node)) return undefined;
    const h = helpers.get(node.name);
    const parent = parents[parents.length - 1];
    if (!h?.split || parent?.type === 'ImportSpecifier' || (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed))
      return undefined;
    // Where `const { confirm } = await import(...)` binds it, as an import specifier would.
    if (parent?.type === 'ObjectProperty' && literalImport(parents[parents.length - 3] && declaratorInit(parents[parents.length - 3]!))) return undefined;
    out.push({ file: h.file, name: h.name, migrated: false, named: node.loc!.start.line });
    return undefined;
  });
  return out;
}

/**
 * The named function a call is made in, with the call's line, when no handler of this module
 * makes or reaches it: what keeps the helper whole is that caller, not a handler's refusal.
 */
function unreachedCaller(file: FilePlanning, call: NamedCall): { unreached: { caller: string; line: number; reach?: CallerReach } } | Record<string, never> {
  const graph = callGraphOf(file.analysis.index);
  const fn = call.functions[call.functions.length - 1];
  const name = fn && graph.nameOf(fn);
  if (!name || file.handlers.some((h) => call.functions.includes(h.fn)) || handlersReaching(graph, file.handlers, fn)) return {};
  const owner = graph.classOf(fn)?.id?.name;
  const reach: CallerReach | undefined = owner ? 'method' : file.analysis.exportedNames.has(name) ? 'exported' : undefined;
  const why = reach === 'exported' ? UNSPLIT.get(call.call) : undefined;
  return { unreached: { caller: owner ? `${owner}.${name}` : name, line: call.call.loc!.start.line, ...(reach ? { reach } : {}), ...(why ? { why } : {}) } };
}

/** The other module's helper a call calls: an imported function by its local name, or a method of an instance of an imported class. */
function externalHelperOf(file: FilePlanning, helpers: ReadonlyMap<string, ExternalHelper>, call: NamedCall): ExternalHelper | undefined {
  const { analysis } = file;
  const callee = call.call.callee;
  if (callee.type === 'Identifier') return helpers.get(callee.name);
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return undefined;
  // `prompts.confirm(...)` with `import * as prompts from './prompts.js'` (or `const prompts = await import(...)`).
  const module = callee.object.type === 'Identifier' ? callee.object.name : inlineLoad(callee.object)?.name;
  if (module) {
    const whole = helpers.get(`${module}.${callee.property.name}`);
    if (analysis.importedNames.get(module)?.imported === '*' || whole?.dynamic) return whole;
  }
  const cls = receiverResolver(analysis.index, analysis.importedNames).classOf(callee.object, call.functions);
  if (!cls || cls === 'other' || !('imported' in cls)) return undefined;
  const local = [...analysis.importedNames].find(([, i]) => i.from === cls.from && i.imported === cls.imported)?.[0];
  return local ? helpers.get(`${local}.${callee.property.name}`) : undefined;
}

/** A call of another module's helper bound with import() in the function that makes it, standing for its request (see loadedVia). */
function loadedViaSite(file: FilePlanning, call: NamedCall, external: ExternalHelper, shape: SplitShape, local: string): LegacySite | undefined {
  const fn = call.functions[call.functions.length - 1];
  // Its carried type named through the request half it calls: a name import() binds is not one a type can use.
  const via =
    fn && !shape.method && !shape.carried?.opaque
      ? viaSite(file.source, call, { name: external.name, ...shape, ...shapeCalls(external.name, shape) })
      : undefined;
  const loaded = via && loadedVia(file.source, fn!, local, via, external.name);
  if (loaded) BINDINGS.set(loaded.via, loaded.binding);
  return loaded?.via;
}

/** Why an exported function no handler here reaches cannot be split to ask through the helper, by its call of the helper. */
const UNSPLIT = new WeakMap<Node, string>();

/** The edit of the property that binds the helper, by the site loadedViaSite made. */
const BINDINGS = new WeakMap<LegacySite, Edit>();

/** The tree with the split of the function that binds the helper with import() binding its request half there instead. */
function boundTree(file: FilePlanning, via: LegacySite, tree: HelperTree | string): HelperTree | string {
  const binding = BINDINGS.get(via);
  if (!binding || typeof tree === 'string') return tree;
  const statement = bindingStatement(via.enclosing!, dynamicallyBound(via.call, file.analysis.importedNames)!, via.call)!;
  const splits = tree.splits.map((s) => {
    if (s.site !== via) return s;
    const edit = withBinding(file.source, s.split.edit, binding, statement);
    return edit ? { ...s, split: { ...s.split, edit } } : undefined;
  });
  if (splits.some((s) => s === undefined)) return 'its request half does not keep the statement that loads the helper with import().';
  return { ...tree, splits: splits as HelperTree['splits'] };
}

/** A call of another module's split helper, standing for its request (its halves imported by their exported names). */
function externalViaSite(file: FilePlanning, call: NamedCall, external: ExternalHelper, shape: SplitShape): LegacySite | undefined {
  const { analysis } = file;
  const base = external.name.split('.').pop()!;
  const halves = [`${base}Request`, ...(shape.identity ? [] : [`${base}Result`])];
  // A function's halves are imported: a name this module already uses for something else stops it.
  if (!shape.method && halves.some((h) => analysis.declaredAnywhere.has(h) && analysis.importedNames.get(h)?.imported !== h)) return undefined;
  // A method's carried type cannot be named through its request half (`this.xRequest` is no type).
  if (shape.method && shape.carried?.opaque) return undefined;
  return viaSite(file.source, call, { name: base, ...shape, ...shapeCalls(base, shape) });
}

function declaratorInit(node: Node): Node | null | undefined {
  return node.type === 'VariableDeclarator' ? node.init : undefined;
}
