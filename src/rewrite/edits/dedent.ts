// Lines moved left as a block around them goes: what a statement's text becomes when it is
// written one level out (a hook's statement moved to start-up, the arm kept of a dual-era if).
import type { Node } from '@babel/types';
import { walk } from '../../analyse/ast.ts';
import { type Span, lineEndOf } from '../../core/vocabulary.ts';

/**
 * The lines of `span` with up to `depth` columns of indentation taken off each, except a line
 * that starts inside a template literal or a string of `within`: its text is data.
 */
export function dedented(source: string, span: Span, depth: number, within: Node): string {
  const verbatim: Span[] = [];
  walk(within, (node) => {
    if (node.type === 'TemplateElement' || (node.type === 'StringLiteral' && node.loc!.start.line !== node.loc!.end.line))
      verbatim.push({ start: node.start!, end: node.end! });
  });
  let out = '';
  for (let at = span.start; at < span.end;) {
    const end = Math.min(lineEndOf(source, at) + 1, span.end);
    const line = source.slice(at, end);
    out += verbatim.some((t) => at > t.start && at <= t.end) ? line : line.replace(new RegExp(`^[ \\t]{0,${depth}}`), '');
    at = end;
  }
  return out;
}
