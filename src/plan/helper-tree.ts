// A request made in a helper reaches its handlers through calls: straight from a handler, or
// through other helpers (`confirmDestructive(what)` returning `confirm(...)`). Each helper on
// the way is split (split-helper.ts), innermost first, each outer one building its request from
// the inner one's request builder; each handler then asks with the request of the helper it
// calls. The whole tree is split, or nothing of it.
import path from 'node:path';
import type { Node } from '@babel/types';
import type { FunctionNode } from '../analyse/ast.ts';
import type { ClassNode, Imports } from '../analyse/bindings.ts';
import type { CallGraph, NamedCall } from '../analyse/call-graph.ts';
import type { FileIndex } from '../analyse/file-index.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import type { TypeNames } from './server-type-names.ts';
import type { PurityContext } from './helper-locals.ts';
import { maybeAskSplit } from './maybe-ask-split.ts';
import { maybeAskSplitPoints } from './maybe-ask-points.ts';
import { askedFirst, splitHelper, type HelperSplit } from './split-helper.ts';
import { lineOf } from '../core/line-refs.ts';
import type { LegacyEntryCall } from './plan-options.ts';

export interface HelperTree {
  /** Each helper's split with the site it splits at (its request, or its call of an inner helper), innermost first. */
  splits: Array<{ site: LegacySite; split: HelperSplit }>;
  /** Each handler's call into the tree, as the site the handler asks at. */
  handlerCalls: Array<{ handler: HandlerSite; site: LegacySite }>;
}

interface TreeContext {
  source: string;
  graph: CallGraph;
  index: FileIndex;
  imports: Imports;
  handlers: readonly HandlerSite[];
  /** How the halves name the server package's types; undefined in JavaScript. */
  types: TypeNames | undefined;
  eol: string;
  /** What the purity checks of the helpers' locals and their callers' arguments are told. */
  purity: PurityContext;
  /** Exported helpers the engine keeps under their names for calls that cannot ask through their halves, by name. */
  legacyEntries?: Readonly<Record<string, LegacyEntryCall>>;
  /** Why a helper may not be split here, or undefined. */
  kept(fn: FunctionNode): string | undefined;
  /** Whether other modules may call it (then nothing here need call it). */
  exported(fn: FunctionNode): boolean;
}

/** The tree of splits above a request made in a helper (or its calls of split helpers, `sites`), or why it cannot be split. */
export function splitTree(context: TreeContext, sites: readonly LegacySite[]): HelperTree | string {
  const tree: HelperTree = { splits: [], handlerCalls: [] };
  const why = grow(context, sites, tree, 0);
  return why ?? tree;
}

/** Splits the helper that asks at `sites` (one, or its calls of one split helper: maybe-ask-points.ts), then its callers. */
function grow(context: TreeContext, sites: readonly LegacySite[], tree: HelperTree, depth: number): string | undefined {
  const { graph, handlers, source } = context;
  const site = sites[0]!;
  const fn = site.enclosing;
  const name = fn ? graph.nameOf(fn) : undefined;
  if (!fn || !name) return 'it has no name its callers could use.';
  const kept = context.kept(fn);
  if (kept) return kept;
  if (depth > 3) return 'it is reached through more than four helpers.';
  // Split once for each question it asks, its halves would be written twice: one question per helper.
  const twice = tree.splits.find((s) => s.site.enclosing === fn);
  if (twice) return `it is a helper whose lines ${lineOf(twice.site.call)} and ${lineOf(site.call)} both ask${asked(site)}.`;
  const calls = callsOf(context, fn, name);
  if (typeof calls === 'string') return calls;
  if (calls.length === 0 && !context.exported(fn)) return 'nothing here calls it.';
  // A helper that does something before it asks may return without asking: its split says so.
  const split =
    sites.length > 1
      ? maybeAskSplitPoints(source, sites, calls, context.types, context.eol, context.purity, context.legacyEntries?.[name])
      : askedFirst(source, site)
        ? splitHelper(source, site, calls, context.types, context.eol, context.purity, context.legacyEntries?.[name])
        : maybeAskSplit(source, site, calls, context.types, context.eol, context.purity, context.legacyEntries?.[name]);
  if (typeof split === 'string') return split;
  tree.splits.push({ site, split });
  // A helper that calls this one at several points is split once, at all of them.
  const callers = new Map<FunctionNode | undefined, LegacySite[]>();
  for (const call of calls) {
    const via = viaSite(source, call, split);
    const handler = handlers.find((h) => call.functions.includes(h.fn));
    if (handler) tree.handlerCalls.push({ handler, site: via });
    else callers.set(via.enclosing, [...(callers.get(via.enclosing) ?? []), via]);
  }
  for (const [caller, vias] of callers) {
    if (!caller) return `it is called where its module loads (${where(context, vias[0]!.call)}), by no handler.`;
    const why = grow(context, vias, tree, depth + 1);
    if (why) return `it is called by ${callerNamed(context, caller)}, which cannot be split: ${why}`;
  }
  return undefined;
}

