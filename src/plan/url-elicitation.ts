// URL-mode elicitation. The 2026-07-28 shape (`inputRequired.elicitUrl`) has no `mode` (the
// builder sets it) and no `elicitationId` (correlation travels in requestState).
import type { Node } from '@babel/types';
import { hasSideEffects, type FunctionNode } from '../analyse/ast.ts';
import type { UrlElicitationThrow } from '../analyse/find-sites.ts';
import { refuse, type Refusal } from './refusal.ts';
import { type Edit, indentAt } from '../core/vocabulary.ts';

/** The params of a 2025 URL elicitation, as `inputRequired.elicitUrl` takes them. */
export function urlParamsText(source: string, params: Node): string {
  if (params.type !== 'ObjectExpression') return source.slice(params.start!, params.end!);
  const kept = params.properties.filter((p) => !(p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && (p.key.name === 'mode' || p.key.name === 'elicitationId')));
  if (kept.length === params.properties.length) return source.slice(params.start!, params.end!);
  return `{ ${kept.map((p) => source.slice(p.start!, p.end!)).join(', ')} }`;
}

/**
 * How a thrown URL elicitation is migrated. Where code follows it, it is a question of its
 * handler (`question`: planned with the others, see urlThrowSites): the retry reads the answer
 * and goes on after the throw, without running again what came before it (an elicitation id
 * made there survives). Where nothing follows it and nothing before it does anything, it is
 * returned as input requests (an edit) and the retry runs the handler from the top, as the
 * 2025 client's second call did. Otherwise it is refused.
 */
export function planUrlThrow(source: string, eol: string, t: UrlElicitationThrow, handler: FunctionNode | undefined, handlerAsksToo: boolean): 'question' | Edit | Refusal {
  if (!handler) {
    return refuse('no-request-to-answer', 'urlThrowOutsideHandler');
  }
  if (!t.elicitations || t.elicitations.length === 0) {
    return refuse('url-elicitation', 'notLiteralArray');
  }
  const path = pathToThrow(t, handler);
  if (!path.trailing) return 'question';
  if (handlerAsksToo) {
    return refuse('url-elicitation', 'handlerAsksToo');
  }
  if (path.effects) {
    return refuse('url-elicitation', 'workBeforeThrow');
  }
  const indent = indentAt(source, t.statement.start!);
  const requests = t.elicitations.map((e, i) => `${indent}  ${i === 0 ? 'url' : `url${i + 1}`}: inputRequired.elicitUrl(${urlParamsText(source, e)}),`);
  return { start: t.statement.start!, end: t.statement.end!, text: ['return inputRequired({ inputRequests: {', ...requests, `${indent}} });`].join(eol) };
}

/**
 * Whether the throw ends every block around it (nothing would run after it on a resume), and
 * whether anything before it on its way from the handler body may do something.
 */
function pathToThrow(t: UrlElicitationThrow, fn: FunctionNode): { trailing: boolean; effects: boolean } {
  const chain = [...t.ancestors, t.statement];
  let trailing = true;
  let effects = false;
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
    }
  }
  return { trailing, effects };
}
