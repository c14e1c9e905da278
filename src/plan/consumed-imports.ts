// Imports whose last use the rewrite took away: the result schema a `sendRequest(request,
// ElicitResultSchema)` was typed with, the `UrlElicitationRequiredError` a thrown URL elicitation
// was built with. They are removed (the whole declaration when nothing of it is left), so the
// migrated file does not import what it no longer uses (and package.json keeps only what is
// still imported).
import type { Node, Program } from '@babel/types';
import { children } from '../analyse/ast.ts';
import { lineEndOf, lineStartOf } from './text.ts';
import type { Edit, Span } from './types.ts';

/**
 * Removal edits for the imported names whose every reference lies in `consumed` (text the
 * rewrite drops). A removal that would meet one of `taken` (an edit of the same import, or the
 * point where the helper block goes) is left out: the name then stays imported, unused, rather
 * than the two edits colliding.
 */
export function consumedImportEdits(program: Program, source: string, consumed: readonly Span[], taken: readonly Edit[]): Edit[] {
  if (consumed.length === 0) return [];
  const inConsumed = (n: Node) => consumed.some((s) => s.start <= n.start! && n.end! <= s.end);
  const imports = program.body.filter((s) => s.type === 'ImportDeclaration');
  const locals = new Map<string, Node>();
  for (const d of imports) for (const spec of d.specifiers) locals.set(spec.local.name, spec);
  // Names referenced inside the dropped text: the only candidates.
  const candidates = new Set<string>();
  const references = new Map<string, { inside: number; outside: number }>();
  const visit = (node: Node, parent: Node | undefined) => {
    if (node.type === 'ImportDeclaration') return;
    if (node.type === 'Identifier' && locals.has(node.name) && isReference(node, parent)) {
      const count = references.get(node.name) ?? { inside: 0, outside: 0 };
      if (inConsumed(node)) {
        count.inside++;
        candidates.add(node.name);
      } else count.outside++;
      references.set(node.name, count);
    }
    for (const child of children(node)) visit(child, node);
  };
  visit(program, undefined);
  const unused = new Set([...candidates].filter((name) => references.get(name)!.outside === 0));
  if (unused.size === 0) return [];

  const edits: Edit[] = [];
  // An insertion (start = end) meets an edit it falls strictly inside.
  const meets = (e: Edit) => taken.some((t) => (t.start === t.end ? e.start < t.start && t.start < e.end : t.start < e.end && e.start < t.end));
  for (const d of imports) {
    const gone = d.specifiers.filter((s) => unused.has(s.local.name));
    if (gone.length === 0) continue;
    if (gone.length === d.specifiers.length) {
      const end = lineEndOf(source, d.end!);
      const whole = { start: lineStartOf(source, d.start!), end: end < source.length ? end + 1 : end, text: '' };
      // Only a declaration alone on its lines goes with them; otherwise just its text.
      const alone = source.slice(whole.start, d.start!).trim() === '' && source.slice(d.end!, end).trim() === '';
      const edit = [...(alone ? [whole] : []), { start: d.start!, end: d.end!, text: '' }].find((e) => !meets(e));
      if (edit) edits.push(edit);
      continue;
    }
    // Names in braces only (a default or namespace import beside them stays).
    if (gone.some((g) => g.type !== 'ImportSpecifier')) continue;
    const kept = d.specifiers.filter((s) => !unused.has(s.local.name));
    const edit =
      gone.length === 1
        ? singleRemoval(d.specifiers, gone[0]!)
        : { start: d.specifiers[0]!.start!, end: d.specifiers[d.specifiers.length - 1]!.end!, text: kept.map((k) => source.slice(k.start!, k.end!)).join(', ') };
    if (!meets(edit)) edits.push(edit);
  }
  return edits;
}

/** One specifier out of a list: with the comma after it, or (the last one) the comma before it. */
function singleRemoval(specifiers: readonly Node[], spec: Node): Edit {
  const i = specifiers.indexOf(spec);
  const next = specifiers[i + 1];
  return next ? { start: spec.start!, end: next.start!, text: '' } : { start: specifiers[i - 1]!.end!, end: spec.end!, text: '' };
}

/** The text of `outer` the rewrite drops when it keeps only `kept` of it: the spans between them. */
export function droppedAround(outer: Node, kept: readonly Node[]): Span[] {
  const spans: Span[] = [];
  let at = outer.start!;
  for (const k of [...kept].sort((a, b) => a.start! - b.start!)) {
    if (k.start! > at) spans.push({ start: at, end: k.start! });
    at = Math.max(at, k.end!);
  }
  if (outer.end! > at) spans.push({ start: at, end: outer.end! });
  return spans;
}

/** Whether an identifier names a binding here (not a property key or a member name). */
function isReference(id: Node, parent: Node | undefined): boolean {
  if (!parent) return true;
  switch (parent.type) {
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return parent.object === id || parent.computed;
    case 'ObjectProperty':
      return parent.value === id || parent.computed;
    case 'ObjectMethod':
    case 'ClassMethod':
    case 'ClassProperty':
    case 'ClassPrivateMethod':
    case 'TSPropertySignature':
    case 'TSMethodSignature':
      return (parent as { key?: Node }).key !== id || Boolean((parent as { computed?: boolean }).computed);
    case 'TSQualifiedName':
      return parent.left === id;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return false;
    default:
      return true;
  }
}