/** How a reason names a function that calls a helper: by its name, or by what it is and where (`the arrow function at tools.ts:42`). */
function callerNamed(context: TreeContext, caller: FunctionNode): string {
  const name = context.graph.nameOf(caller);
  return name ? `\`${name}()\`` : `the ${UNNAMED[caller.type]} at ${where(context, caller)}`;
}

/** What a function with no name its callers could use is, as a reason says it. */
const UNNAMED: Readonly<Record<FunctionNode['type'], string>> = {
  ArrowFunctionExpression: 'arrow function',
  FunctionExpression: 'function expression',
  FunctionDeclaration: 'function',
  ObjectMethod: 'method',
  ClassMethod: 'method',
  ClassPrivateMethod: 'method',
};

/** `tools.ts:42`: the module's file name and the line a node starts on (core/line-refs.ts). */
function where(context: TreeContext, node: Node): string {
  return `${path.basename(context.purity.analysis.fileName)}:${lineOf(node)}`;
}

/** What a site asks through, for a reason's text (` through \`isAllowed()\``), or nothing when it asks itself. */
function asked(site: LegacySite): string {
  return site.via ? ` through \`${site.via.helper}()\`` : '';
}

/**
 * The calls of a helper: of a function by its name; of a method through `this` in its class or
 * an object known to be an instance of its class. A call of a method of that name on an object
 * nothing here explains may be one: the helper is then not split.
 */
function callsOf(context: TreeContext, fn: FunctionNode, name: string): NamedCall[] | string {
  const { graph } = context;
  const plain = graph.plain(fn);
  const named = graph.calls.filter((c) => c.callee === name && c.member !== plain);
  if (plain) return named;
  const owner = methodClass(context.index, fn);
  if (!owner) return named;
  const resolver = receiverResolver(context.index, context.imports);
  const calls: NamedCall[] = [];
  for (const c of named) {
    const callee = c.call.callee as Node;
    if (callee.type !== 'MemberExpression') return 'it is called through an object the codemod cannot follow.';
    const cls = resolver.classOf(callee.object, c.functions);
    if (cls === owner) calls.push(c);
    else if (cls === undefined) return `\`${context.source.slice(callee.start!, callee.end!)}(...)\` may call it, through an object the codemod cannot follow.`;
  }
  return calls;
}

function methodClass(index: FileIndex, fn: FunctionNode): ClassNode | undefined {
  if (fn.type !== 'ClassMethod') return undefined;
  const ancestors = index.functions.find((f) => f.node === fn)?.ancestors ?? [];
  const owner = ancestors[ancestors.length - 2];
  return owner?.type === 'ClassDeclaration' || owner?.type === 'ClassExpression' ? owner : undefined;
}

/** A call of a split helper, standing for the request the helper made. */
export function viaSite(source: string, call: NamedCall, split: Omit<HelperSplit, 'edit'>): LegacySite {
  const args = call.call.arguments as Node[];
  const texts = args.map((a) => source.slice(a.start!, a.end!));
  const callee = call.call.callee;
  const receiver = split.method && callee.type === 'MemberExpression' ? source.slice(callee.object.start!, callee.object.end!) : undefined;
  const [before, after] = split.resultCall('\0', texts, receiver).split('\0') as [string, string];
  return {
    call: call.call,
    receiver: call.call.callee,
    shape: { receiver: '*.server', method: split.name, kind: split.kind, resultType: split.resultType },
    receiverHead: '',
    kind: split.kind,
    enclosing: call.functions[call.functions.length - 1],
    functions: call.functions,
    ancestors: call.ancestors,
    via: {
      helper: split.name,
      requestText: split.requestCall(texts, receiver),
      result: [before, after],
      valueType: split.valueType,
      args,
      requestArgs: args.filter((_, i) => split.requestArgs[i]),
      resultArgs: args.filter((_, i) => split.resultArgs[i]),
      ...(split.maybeAsk ? { maybeAsk: true } : {}),
      ...(split.takesContext ? { takesContext: true } : {}),
      ...(split.asyncResult ? { asyncResult: true } : {}),
      ...(split.carried ? { carried: split.carried.type !== undefined ? { type: split.carried.type } : {} } : {}),
      ...(split.push ? { push: split.push } : {}),
    },
  };
}
