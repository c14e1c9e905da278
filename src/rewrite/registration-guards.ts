// Registrations guarded by the client's capabilities where the server is built. Read there
// (outside any handler), `server.server.getClientCapabilities()` answers undefined on every
// server a factory builds and on every 2026-07-28 connection, so `if (caps.elicitation) {
// server.registerTool(...) }` would never register. The guard is dropped and the tool
// registered for every client: the SDK refuses an input request whose capability the client
// did not declare (-32021 on 2026-07-28, an isError result through the 2025 shim). A guard the
// rewrite cannot drop (an else branch, a condition that tests more, a capability the SDK does
// not gate such as `tasks`) gets a marker instead.
import type { Node, Statement } from '@babel/types';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { boundNames, isFunction, referencedNames, someNode, walk, type FunctionNode } from '../analyse/ast.ts';
import { namedFunctions } from '../analyse/file-index.ts';
import { contextParam } from '../analyse/find-handlers.ts';
import {
  capabilityDeclaration,
  capabilityNames,
  isCapabilityTest,
  isEarlyReturnGuard,
  isRegistrationCall,
  onlyRegisters,
  readsCapabilities,
  statementsOf,
  REMOVED_CAPABILITIES,
  ungatedCapability,
  type CapabilityNames,
  type LocalFunctions,
} from '../analyse/registrations.ts';
import { TODO_MARKER } from '../analyse/sdk-surface.ts';
import { type Edit, type Span, eolOf, indentAt, lineEndOf, lineStartOf, startsLine } from '../core/vocabulary.ts';
import { markerLine, refuse } from '../plan/refusal.ts';
import { markerComment } from './edits/marker-comment.ts';
import { commentLinesAbove, mergedRemovals, removeStatement } from './edits/removals.ts';
import { applyEdits } from './rewrite.ts';
import type { CapabilityRewrite } from './client-capabilities.ts';

export function rewriteRegistrationGuards(source: string, fileName: string, analysis?: FileAnalysis): CapabilityRewrite {
  if (!source.includes('getClientCapabilities')) return { output: source };
  const file = analysis ?? analyseFile(source, fileName);
  const handlers = new Set<Node>(file.handlers.map((h) => h.fn));
  const functions = namedFunctions(file.index);
  // Handlers with a context parameter: the capability pass makes their reads the request's.
  const withContext = new Set<Node>(file.handlers.filter((h) => contextParam(h)?.type === 'Identifier').map((h) => h.fn));
  const edits: Edit[] = [];
  edits.push(...blockEdits(source, file.program.body, functions, withContext));
  for (const { node, ancestors } of file.index.functions) {
    if (handlers.has(node) || ancestors.some((a) => handlers.has(a)) || node.body.type !== 'BlockStatement') continue;
    edits.push(...blockEdits(source, node.body.body, functions, withContext));
  }
  const parsed = { program: file.program, edits };
  return { output: edits.length === 0 ? source : applyEdits(source, edits), parsed };
}

/** The guards of one block (a function's body, the module's top level), and the capability consts they leave unused. */
function blockEdits(source: string, statements: readonly Statement[], functions: LocalFunctions, withContext: ReadonlySet<Node>): Edit[] {
  const names = capabilityNames(statements);
  const declared = capabilityInits(statements, names);
  const edits: Edit[] = [];
  const removals: Edit[] = [];
  const dropped: Span[] = [];
  statements.forEach((s, i) => {
    if (s.type !== 'IfStatement') return;
    const rest = statements.slice(i + 1);
    if (!s.alternate && isCapabilityTest(s.test, names) && statementsOf(s.consequent).every((b) => onlyRegisters(b, functions, names))) {
      const copies = handlerCopies(source, [s.consequent], declared, withContext);
      edits.push({ start: s.start!, end: s.end!, text: unwrapped(source, s, copies.edits) });
      dropped.push({ start: s.test.start!, end: s.test.end! }, ...copies.reads);
    } else if (
      isEarlyReturnGuard(s, names) &&
      rest.some((r) => onlyRegisters(r, functions, names)) &&
      rest.every((r) => capabilityDeclaration(r, names) || onlyRegisters(r, functions, names))
    ) {
      const copies = handlerCopies(source, rest, declared, withContext);
      removals.push(removeStatement(source, s));
      edits.push(...copies.edits);
      dropped.push({ start: s.start!, end: s.end! }, ...copies.reads);
    } else if (readsCapabilities(s.test, names) && someNode(s, isRegistrationCall) && !markedAbove(source, s.start!)) {
      const test = source.slice(s.test.start!, s.test.end!).replace(/\s+/g, ' ');
      const quoted = test.length > 80 ? `${test.slice(0, 77)}...` : test;
      const capability = ungatedCapability(s.test, names);
      const refusal =
        capability === undefined
          ? refuse('registered-late', 'capabilityGuard', { test: quoted })
          : refuse('registered-late', REMOVED_CAPABILITIES.has(capability) ? 'removedGuard' : 'ungatedGuard', { test: quoted, capability });
      const at = lineStartOf(source, s.start!);
      edits.push({
        start: at,
        end: at,
        text: markerComment({ indent: indentAt(source, s.start!), code: 'registered-late', text: markerLine(refusal) }) + eolOf(source),
      });
    }
  });
  if (dropped.length > 0) removals.push(...unusedDeclarations(source, statements, names, dropped));
  return [...edits, ...mergedRemovals(source, removals)];
}

