// URL-mode elicitation as 2026-07-28 writes it: `inputRequired.elicitUrl` has no `mode` (the
// builder sets it) and no `elicitationId` (correlation travels in requestState).
import type { Node, ObjectExpression } from '@babel/types';
import { type Edit, indentAt } from '../../core/vocabulary.ts';

/**
 * The params of a 2025 URL elicitation, as `inputRequired.elicitUrl` takes them. `read`: the
 * name that holds them (`elicitationParams`), each field kept then read through it (see
 * readableFields), so that its initialiser is not evaluated again.
 */
export function urlParamsText(source: string, params: Node, read?: string): string {
  if (params.type !== 'ObjectExpression') return source.slice(params.start!, params.end!);
  const kept = params.properties.filter(
    (p) => !(p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && (p.key.name === 'mode' || p.key.name === 'elicitationId')),
  );
  if (read !== undefined)
    return `{ ${(readableFields(params) ?? [])
      .filter((k) => k !== 'mode' && k !== 'elicitationId')
      .map((k) => `${k}: ${read}.${k}`)
      .join(', ')} }`;
  if (kept.length === params.properties.length) return source.slice(params.start!, params.end!);
  return `{ ${kept.map((p) => source.slice(p.start!, p.end!)).join(', ')} }`;
}

/** The field names of a literal when each is a plain name (no spread, method or computed key): what can be read through its holder. */
export function readableFields(params: ObjectExpression): string[] | undefined {
  const names: string[] = [];
  for (const p of params.properties) {
    if (p.type !== 'ObjectProperty' || p.computed || p.key.type !== 'Identifier') return undefined;
    names.push(p.key.name);
  }
  return names;
}

/** A thrown URL elicitation (`throw new UrlElicitationRequiredError([...])`) replaced by the input requests it returns. */
export function urlInputRequests(source: string, eol: string, statement: Node, elicitations: readonly Node[], reads?: ReadonlyArray<string | undefined>): Edit {
  const indent = indentAt(source, statement.start!);
  const requests = elicitations.map(
    (e, i) => `${indent}  ${i === 0 ? 'url' : `url${i + 1}`}: inputRequired.elicitUrl(${urlParamsText(source, e, reads?.[i])}),`,
  );
  return { start: statement.start!, end: statement.end!, text: ['return inputRequired({ inputRequests: {', ...requests, `${indent}} });`].join(eol) };
}
