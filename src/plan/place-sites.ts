// The first steps of planning a file (see plan-file.ts): each legacy site goes to the handler
// that asks at it (its own, or one that reaches it through helpers this module splits), or is
// marked where it is; so do URL elicitations thrown as errors, and functions handlers delegate
// to, which are migrated as handlers of their own.
import { innermostWhy, unsplitCaller } from './short-why.ts';
import { findInitHooks } from '../analyse/init-hooks.ts';
import type { Node } from '@babel/types';
import { callGraphOf, handlersReaching, type HelperChain } from '../analyse/call-graph.ts';
import { urlThrowSites, type LegacySite } from '../analyse/find-sites.ts';
import { contextParam, type HandlerSite } from '../analyse/find-handlers.ts';
import { argumentParams, referencedNames, type FunctionNode } from '../analyse/ast.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import { v1ServerName } from '../analyse/v1-server-source.ts';
import { codeSnippet } from '../core/escape.ts';
import type { InputKind } from '../core/vocabulary.ts';
import { contextParameter, type ContextParameter } from './context-parameter.ts';
import { delegationTo } from './delegates.ts';
import {
  addSite,
  askingExports,
  blockByHelper,
  blockReaching,
  exportedInline,
  exportedNameOf,
  mark,
  markAt,
  markHelper,
  markReaching,
  markThrow,
  quotedNode,
  type FilePlanning,
} from './file-planning.ts';
import type { BlockedDispatch } from '../analyse/command-dispatch.ts';
import { splitTree, type HelperTree } from './helper-tree.ts';
import { handlerId } from './plan-handler.ts';
import type { UntiedCallIn } from './plan-options.ts';
import { helperStep, refuse, Refusal, UNREACHED_IDS } from './refusal.ts';
import { serverTypeNames } from './server-type-names.ts';
import { selfContained, type HelperSplit } from './split-helper.ts';
import type { SplitShape } from './types.ts';
import { planUrlThrow } from './url-elicitation.ts';
import { constDeclarations } from '../analyse/file-index.ts';
import { markWrittenEntries, placeEarlierEntry } from './legacy-entry-sites.ts';

/**
 * Sites refused before any handler is planned: every site of a module on the v1 SDK (imported
 * here, or through a module of the project that stays on v1: v1 has no MRTR, and v2 calls
 * would not run on its server), a receiver not known to be the SDK's, an optional call.
 */
export function presetRefusals(file: FilePlanning): void {
  const { analysis, options, source, handlers } = file;
  const v1 = v1ServerName(analysis.importedNames.values(), analysis.index);
  const onV1 = v1
    ? refuse('legacy-sdk', 'importsV1', { name: codeSnippet(v1.imported), specifier: codeSnippet(v1.from) })
    : options.v1Through
      ? refuse('legacy-sdk', 'reachesV1', { specifier: codeSnippet(options.v1Through) })
      : undefined;
  for (const site of file.candidates) {
    if (onV1) {
      file.preset.set(site, onV1.at(site));
      continue;
    }
    // A function handed in, called where no handler reaches and no other module can: whatever it
    // is, it asks outside a request (below), which says more than an unknown receiver.
    if (
      site.handedIn &&
      !handlers.some((h) => site.functions.includes(h.fn)) &&
      askingExports(analysis, site).length === 0 &&
      !handlersReaching(callGraphOf(analysis.index), handlers, site.enclosing)
    )
      continue;
    const reference = () => codeSnippet(source.slice(site.call.start!, (site.call as { callee?: Node }).callee?.end ?? site.call.end!));
    const receiver = () => codeSnippet(source.slice(site.receiver.start!, site.receiver.end!));
    // Refuse rather than guess: only the method name says this is an MCP request.
    const inDoubt = site.uncertain && file.verdicts.get(site) !== true;
    if (site.unreadable === 'contextPush') {
      // A framework's push method on its context, or the SDK's names on another object.
      const refusal =
        site.shape.receiver === '*'
          ? refuse('unknown-receiver', 'wrapperPush', { receiver: receiver(), method: codeSnippet(site.shape.method) })
          : refuse('unknown-receiver', 'contextPush', { receiver: receiver() });
      file.preset.set(site, refusal.at(site));
    } else if (site.unreadable === 'handRolled') {
      file.preset.set(site, refuse('unknown-request', 'handRolled', { reference: reference(), method: codeSnippet(site.requestMethod ?? '') }).at(site));
    } else if (site.unreadable) {
      file.preset.set(site, refuse('unfollowed-reference', site.unreadable, { reference: reference() }).at(site));
    } else if (site.handedOn) {
      const reference = codeSnippet(source.slice(site.call.start!, site.call.end!));
      const words = { reference, receiver: receiver(), method: codeSnippet(site.shape.method) };
      file.preset.set(
        site,
        (inDoubt ? refuse('unknown-receiver', 'invokedIndirectly', words) : refuse('unfollowed-reference', 'handedOn', { reference })).at(site),
      );
    } else if (inDoubt) {
      file.preset.set(site, refuse('unknown-receiver', options.typesMissing ? 'typesMissing' : 'notAnMcpObject', { receiver: receiver() }).at(site));
    } else if (site.call.type === 'OptionalCallExpression') {
      // `x?.elicitInput(...)` asks only sometimes; the rewrite would make it always ask.
      file.preset.set(site, refuse('optional-call', 'optionalCall').at(site));
    }
  }
}

