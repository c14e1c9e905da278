// A handler that hands the whole call to a function (`case 'forecast': return await
// this.handleForecast(args);`, `async (args) => this.summarise(args)`) delegates to it: what
// the function returns is the handler's answer. A function that asks the client, and is only
// ever called so, is migrated as a handler of its own: it takes the handler's context as a
// last parameter, resumes from its own state, and returns the question as its answer, which
// the handler returns. The retry runs the handler again up to that call, so nothing before it
// there may do anything.
import type { CallExpression, Node } from '@babel/types';
import { argumentParams, hasSideEffects, memberPath, type FunctionNode } from '../analyse/ast.ts';
import type { CallGraph, NamedCall } from '../analyse/call-graph.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import { readonlyInstanceMember } from '../analyse/registry-declarations.ts';

export interface Delegation {
  /** The function, as a handler of its own (its context added as its last parameter). */
  handler: HandlerSite;
  /** Each handler's call of it. */
  calls: Array<{ handler: HandlerSite; call: CallExpression }>;
}

/** The delegation to `fn`, or why its calls are not all delegations. */
export function delegationTo(graph: CallGraph, handlers: readonly HandlerSite[], fn: FunctionNode): Delegation | string {
  const name = graph.nameOf(fn);
  if (!name) return 'it has no name its callers use.';
  if (!fn.async || fn.body.type !== 'BlockStatement') return 'it is not an async function with a block body.';
  if (fn.params.some((p) => p.type === 'RestElement' || p.type === 'AssignmentPattern' || (p as { optional?: boolean }).optional))
    return 'it takes an optional or rest parameter, after which its context cannot be added.';
  const plain = graph.plain(fn);
  const calls = graph.calls.filter((c) => c.callee === name && c.member !== plain);
  if (calls.length === 0) return 'nothing here calls it.';
  const found: Delegation['calls'] = [];
  for (const call of calls) {
    const handler = handlers.find((h) => h.fn === call.functions[call.functions.length - 1]);
    if (!handler) return 'it is also called outside a handler, or from a function inside one.';
    const why = delegatingCall(handler, call);
    if (why) return why;
    // The context goes after the last parameter and after the last argument: they must be the same place.
    if (call.call.arguments.length !== argumentParams(fn).length)
      return `a handler calls it with ${call.call.arguments.length} argument(s) for its ${argumentParams(fn).length} parameter(s), so a context added to both would not meet.`;
    found.push({ handler, call: call.call });
  }
  const kinds = new Set(found.map((f) => f.handler.kind));
  if (kinds.size !== 1) return 'handlers of different kinds call it.';
  const first = found[0]!;
  const named = dispatchedName(graph, fn, found);
  if (named === null)
    return 'a handler calls it through an object (`command.execute(...)`) that several tools may hold, and its class does not keep the name each is registered under (readonly): its state could not name the tool.';
  return {
    handler: {
      kind: first.handler.kind,
      name: named ?? `${name}()`,
      ...(named ? { nameText: named } : {}),
      call: first.call,
      fn,
      ctxIndex: argumentParams(fn).length,
      ancestors: first.handler.ancestors,
      contextType: 'ServerContext',
    },
    calls: found,
  };
}

/**
 * A method called through an object other than `this` (`command.execute(args)` in a handler
 * registered as `command.name`): the object may be any of the tools a loop registers, so the
 * method names its state by the tool its own instance is registered under, `this.name`, when its
 * class keeps that readonly. Undefined for calls on `this`; null when the tool cannot be named.
 */
function dispatchedName(graph: CallGraph, fn: FunctionNode, found: Delegation['calls']): string | undefined | null {
  const through = found.filter(({ call }) => call.callee.type === 'MemberExpression' && call.callee.object.type !== 'ThisExpression');
  if (through.length === 0) return undefined;
  const cls = fn.type === 'ClassMethod' && fn.kind === 'method' && !fn.static ? graph.classOf(fn) : undefined;
  const keys = new Set(
    through.map(({ handler, call }) => {
      const object = memberPath((call.callee as Extract<Node, { type: 'MemberExpression' }>).object);
      const named = handler.nameText;
      return object && named?.startsWith(`${object}.`) && !named.slice(object.length + 1).includes('.') ? named.slice(object.length + 1) : undefined;
    }),
  );
  const key = keys.size === 1 ? [...keys][0] : undefined;
  return cls && key && through.length === found.length && readonlyInstanceMember(cls, key) ? `this.${key}` : null;
}

/**
 * Why a call is not the handler's whole answer, made with nothing done before it that the
 * retry would do again; undefined when it is.
 */
function delegatingCall(handler: HandlerSite, call: NamedCall): string | undefined {
  const fn = handler.fn;
  if (handler.definition) return "a tool definition's handler calls it (its context cannot be added).";
  const chain = [...call.ancestors, call.call];
  const parent = chain[chain.length - 2]!;
  const returned = parent.type === 'AwaitExpression' ? chain[chain.length - 3] : parent;
  const tail = returned === fn || returned?.type === 'ReturnStatement';
  if (!tail) return 'a handler calls it without returning what it returns.';
  if (call.call.arguments.some((a) => hasSideEffects(a)))
    return 'a handler calls it with arguments that compute something (the retry would compute them again).';
  if (fn.returnType) return 'a handler that calls it declares its return type.';
  // What runs before the call on the way from the handler's body.
  for (let i = chain.indexOf(fn.body as Node); i >= 0 && i < chain.length - 1; i++) {
    const node = chain[i]!;
    const child = chain[i + 1]!;
    const before: Node[] =
      node.type === 'BlockStatement'
        ? node.body.slice(0, node.body.indexOf(child as never))
        : node.type === 'SwitchCase'
          ? node.consequent.slice(0, node.consequent.indexOf(child as never))
          : node.type === 'SwitchStatement'
            ? [node.discriminant, ...node.cases.slice(0, node.cases.indexOf(child as never) + 1).flatMap((c) => (c.test ? [c.test] : []))]
            : node.type === 'IfStatement' && child !== node.test
              ? [node.test]
              : [];
    if (before.some((n) => hasSideEffects(n))) return 'a handler that calls it does something before the call, which the retry would do again.';
    if (/^(For|ForIn|ForOf|While|DoWhile|Try)Statement$/.test(node.type)) return 'a handler calls it inside a loop or a try block.';
  }
  return undefined;
}
