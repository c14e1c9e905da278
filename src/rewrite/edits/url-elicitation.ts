// URL-mode elicitation as 2026-07-28 writes it: `inputRequired.elicitUrl` has no `mode` (the
// builder sets it) and no `elicitationId` (correlation travels in requestState).
import type { Node } from '@babel/types';
import { type Edit, indentAt } from '../../core/vocabulary.ts';

/** The params of a 2025 URL elicitation, as `inputRequired.elicitUrl` takes them. */
export function urlParamsText(source: string, params: Node): string {
  if (params.type !== 'ObjectExpression') return source.slice(params.start!, params.end!);
  const kept = params.properties.filter(
    (p) => !(p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && (p.key.name === 'mode' || p.key.name === 'elicitationId')),
  );
  if (kept.length === params.properties.length) return source.slice(params.start!, params.end!);
  return `{ ${kept.map((p) => source.slice(p.start!, p.end!)).join(', ')} }`;
}

/** A thrown URL elicitation (`throw new UrlElicitationRequiredError([...])`) replaced by the input requests it returns. */
export function urlInputRequests(source: string, eol: string, statement: Node, elicitations: readonly Node[]): Edit {
  const indent = indentAt(source, statement.start!);
  const requests = elicitations.map((e, i) => `${indent}  ${i === 0 ? 'url' : `url${i + 1}`}: inputRequired.elicitUrl(${urlParamsText(source, e)}),`);
  return { start: statement.start!, end: statement.end!, text: ['return inputRequired({ inputRequests: {', ...requests, `${indent}} });`].join(eol) };
}