/** Places every candidate site: with its handler, with the handlers a split helper asks for, or marked. */
export function placeSites(file: FilePlanning): void {
  for (const site of file.candidates) {
    const owner = file.handlers.find((h) => site.functions.includes(h.fn));
    const refused = file.preset.get(site);
    if (refused && !owner) {
      mark(file, site, refused);
      // Its handlers, here and in other modules, still reach it: they are marked too.
      for (const name of askingExports(file.analysis, site)) file.exportedHelpers.push({ name, line: site.call.loc!.start.line, ...kindOf(site) });
      const chain = handlersReaching(callGraphOf(file.analysis.index), file.handlers, site.enclosing);
      if (chain) {
        markReaching(file, site, chain);
        blockReaching(file, chain);
      }
    } else if (refused || owner) addSite(file, owner!, site);
    else placeHelperSite(file, site);
  }
}

/**
 * A request outside every handler. A helper asked through by handlers is split (with the
 * helpers on the way) when the whole tree can be. One this module exports is asked through by
 * other modules' handlers too: it is split only when the engine says every one of them
 * migrates (splitExported); until then it is marked, and what its split would be is reported
 * for those modules to plan with.
 */
function placeHelperSite(file: FilePlanning, site: LegacySite): void {
  const { analysis, options } = file;
  const exported = askingExports(analysis, site);
  const chain = handlersReaching(callGraphOf(analysis.index), file.handlers, site.enclosing);
  if (placeEarlierEntry(file, site, chain)) return;
  const tree = helperTree(file, site);
  const pending =
    typeof tree !== 'string'
      ? tree.splits.filter(
          (s) => exportedNameOf(analysis, s.site.enclosing!) !== undefined && !options.splitExported?.has(exportedNameOf(analysis, s.site.enclosing!)!),
        )
      : [];
  // A method a dispatch reaches that could not hand it the context: split, it would leave the dispatch calling a method that is gone.
  const dispatched = file.blockedDispatches.find((b) => b.methods.some((m) => site.functions.includes(m)));
  if (dispatched) {
    markDispatched(file, site, dispatched);
    return;
  }
  const splits = typeof tree !== 'string' && pending.length === 0 && (tree.handlerCalls.length > 0 || exported.length > 0);
  // A function handlers delegate to (`return this.review(args)`) that may answer without asking
  // is migrated as a handler of its own, as before it could be split; split only if it cannot be.
  if (
    splits &&
    chain &&
    exported.length === 0 &&
    tree.splits.some((s) => s.split.maybeAsk) &&
    typeof delegationTo(callGraphOf(analysis.index), file.handlers, site.enclosing!) !== 'string'
  ) {
    file.deferred.push({ site, chain, why: 'it is delegated to.', tree });
    return;
  }
  if (splits) {
    placeTree(file, tree, chain);
    return;
  }
  for (const name of exported) {
    const proposed = pending.find((s) => exportedNameOf(analysis, s.site.enclosing!) === name);
    const entry = proposed?.split.legacyEntry ? { entry: true as const, ...(chain ? { reached: true as const } : {}) } : {};
    file.exportedHelpers.push({ name, line: site.call.loc!.start.line, ...kindOf(site), ...(proposed ? { split: shapeOf(proposed.split), ...entry } : {}) });
  }
  if (chain) {
    const why =
      typeof tree === 'string'
        ? tree
        : 'it is exported: other modules call it too, and it is split only once each of their handlers can be migrated (this run could not show that).';
    // Not split: a function its handlers delegate to may still be migrated as a handler (placeDelegations).
    if (exported.length === 0) file.deferred.push({ site, chain, why });
    else {
      markHelper(file, site, chain, why);
      blockReaching(file, chain);
    }
  } else if (analysis.unnamedHandlers.some((call) => site.ancestors.includes(call))) {
    mark(file, site, refuse('unknown-tool-name', 'computedName'));
  } else if (exported.length > 0) {
    // The helper the engine keeps whole may be one it calls (`isAllowed()`, which another module's
    // refused handler calls too): named, its reason says what to fix.
    // One kept whole for its own reason before one kept whole with it (it shares the request: `sibling`).
    const keptNames = typeof tree === 'string' ? [] : [...exported].reverse().filter((name) => file.options.keptWhole?.[name]);
    const keptName = keptNames.find((name) => !file.options.keptWhole![name]!.sibling) ?? keptNames[0];
    const first = keptName ?? exported[exported.length - 1]!;
    const kept = keptName === undefined ? undefined : file.options.keptWhole![keptName];
    mark(
      file,
      site,
      typeof tree === 'string'
        ? refuse('in-helper', 'exportedUnsplittable', { helper: first, why: tree, step: helperStep(site.kind ?? 'elicit'), ...innermostWhy(tree, first) })
        : kept?.unlinked
          ? refuse('in-helper', 'exportedCallerUnlinked', {
              helper: first,
              caller: kept.caller!,
              callFile: kept.unlinked.file,
              fileLine: String(kept.unlinked.line),
              why: kept.unlinked.why,
              fix: kept.unlinked.fix,
            })
          : kept?.caller && kept.why
            ? refuse('in-helper', 'exportedCallerUnsplit', { helper: first, ...unsplitCaller(kept.caller, kept.file, kept.line, kept.why) })
            : kept?.caller
              ? refuse('in-helper', UNREACHED_IDS.inHelper[kept.callerReach ?? 'local'], {
                  helper: first,
                  caller: kept.caller,
                  file: kept.file,
                  callFile: kept.file,
                  fileLine: String(kept.line),
                })
              : kept?.outside
                ? refuse('in-helper', 'exportedCallOutside', { helper: first, file: kept.file, callFile: kept.file, fileLine: String(kept.line) })
                : kept && !kept.sibling
                  ? refuse('in-helper', kept.dynamic ? 'exportedDynamicCall' : 'exportedCallRefused', {
                      helper: first,
                      file: kept.file,
                      callFile: kept.file,
                      fileLine: String(kept.line),
                      code: kept.code,
                    })
                  : // It splits (tree is one), yet no handler of this run was shown to call it.
                    noCallerRefusal(first, file.options.untiedCalls?.[first], helperStep(site.kind ?? 'elicit')),
    );
  } else {
    const factory = factoryReturning(file, site);
    const context = factory === undefined ? contextParameterOf(file, site) : undefined;
    mark(
      file,
      site,
      factory !== undefined
        ? refuse('unregistered-handler', 'returnedByFactory', { factory })
        : context
          ? refuse('unregistered-handler', context.through ? 'contextParameter' : 'takesContext', { context: context.context })
          : refuse('no-request-to-answer', 'outsideHandler'),
    );
  }
}

