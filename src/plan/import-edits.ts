// The file's own imports, as the migration changes them (the server package's import is wiring's
// business): names the rewrite no longer uses go (the result schema of a `sendRequest(request,
// ElicitResultSchema)`, the error class of a thrown URL elicitation, a helper another module
// split), and names it now uses come in beside the import of their module (the halves of that
// helper, `confirmRequest` beside `confirm`; the type a lifted local is restored with, `Note`
// beside `NoteStore`). One edit per import declaration; a declaration left with nothing goes
// with its line, so package.json keeps only what is still imported.
import type { ImportDeclaration, Node, Program } from '@babel/types';
import * as babelTypes from '@babel/types';
import { jsString } from '../core/escape.ts';
import { lineEndOf, lineStartOf } from './text.ts';
import type { Edit, Span } from './types.ts';

/** A name to import from a module the file already imports (`type` for a type-only name). */
export interface AddedImport {
  name: string;
  from: string;
  type: boolean;
}

/**
 * The edits: `consumed` is the text the rewrite drops (an imported name referenced only there
 * goes); `added` the names to bring in. An edit that would meet one of `taken` (an edit of the
 * same import, the point where the helper block goes) is left out: a name then stays imported,
 * unused, rather than the two edits colliding.
 */
export function importEdits(program: Program, source: string, consumed: readonly Span[], added: readonly AddedImport[], taken: readonly Edit[], eol: string): Edit[] {
  const imports = program.body.filter((s): s is ImportDeclaration => s.type === 'ImportDeclaration');
  const unused = unusedImports(program, source, imports, consumed);
  const have = new Set(imports.flatMap((d) => d.specifiers.map((s) => s.local.name)));
  const wanted = new Map<string, AddedImport>();
  for (const a of added) if (!have.has(a.name) || unused.has(a.name)) wanted.set(a.name, { ...a, type: (wanted.get(a.name)?.type ?? true) && a.type });
  // An insertion meets an edit it falls strictly inside.
  const meets = (e: Edit) => taken.some((t) => (t.start === t.end ? e.start < t.start && t.start < e.end : t.start < e.end && e.start < t.end));
  const edits: Edit[] = [];
  const placed = new Set<string>();
  for (const d of imports) {
    const from = d.source.value;
    const gone = d.specifiers.filter((s) => unused.has(s.local.name));
    const named = d.specifiers.some((s) => s.type === 'ImportSpecifier') && d.importKind !== 'type';
    const adding = named ? [...wanted.values()].filter((a) => a.from === from && !placed.has(a.name)) : [];
    if (gone.length === 0 && adding.length === 0) continue;
    // A default or namespace import keeps its declaration as it is.
    if (gone.some((g) => g.type !== 'ImportSpecifier') && gone.length < d.specifiers.length) continue;
    for (const a of adding) placed.add(a.name);
    const kept = d.specifiers.filter((s) => !unused.has(s.local.name)).map((s) => source.slice(s.start!, s.end!));
    const list = [...kept, ...adding.map((a) => `${a.type ? 'type ' : ''}${a.name}`)];
    const candidates = list.length === 0 ? wholeRemoval(source, d) : [specifierEdit(source, d, gone, kept, adding)];
    const edit = candidates.find((e) => !meets(e));
    if (edit) edits.push(edit);
  }
  // A module imported only without braces (or only as types): an import of its own, after it.
  const byModule = new Map<string, AddedImport[]>();
  for (const a of wanted.values()) if (!placed.has(a.name)) byModule.set(a.from, [...(byModule.get(a.from) ?? []), a]);
  for (const [from, names] of byModule) {
    const last = imports.filter((d) => d.source.value === from).pop();
    if (!last) continue;
    const typeOnly = names.every((a) => a.type);
    const list = names.map((a) => (a.type && !typeOnly ? `type ${a.name}` : a.name)).join(', ');
    edits.push({ start: last.end!, end: last.end!, text: `${eol}import ${typeOnly ? 'type ' : ''}{ ${list} } from ${jsString(from)};` });
  }
  return edits;
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

/** Imported names whose every reference (types included) lies in `consumed`. */
function unusedImports(program: Program, source: string, imports: readonly ImportDeclaration[], consumed: readonly Span[]): Set<string> {
  if (consumed.length === 0) return new Set();
  // Only a name the dropped text mentions can lose its last use: most migrated files have none
  // (the dropped text is `ctx.mcpReq.elicitInput(`), and are not walked at all.
  const dropped = consumed.map((s) => source.slice(s.start, s.end)).join('\n');
  const locals = new Set(imports.flatMap((d) => d.specifiers.map((s) => s.local.name)).filter((name) => dropped.includes(name)));
  if (locals.size === 0) return new Set();
  const inConsumed = (n: Node) => consumed.some((s) => s.start <= n.start! && n.end! <= s.end);
  const inside = new Set<string>();
  const outside = new Set<string>();
  // Every reference, in types too (a type-only use keeps an import).
  const visit = (node: Node, parent: Node | undefined): void => {
    if (node.type === 'ImportDeclaration') return;
    if (node.type === 'Identifier' && locals.has(node.name) && isReference(node, parent)) (inConsumed(node) ? inside : outside).add(node.name);
    const keys = VISITOR_KEYS[node.type] ?? [];
    for (const key of keys) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item === 'object' && typeof (item as Node).type === 'string') visit(item as Node, node);
      } else if (value && typeof value === 'object' && typeof (value as Node).type === 'string') visit(value as Node, node);
    }
  };
  visit(program, undefined);
  return new Set([...inside].filter((name) => !outside.has(name)));
}

const VISITOR_KEYS = babelTypes.VISITOR_KEYS as Record<string, readonly string[]>;

/** The specifier list rewritten: from the first specifier to the last, or (adding only) an insertion after the last. */
function specifierEdit(source: string, d: ImportDeclaration, gone: readonly Node[], kept: readonly string[], adding: readonly AddedImport[]): Edit {
  const first = d.specifiers[0]!;
  const last = d.specifiers[d.specifiers.length - 1]!;
  const added = adding.map((a) => `${a.type && d.importKind !== 'type' ? 'type ' : ''}${a.name}`);
  if (gone.length === 0) return { start: last.end!, end: last.end!, text: added.map((a) => `, ${a}`).join('') };
  if (gone.length === 1 && added.length === 0) {
    const i = d.specifiers.indexOf(gone[0] as never);
    const next = d.specifiers[i + 1];
    return next ? { start: gone[0]!.start!, end: next.start!, text: '' } : { start: d.specifiers[i - 1]!.end!, end: gone[0]!.end!, text: '' };
  }
  return { start: first.start!, end: last.end!, text: [...kept, ...added].join(', ') };
}

/** The declaration with its line when it is alone on it, else just its text. */
function wholeRemoval(source: string, d: ImportDeclaration): Edit[] {
  const end = lineEndOf(source, d.end!);
  const whole = { start: lineStartOf(source, d.start!), end: end < source.length ? end + 1 : end, text: '' };
  const alone = source.slice(whole.start, d.start!).trim() === '' && source.slice(d.end!, end).trim() === '';
  return [...(alone ? [whole] : []), { start: d.start!, end: d.end!, text: '' }];
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
