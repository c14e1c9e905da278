// Which handlers reach a legacy request through helper functions of the same file. A helper
// cannot suspend the handler that called it, so each reaching call is marked, naming the
// chain; the helper's own site says which handlers reach it.
import type { CallExpression, Node } from '@babel/types';
import type { FunctionNode } from './ast.ts';
import { enclosingFunctions, type FileIndex } from './file-index.ts';
import type { HandlerSite } from './find-handlers.ts';

export interface NamedCall {
  call: CallExpression;
  /** `confirm` for `confirm(...)`, `this.confirm(...)` and `helpers.confirm(...)`. */
  callee: string;
  /** Called as a method (`x.confirm(...)`): it names a method or an object's property, not a plain function. */
  member: boolean;
  functions: FunctionNode[];
  ancestors: readonly Node[];
}

export interface CallGraph {
  /** The name a function is known by: its declaration, variable, method or property name. */
  nameOf(fn: FunctionNode): string | undefined;
  /** Whether a function is called by its plain name (a declaration or a variable), not as a method. */
  plain(fn: FunctionNode): boolean;
  /** The class a method belongs to. */
  classOf(fn: FunctionNode): Extract<Node, { type: 'ClassDeclaration' | 'ClassExpression' }> | undefined;
  calls: NamedCall[];
}

const graphs = new WeakMap<FileIndex, CallGraph>();

/** The file's call graph, built the first time a plan asks (a file may be planned twice). */
export function callGraphOf(index: FileIndex): CallGraph {
  let graph = graphs.get(index);
  if (!graph) graphs.set(index, (graph = buildCallGraph(index)));
  return graph;
}

function buildCallGraph(index: FileIndex): CallGraph {
  const names = new Map<FunctionNode, string>();
  const plain = new Set<FunctionNode>();
  const classes = new Map<FunctionNode, Extract<Node, { type: 'ClassDeclaration' | 'ClassExpression' }>>();
  for (const { node, ancestors } of index.functions) {
    const parent = ancestors[ancestors.length - 1];
    const holder = ancestors[ancestors.length - 2];
    if (node.type === 'ClassMethod' && (holder?.type === 'ClassDeclaration' || holder?.type === 'ClassExpression')) classes.set(node, holder);
    const name = node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' ? node.id?.name : undefined;
    const fromParent =
      parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier'
        ? parent.id.name
        : (parent?.type === 'ClassProperty' || parent?.type === 'ObjectProperty') && parent.key.type === 'Identifier'
          ? parent.key.name
          : undefined;
    const own = (node.type === 'ClassMethod' || node.type === 'ObjectMethod') && node.key.type === 'Identifier' ? node.key.name : undefined;
    const known = own ?? name ?? fromParent;
    if (known) names.set(node, known);
    if (node.type === 'FunctionDeclaration' || (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier')) plain.add(node);
  }
  const calls: NamedCall[] = [];
  for (const { node, ancestors } of index.calls) {
    const c = node.callee;
    const callee =
      c.type === 'Identifier' ? c.name : c.type === 'MemberExpression' && !c.computed && c.property.type === 'Identifier' ? c.property.name : undefined;
    if (callee) calls.push({ call: node, callee, member: c.type !== 'Identifier', functions: enclosingFunctions(ancestors), ancestors });
  }
  return { nameOf: (fn) => names.get(fn), plain: (fn) => plain.has(fn), classOf: (fn) => classes.get(fn), calls };
}

export interface HelperChain {
  /** The helper that makes the request. */
  helper: string;
  /** Each handler call on the way to it, with the chain of helper names from the handler. */
  reaching: Array<{ handler: HandlerSite; call: NamedCall; chain: string[] }>;
}

/** Handlers that reach `fn` through calls by name (transitively, same file). */
export function handlersReaching(graph: CallGraph, handlers: readonly HandlerSite[], fn: FunctionNode | undefined): HelperChain | undefined {
  const helper = fn ? graph.nameOf(fn) : undefined;
  if (!helper) return undefined;
  const reaching: HelperChain['reaching'] = [];
  const seen = new Set<string>([helper]);
  // A plain function is called by its name, a method through an object (`mrtr.ask(...)` is not a call of a function `ask`).
  const queue: Array<{ name: string; chain: string[]; plain: boolean }> = [{ name: helper, chain: [helper], plain: graph.plain(fn!) }];
  while (queue.length > 0) {
    const { name, chain, plain } = queue.shift()!;
    for (const call of graph.calls) {
      if (call.callee !== name || call.member === plain) continue;
      const handler = handlers.find((h) => call.functions.includes(h.fn));
      if (handler) {
        reaching.push({ handler, call, chain });
        continue;
      }
      const caller = call.functions[call.functions.length - 1];
      const callerName = caller ? graph.nameOf(caller) : undefined;
      if (callerName && !seen.has(callerName)) {
        seen.add(callerName);
        queue.push({ name: callerName, chain: [callerName, ...chain], plain: graph.plain(caller!) });
      }
    }
  }
  return reaching.length > 0 ? { helper, reaching } : undefined;
}