/** A request in a method a blocked dispatch reaches: marked, naming the dispatch, and the dispatching handler blocked. */
function markDispatched(file: FilePlanning, site: LegacySite, b: BlockedDispatch): void {
  const owner = callGraphOf(file.analysis.index).classOf(b.methods.find((m) => site.functions.includes(m))!)?.id?.name;
  const helper = owner ? `${owner}.${b.method}` : b.method;
  mark(
    file,
    site,
    refuse('in-helper', 'dispatchBlocked', {
      helper,
      handlers: handlerId(b.handler),
      reach: 'reaches',
      method: b.method,
      call: quotedNode(file.source, b.call),
      line: String(b.call.loc!.start.line),
      why: b.why,
      fix: b.fix,
    }),
  );
  blockByHelper(file, b.handler, helper, b.call, b.handler.ancestors);
}

/** A tree of splits placed: each helper split, each handler's call of the outermost a site it asks at. */
function placeTree(file: FilePlanning, tree: HelperTree, chain: HelperChain | undefined): void {
  for (const s of tree.splits) file.splits.push({ ...s, chain: chain ?? { helper: tree.splits[0]!.split.name, reaching: [] }, tree });
  for (const c of tree.handlerCalls) addSite(file, c.handler, c.site);
  markWrittenEntries(file, tree);
}

