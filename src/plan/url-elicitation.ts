// URL elicitations thrown as errors (`throw new UrlElicitationRequiredError([...])`): a question
// of their handler, input requests returned at once, or refused.
import type { Node } from '@babel/types';
import { hasSideEffects, type FunctionNode } from '../analyse/ast.ts';
import type { UrlElicitationThrow } from '../analyse/find-sites.ts';
import { widenReturnType } from './plan-handler.ts';
import { refuse, Refusal } from './refusal.ts';
import type { Edit } from '../core/vocabulary.ts';
import { readableFields, urlInputRequests } from '../rewrite/edits/url-elicitation.ts';
import type { Declarations } from '../analyse/file-index.ts';
import { retryMarker } from './retry-marker.ts';

/**
 * How a thrown URL elicitation is migrated. Where code follows it, it is a question of its
 * handler (`question`: planned with the others, see urlThrowSites): the retry reads the answer
 * and goes on after the throw, without running again what came before it (an elicitation id
 * made there survives). Where nothing follows it and nothing before it does anything, it is
 * returned as input requests (an edit) and the retry runs the handler from the top, as the
 * 2025 client's second call did; a `Promise<X>` return type of the handler is widened to admit
 * them, as for a handler migrated with its questions. So is one a one-shot retry marker guards
 * (see retry-marker.ts), whatever follows it and comes before it; in a handler that asks more,
 * its edit is `inner`: the handler's rewrite applies it where it writes the throw's statement.
 * Otherwise it is refused.
 */
export function planUrlThrow(
  t: UrlElicitationThrow,
  handler: UrlThrowHandler | undefined,
  scope: { source: string; eol: string; declarations: Declarations },
): 'question' | { edit: Edit; returnType?: Edit; inner?: true } | Refusal {
  const { source, eol } = scope;
  if (!handler) {
    return refuse('no-request-to-answer', 'urlThrowOutsideHandler');
  }
  if (!t.elicitations || t.elicitations.length === 0) {
    return refuse('url-elicitation', 'notLiteralArray');
  }
  if (t.reads?.some((read, i) => read !== undefined && !readableFields(t.elicitations![i]!))) {
    return refuse('url-elicitation', 'paramsNotInline');
  }
  const path = pathToThrow(t, handler.fn);
  const marker = retryMarker(t, { source, declarations: scope.declarations, fn: handler.fn, ctxIndex: handler.ctxIndex });
  if (marker instanceof Refusal) return marker;
  const edit = urlInputRequests(source, eol, t.statement, t.elicitations, t.reads);
  if (marker) {
    if (path.inTry) return refuse('url-elicitation', 'thrownInTry');
    if (handler.asks.length > 0) {
      if (path.inLoop || handler.asks.some((s) => s.start < t.statement.start!)) return refuse('url-elicitation', 'retryMarkerInRound');
      return { edit, inner: true };
    }
  } else {
    if (!path.trailing) return 'question';
    if (handler.asks.length > 0) {
      return refuse('url-elicitation', 'handlerAsksToo');
    }
    if (path.effects) {
      return refuse('url-elicitation', 'workBeforeThrow');
    }
  }
  const returnType = widenReturnType(source, handler.fn);
  if (returnType instanceof Refusal) return returnType;
  return { edit, ...(returnType ? { returnType } : {}) };
}

/** The handler a URL elicitation is thrown in: its function, context parameter, and where its other questions are. */
export interface UrlThrowHandler {
  fn: FunctionNode;
  ctxIndex: number;
  asks: ReadonlyArray<{ start: number }>;
}

/**
 * Whether the throw ends every block around it (nothing would run after it on a resume), and
 * whether anything before it on its way from the handler body may do something.
 */
function pathToThrow(t: UrlElicitationThrow, fn: FunctionNode): { trailing: boolean; effects: boolean; inTry: boolean; inLoop: boolean } {
  const chain = [...t.ancestors, t.statement];
  let trailing = true;
  let effects = false;
  let inTry = false;
  let inLoop = false;
  for (let i = chain.indexOf(fn.body as Node); i >= 0 && i < chain.length - 1; i++) {
    const node = chain[i]!;
    const child = chain[i + 1]!;
    if (node.type === 'BlockStatement') {
      const at = node.body.indexOf(child as never);
      if (at !== node.body.length - 1) trailing = false;
      if (node.body.slice(0, at).some((s) => hasSideEffects(s))) effects = true;
    } else if (node.type === 'IfStatement') {
      if (hasSideEffects(node.test)) effects = true;
    } else if (node.type !== 'ThrowStatement') {
      // A loop, a switch case, a try: something may run after it.
      trailing = false;
      if (node.type === 'TryStatement') inTry = true;
      if (/^(For|ForIn|ForOf|While|DoWhile)Statement$/.test(node.type)) inLoop = true;
    }
  }
  return { trailing, effects, inTry, inLoop };
}