/**
 * The capability consts of the block that only the dropped guards read (or consts dropped so):
 * removed, with the comment lines above them. A const read elsewhere, or read by nothing
 * before, is left.
 */
function unusedDeclarations(source: string, statements: readonly Statement[], names: CapabilityNames, dropped: Span[]): Edit[] {
  const declarations = statements.flatMap((s) => {
    const bound = capabilityDeclaration(s, names);
    return bound ? [{ statement: s, names: bound.map(([n]) => n) }] : [];
  });
  const reads = new Map<string, number[]>();
  for (const s of statements) {
    walk(s, (node, parents) => {
      if (node.type !== 'Identifier' || !names.has(node.name) || !isRead(node, parents[parents.length - 1])) return;
      reads.set(node.name, [...(reads.get(node.name) ?? []), node.start!]);
    });
  }
  const inside = (at: number) => dropped.some((d) => at >= d.start && at < d.end);
  const edits: Edit[] = [];
  const removed = new Set<Statement>();
  for (let changed = true; changed;) {
    changed = false;
    for (const d of declarations) {
      if (removed.has(d.statement)) continue;
      const all = d.names.flatMap((n) => reads.get(n) ?? []);
      if (all.length === 0 || !all.every(inside)) continue;
      removed.add(d.statement);
      dropped.push({ start: d.statement.start!, end: d.statement.end! });
      edits.push(removeStatement(source, d.statement));
      changed = true;
    }
  }
  return edits;
}