/**
 * The function (its name, quoted) that returns the function making the request (`return async () =>
 * ...`, `(env) => async (args) => ...`): a factory of handlers, which a project registers through
 * a registry or a loop of its own (`tools.map((t) => server.registerTool(t.name, t.config,
 * t.build(env)))`). Undefined when no function on the way is returned.
 */
function factoryReturning(file: FilePlanning, site: LegacySite): string | undefined {
  const { index } = file.analysis;
  for (let i = site.functions.length - 1; i > 0; i--) {
    const [fn, outer] = [site.functions[i]!, site.functions[i - 1]!];
    const parent = index.functions.find((f) => f.node === fn)?.ancestors.at(-1);
    const returned = (parent?.type === 'ReturnStatement' && parent.argument === fn) || (outer.type === 'ArrowFunctionExpression' && outer.body === fn);
    if (!returned) continue;
    const name = callGraphOf(index).nameOf(outer);
    return name ? `\`${codeSnippet(name)}\`` : 'a function around it';
  }
  return undefined;
}

/**
 * The request context a request outside every known handler goes through (`ctx.mcpReq.elicitInput`,
 * v1's `extra.sendRequest`), or that the function making it takes (`async (args, ctx) => ...`
 * asking `server.server`): only a request handler is handed one, so the function is a handler the
 * codemod could not tie to its registration, unless it is registered as a request or
 * notification handler of another kind.
 */
function contextParameterOf(file: FilePlanning, site: LegacySite): { context: string; through: boolean } | undefined {
  const through = site.shape.receiver === 'ctx.mcpReq' || site.shape.receiver === 'ctx';
  let fn: FunctionNode | undefined;
  let context: string | undefined;
  if (through && site.destructured) [fn, context] = [site.destructured.fn, 'mcpReq'];
  else if (through) {
    const binding = receiverResolver(file.analysis.index, file.analysis.importedNames).bindingOf(site.receiverHead, site.functions);
    if (binding?.kind === 'param') [fn, context] = [binding.fn, site.receiverHead];
  } else {
    for (const f of [...site.functions].reverse()) {
      const param = argumentParams(f).find((p) => contextLike(p, file.source));
      if (param?.type === 'Identifier') {
        [fn, context] = [f, param.name];
        break;
      }
    }
  }
  if (!fn || !context) return undefined;
  const ancestors = file.analysis.index.functions.find((f) => f.node === fn)?.ancestors ?? [];
  const holder = ancestors.at(-1);
  // `server.setRequestHandler('completion/complete', ...)`, `setNotificationHandler(...)`: registered, and not to answer.
  const registration =
    holder?.type === 'CallExpression' &&
    holder.callee.type === 'MemberExpression' &&
    holder.callee.property.type === 'Identifier' &&
    /^set\w*Handler$/.test(holder.callee.property.name);
  // `new ResourceTemplate(uri, { list, complete })`: resources/list and completion, which do not answer either.
  const templateCallback = ancestors.some((a) => a.type === 'NewExpression' && a.callee.type === 'Identifier' && a.callee.name === 'ResourceTemplate');
  return registration || templateCallback ? undefined : { context: codeSnippet(context), through };
}

/** A parameter that holds a request handler's context: typed as the SDK's, or named as handlers name it. */
function contextLike(param: Node, source: string): boolean {
  if (param.type !== 'Identifier') return false;
  const annotation = param.typeAnnotation?.type === 'TSTypeAnnotation' ? source.slice(param.typeAnnotation.start!, param.typeAnnotation.end!) : '';
  return annotation ? /(Context|Extra)\b/.test(annotation) : /^_?(ctx|context|extra)$/.test(param.name);
}

function kindOf(site: LegacySite): { kind?: InputKind } {
  return site.kind ? { kind: site.kind } : {};
}

/** What other modules need of a split to ask through it. */
export function shapeOf(split: HelperSplit): SplitShape {
  const { kind, resultType, valueType, method, requestArgs, resultArgs, identity, maybeAsk, takesContext, asyncResult, carried, push } = split;
  return {
    kind,
    resultType,
    ...(valueType && !split.localValueType ? { valueType } : {}),
    method,
    requestArgs,
    resultArgs,
    identity,
    ...(maybeAsk ? { maybeAsk } : {}),
    ...(takesContext ? { takesContext } : {}),
    ...(asyncResult ? { asyncResult } : {}),
    ...(carried ? { carried: carried.type === undefined || selfContained(carried.type) ? carried : { value: carried.value, opaque: true as const } } : {}),
    ...(push ? { push } : {}),
  };
}

