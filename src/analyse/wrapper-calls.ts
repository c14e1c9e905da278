// Calls of a wrapper's push method (sdk-surface.ts, WRAPPER_CALLS): a framework's `elicit` or
// `sample` on the context it hands a handler, however that context is held (a parameter, a
// class's field, destructured); the SDK's own names `requestSampling` and `sendRequest` on any
// other receiver (a framework's session, a context a class keeps). None is a call the codemod
// migrates, and none may pass `check`: each is a site, always marked, unless its receiver is
// shown to be something else (an object literal or a class of this file).
import type { Node } from '@babel/types';
import { argumentParams, type FunctionNode } from './ast.ts';
import type { CallTarget } from './call-target.ts';
import type { ReceiverResolver } from './receivers.ts';
import { CONTEXT_PARAMETER, WRAPPER_CALLS, type LegacyCallShape } from './sdk-surface.ts';

export interface WrapperCall {
  shape: LegacyCallShape;
  /** What the marker names as the object the call is made on. */
  holder: Node;
}

/** The wrapper's push call `target` is, when its receiver may hold one. */
export function wrapperCall(target: CallTarget, functions: readonly FunctionNode[], resolver: () => ReceiverResolver): WrapperCall | undefined {
  const shape = WRAPPER_CALLS.find((s) => s.method === target.method);
  if (!shape) return undefined;
  if (shape.receiver === 'ctx') {
    const holder = contextHolder(target, functions);
    return holder ? { shape, holder } : undefined;
  }
  // Any receiver but one shown to be something else: a class or object literal of this file has its own method.
  if (target.path !== '' && resolver().roleOf(target.receiver, functions) === 'other') return undefined;
  return { shape, holder: target.fromParameter?.param ?? target.receiver };
}

/**
 * The context a framework's push method is called on: a holder named like a context (`extra`,
 * `this.ctx`, `args.context`; a bare name only as a parameter of a function around the call), or
 * an object parameter after the first, where handlers take their context (`(args, { elicit })`).
 */
function contextHolder(target: CallTarget, functions: readonly FunctionNode[]): Node | undefined {
  if (target.fromParameter)
    return argumentParams(target.fromParameter.fn).indexOf(target.fromParameter.param as never) > 0 ? target.fromParameter.param : undefined;
  if (target.path === '') return undefined;
  const parts = target.path.split('.');
  const last = parts[parts.length - 1]!;
  if (!CONTEXT_PARAMETER.test(last)) return undefined;
  if (parts.length > 1) return target.receiver;
  return functions.some((fn) => argumentParams(fn).some((p) => p?.type === 'Identifier' && p.name === last)) ? target.receiver : undefined;
}