function isRead(id: Node, parent: Node | undefined): boolean {
  if (!parent) return true;
  if (parent.type === 'VariableDeclarator') return parent.init === id;
  if (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') return parent.object === id || parent.computed;
  if (parent.type === 'ObjectProperty') return parent.value === id;
  return !isFunction(parent);
}

/** The branch of `if (guard) { ... }` as statements of the block around it, one indent level out (template literals kept as written). */
function unwrapped(source: string, s: Extract<Statement, { type: 'IfStatement' }>, substitutions: readonly Edit[]): string {
  const body = statementsOf(s.consequent);
  const first = body[0]!;
  const last = body[body.length - 1]!;
  let from = first.start!;
  let to = last.end!;
  if (s.consequent.type === 'BlockStatement') {
    const afterBrace = lineEndOf(source, s.consequent.start!) + 1;
    if (source.slice(s.consequent.start! + 1, afterBrace).trim() === '' && startsLine(source, first.start!)) from = afterBrace;
    const closing = s.consequent.end! - 1;
    if (startsLine(source, closing) && lineStartOf(source, closing) > to) to = lineStartOf(source, closing);
  }
  const outer = indentAt(source, s.start!);
  const inner = indentAt(source, first.start!);
  const depth = startsLine(source, first.start!) && inner.startsWith(outer) ? inner.length - outer.length : 0;
  const templates: Span[] = [];
  walk(s.consequent, (node) => void (node.type === 'TemplateElement' && templates.push({ start: node.start!, end: node.end! })));
  let out = '';
  for (let at = from; at < to;) {
    const end = Math.min(lineEndOf(source, at) + 1, to);
    const line = spliced(source, at, end, substitutions);
    const inTemplate = templates.some((t) => at > t.start && at <= t.end);
    // Each line, and those an insertion adds to it, one level out.
    out += inTemplate ? line : line.replace(new RegExp(`^[ \\t]{0,${depth}}`, 'gm'), '');
    at = end;
  }
  return out.trimStart().trimEnd();
}

/** The text of [from, to) with the edits that lie within it made. */
function spliced(source: string, from: number, to: number, edits: readonly Edit[]): string {
  const within = edits.filter((e) => e.start >= from && e.end <= to).map((e) => ({ ...e, start: e.start - from, end: e.end - from }));
  const text = source.slice(from, to);
  return within.length === 0 ? text : applyEdits(text, within);
}

/** The block's capability consts by name, with the statement declaring each and the consts it reads. */
function capabilityInits(statements: readonly Statement[], names: CapabilityNames): Map<string, { statement: Statement; reads: string[] }> {
  const inits = new Map<string, { statement: Statement; reads: string[] }>();
  for (const s of statements) {
    if (!capabilityDeclaration(s, names) || s.type !== 'VariableDeclaration') continue;
    const reads = [...referencedNames(s)].filter((n) => inits.has(n));
    for (const d of s.declarations) if (d.id.type === 'Identifier') inits.set(d.id.name, { statement: s, reads });
  }
  return inits;
}

type Declared = ReturnType<typeof capabilityInits>;

/**
 * Reads of the block's capability consts inside the handlers `region` registers: with the guard
 * gone such a const holds what the server was built with, so the declarations the handler reads
 * are moved into it, read again when it runs (the capability pass then reads the request's,
 * through the handler's context: a handler without one keeps reading the block's const).
 * Returns the insertions, and the reads they take over.
 */
function handlerCopies(source: string, region: readonly Node[], declared: Declared, withContext: ReadonlySet<Node>): { edits: Edit[]; reads: Span[] } {
  const byHandler = new Map<Node, { names: Set<string>; reads: Span[] }>();
  if (declared.size === 0) return { edits: [], reads: [] };
  for (const node of region) {
    walk(node, (n, parents) => {
      if (n.type !== 'Identifier' || !declared.has(n.name) || !isRead(n, parents[parents.length - 1])) return;
      const handler = parents.find((p) => withContext.has(p));
      if (!handler || !isFunction(handler) || handler.body.type !== 'BlockStatement' || parents.some((fn) => binds(fn, n.name))) return;
      const entry = byHandler.get(handler) ?? { names: new Set<string>(), reads: [] };
      entry.names.add(n.name);
      entry.reads.push({ start: n.start!, end: n.end! });
      byHandler.set(handler, entry);
    });
  }
  const edits: Edit[] = [];
  const reads: Span[] = [];
  for (const [handler, { names, reads: own }] of byHandler) {
    const body = (handler as FunctionNode).body as Extract<Node, { type: 'BlockStatement' }>;
    const first = body.body[0];
    if (!first || !startsLine(source, first.start!) || lineEndOf(source, body.start!) >= first.start!) continue;
    const needed = new Set<string>();
    const need = (name: string) => {
      if (needed.has(name)) return;
      needed.add(name);
      for (const r of declared.get(name)!.reads) need(r);
    };
    names.forEach(need);
    const statements = [...new Set([...needed].map((n) => declared.get(n)!.statement))].sort((a, b) => a.start! - b.start!);
    const indent = indentAt(source, first.start!);
    const eol = eolOf(source);
    // The blank line that set the last of them apart from what followed goes with them.
    const last = statements[statements.length - 1]!;
    const apart = /^\r?\n[ \t]*\r?\n/.test(source.slice(lineEndOf(source, last.end!)));
    const text = statements.map((st) => eol + reindented(source, st, indent)).join('') + (apart ? eol : '');
    edits.push({ start: lineEndOf(source, body.start!), end: lineEndOf(source, body.start!), text });
    reads.push(...own);
  }
  return { edits, reads };
}

/** A statement, with the comment lines above it (removed with it), its lines moved from its own indent to `indent`. */
function reindented(source: string, statement: Statement, indent: string): string {
  const own = indentAt(source, statement.start!);
  const from = startsLine(source, statement.start!) ? commentLinesAbove(source, lineStartOf(source, statement.start!)) : statement.start!;
  return source
    .slice(from, statement.end!)
    .split(/(?<=\n)/)
    .map((line, i) => (line.startsWith(own) ? indent + line.slice(own.length) : i === 0 ? indent + line : line))
    .join('');
}

/** Whether a function declares `name` itself (a parameter, a local): its reads are of its own. */
function binds(fn: Node, name: string): boolean {
  if (!isFunction(fn)) return false;
  if (fn.params.some((p) => boundNames(p).some((b) => b.name === name))) return true;
  return someNode(fn.body, (n) => n.type === 'VariableDeclarator' && boundNames(n.id).some((b) => b.name === name));
}

function markedAbove(source: string, at: number): boolean {
  const lineStart = lineStartOf(source, at);
  if (lineStart === 0) return false;
  return source.slice(lineStartOf(source, lineStart - 1), lineStart).includes(`${TODO_MARKER}(registered-late)`);
}