/** The splits of the helpers on the way from a request to its handlers, or why not. */
export function helperTree(file: FilePlanning, site: LegacySite, others: readonly LegacySite[] = []): HelperTree | string {
  const { analysis } = file;
  // No request half can build a request whose method nothing here reads (`send(request)`).
  if (site.kind === undefined) return 'the request it sends names no method the codemod can read.';
  const graph = callGraphOf(analysis.index);
  const kept = (fn: FunctionNode) => {
    const name = graph.nameOf(fn);
    // `export { confirm }` would name a function the split removes.
    if (exportedNameOf(analysis, fn) && !exportedInline(analysis, fn))
      return 'it is exported through an export list, which would name the function the split removes.';
    const taken = name
      ? [`${name}Request`, `${name}Result`].find((n) => analysis.declaredAnywhere.has(n) || graph.calls.some((c) => c.callee === n))
      : undefined;
    return taken ? `the module already declares \`${taken}\`, a name the split needs.` : undefined;
  };
  const exported = (fn: FunctionNode) => exportedNameOf(analysis, fn) !== undefined;
  return splitTree(
    {
      source: file.source,
      graph,
      index: analysis.index,
      imports: analysis.importedNames,
      handlers: file.handlers,
      types: analysis.typed ? serverTypeNames(analysis) : undefined,
      eol: file.eol,
      purity: { analysis, facts: file.options.typeFacts, idempotent: file.options.idempotent ?? [] },
      ...(file.options.legacyEntries ? { legacyEntries: file.options.legacyEntries } : {}),
      kept,
      exported,
    },
    [site, ...others],
  );
}

/**
 * URL elicitations thrown as errors: questions of their handler where code follows them,
 * input requests returned at once where nothing does (see planUrlThrow). One that cannot move
 * leaves its handler whole.
 */
export function placeUrlThrows(file: FilePlanning): void {
  const declarations = constDeclarations(file.analysis.index);
  for (const t of file.analysis.urlThrows) {
    if (file.dualEra.throws.has(t)) continue;
    const handler = file.handlers.find((h) => h.fn === t.functions[t.functions.length - 1]);
    const asks = handler ? (file.byHandler.get(handler) ?? []).map((s) => ({ start: (s.at ?? s.call).start! })) : [];
    const outcome = planUrlThrow(t, handler && { fn: handler.fn, ctxIndex: handler.ctxIndex, asks }, { source: file.source, eol: file.eol, declarations });
    if (outcome === 'question') {
      for (const site of urlThrowSites(t)) addSite(file, handler!, site);
    } else if (outcome instanceof Refusal) {
      markThrow(file, t, handler, outcome);
      if (handler) file.urlThrows.blocked.add(handler);
    } else if (outcome.inner) {
      // Written by the handler's rewrite, and reported with it (see reportHandlers).
      file.urlThrows.inner.push({ t, handler: handler!, edit: outcome.edit });
    } else {
      file.urlThrows.edits.push(outcome.edit);
      // Two throws of one handler (an if and its else) widen its return type once.
      const { returnType } = outcome;
      if (returnType && !file.urlThrows.returnTypes.some((e) => e.start === returnType.start)) file.urlThrows.returnTypes.push(returnType);
      file.urlThrows.planned.push({ t, handler: handler! });
      const { line, column } = t.statement.loc!.start;
      file.reports.push({ line, column: column + 1, kind: 'elicitUrl', handler: handlerId(handler!), status: 'migrated', lifted: [] });
    }
  }
}

/**
 * A handler registered from `oninitialized` never exists for a 2026-07-28 client: there is no
 * initialize on that revision, so the hook never runs. Marked where its registration cannot
 * move to where the hook is set (it reads what the hook or the session gives).
 */
export function markLateRegistrations(file: FilePlanning): void {
  // Those that only register move to where the hook is set (rewrite/init-hooks.ts).
  const moving = findInitHooks(file.analysis).flatMap((h) => h.moves);
  for (const handler of file.handlers) {
    if (moving.some((s) => s.start! <= handler.call.start! && handler.call.end! <= s.end!)) continue;
    const hook = handler.ancestors.find(
      (a) =>
        a.type === 'AssignmentExpression' &&
        a.left.type === 'MemberExpression' &&
        !a.left.computed &&
        a.left.property.type === 'Identifier' &&
        a.left.property.name === 'oninitialized',
    );
    if (!hook || !file.byHandler.has(handler)) continue;
    const refusal = refuse('registered-late', 'fromOninitialized', { handler: handlerId(handler) });
    markAt(file, handler.call, handler.ancestors, file.byHandler.get(handler)![0]!.kind ?? 'elicit', handler, refusal);
  }
}

