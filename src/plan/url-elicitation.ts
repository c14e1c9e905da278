// URL-mode elicitation. The 2026-07-28 shape (`inputRequired.elicitUrl`) has no `mode` (the
// builder sets it) and no `elicitationId` (correlation travels in requestState).
import type { Node } from '@babel/types';
import type { UrlElicitationThrow } from '../analyse/find-sites.ts';
import { Refusal } from './refusal.ts';
import { indentAt } from './text.ts';
import type { Edit } from './types.ts';

/** The params of a 2025 URL elicitation, as `inputRequired.elicitUrl` takes them. */
export function urlParamsText(source: string, params: Node): string {
  if (params.type !== 'ObjectExpression') return source.slice(params.start!, params.end!);
  const kept = params.properties.filter((p) => !(p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && (p.key.name === 'mode' || p.key.name === 'elicitationId')));
  if (kept.length === params.properties.length) return source.slice(params.start!, params.end!);
  return `{ ${kept.map((p) => source.slice(p.start!, p.end!)).join(', ')} }`;
}

/**
 * `throw new UrlElicitationRequiredError([...])` ended the call, and the client called again
 * once the user was done: returning the URL elicitations as input requests keeps exactly
 * that (the retry runs the handler from the top, as the second call did).
 */
export function planUrlThrow(source: string, eol: string, t: UrlElicitationThrow, inHandler: boolean, handlerAsksToo: boolean): Edit | Refusal {
  if (!inHandler) {
    return new Refusal('no-request-to-answer', 'UrlElicitationRequiredError is thrown outside a tools/call, prompts/get or resources/read handler (or inside a function nested in one), where no input_required result can be returned.', 'return inputRequired({ inputRequests: { url: inputRequired.elicitUrl({ message, url }) } }) from the handler itself.');
  }
  if (handlerAsksToo) {
    // The handler is also restructured for its other questions: the two rewrites would collide.
    return new Refusal('url-elicitation', 'this handler throws UrlElicitationRequiredError and also awaits other requests.', 'return the URL elicitation with inputRequired(...) by hand, or split the handler, then run again.');
  }
  if (!t.elicitations) {
    return new Refusal('url-elicitation', 'the URL elicitations are not written out as an array of object literals.', "write them inline ([{ mode: 'url', message, url, elicitationId }]), then run again.");
  }
  const indent = indentAt(source, t.statement.start!);
  const requests = t.elicitations.map((e, i) => `${indent}  ${i === 0 ? 'url' : `url${i + 1}`}: inputRequired.elicitUrl(${urlParamsText(source, e)}),`);
  return { start: t.statement.start!, end: t.statement.end!, text: ['return inputRequired({ inputRequests: {', ...requests, `${indent}} });`].join(eol) };
}