/**
 * Functions handlers delegate to (`return await this.handleX(args)`): migrated as handlers of
 * their own, when the handlers that call them ask nothing themselves. Else marked, as helpers.
 */
export function placeDelegations(file: FilePlanning): void {
  undoSplitsForDelegations(file);
  const graph = callGraphOf(file.analysis.index);
  for (const fn of new Set(file.deferred.map((d) => d.site.enclosing!))) {
    const mine = file.deferred.filter((d) => d.site.enclosing === fn);
    const delegation = delegationTo(graph, file.handlers, fn);
    const ok = typeof delegation !== 'string' && delegation.calls.every((c) => !file.byHandler.has(c.handler) && callerContext(file, c.handler) !== undefined);
    if (ok) {
      file.delegations.push({ delegation, chains: mine });
      for (const d of mine) addSite(file, delegation.handler, d.site);
      continue;
    }
    for (const { site, chain, why, tree } of mine) {
      if (tree) placeTree(file, tree, chain);
      else {
        markHelper(file, site, chain, why);
        blockReaching(file, chain);
      }
    }
  }
}

/**
 * A helper that was split for a handler that also delegates to one that cannot be: delegated
 * too, so that the handler (asking nothing itself) needs no state of its own.
 */
function undoSplitsForDelegations(file: FilePlanning): void {
  const { analysis, handlers, byHandler, splits } = file;
  const graph = callGraphOf(analysis.index);
  const delegating = new Set(
    [...new Set(file.deferred.map((d) => d.site.enclosing!))].flatMap((fn) => {
      const d = delegationTo(graph, handlers, fn);
      return typeof d === 'string' ? [] : d.calls.map((c) => c.handler);
    }),
  );
  const direct = (h: HandlerSite) => (byHandler.get(h) ?? []).some((x) => !x.via);
  for (const tree of new Set(splits.map((s) => s.tree))) {
    if (tree.splits.length !== 1 || !tree.handlerCalls.some((c) => delegating.has(c.handler)) || tree.handlerCalls.some((c) => direct(c.handler))) continue;
    const { site, split } = tree.splits[0]!;
    if (exportedNameOf(analysis, site.enclosing!) || typeof delegationTo(graph, handlers, site.enclosing!) === 'string') continue;
    for (const c of tree.handlerCalls) {
      const rest = byHandler.get(c.handler)!.filter((x) => x !== c.site);
      if (rest.length > 0) byHandler.set(c.handler, rest);
      else byHandler.delete(c.handler);
    }
    splits.splice(0, splits.length, ...splits.filter((x) => x.tree !== tree));
    file.deferred.push({ site, chain: handlersReaching(graph, handlers, site.enclosing) ?? { helper: split.name, reaching: [] }, why: 'it is delegated to.' });
  }
}

/** The context a handler hands on to a function it delegates to: its own parameter, or one added; undefined when it destructures it. */
export function callerContext(file: FilePlanning, handler: HandlerSite): ContextParameter | undefined {
  const param = contextParam(handler);
  if (param && param.type !== 'Identifier') return undefined;
  const context = contextParameter(file.source, handler, [], referencedNames(handler.fn.body), file.analysis.typed);
  return context instanceof Refusal || context.paramEdit ? undefined : context;
}

/** Why an exported helper that would split stays whole with no handler shown to call it: a call the run could not tie to its class, or none. */
function noCallerRefusal(helper: string, untied: UntiedCallIn | undefined, step: string): Refusal {
  if (!untied) return refuse('in-helper', 'exportedNoCaller', { helper, step });
  const at = { helper, file: untied.file, callFile: untied.file, fileLine: String(untied.line), step };
  if (untied.type) {
    const from = untied.from ? `, a type of ${untied.from} (outside the run)` : '';
    return refuse('in-helper', 'exportedCalledThrough', { ...at, type: untied.type, iface: untied.type, from });
  }
  return refuse('in-helper', 'exportedCalledUntyped', { ...at, owner: helper.split('.')[0]! });
}
