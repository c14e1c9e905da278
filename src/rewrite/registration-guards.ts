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
import { isFunction, someNode, walk } from '../analyse/ast.ts';
import { namedFunctions } from '../analyse/file-index.ts';
import {
  capabilityDeclaration,
  capabilityNames,
  isCapabilityTest,
  isEarlyReturnGuard,
  isRegistrationCall,
  onlyRegisters,
  readsCapabilities,
  statementsOf,
  ungatedCapability,
  type CapabilityNames,
  type LocalFunctions,
} from '../analyse/registrations.ts';
import { TODO_MARKER } from '../analyse/sdk-surface.ts';
import { type Edit, type Span, eolOf, indentAt, lineEndOf, lineStartOf, startsLine } from '../core/vocabulary.ts';
import { refuse } from '../plan/refusal.ts';
import { markerComment } from './edits/marker-comment.ts';
import { mergedRemovals, removeStatement } from './edits/removals.ts';
import { applyEdits } from './rewrite.ts';
import type { CapabilityRewrite } from './client-capabilities.ts';

export function rewriteRegistrationGuards(source: string, fileName: string, analysis?: FileAnalysis): CapabilityRewrite {
  if (!source.includes('getClientCapabilities')) return { output: source };
  const file = analysis ?? analyseFile(source, fileName);
  const handlers = new Set<Node>(file.handlers.map((h) => h.fn));
  const functions = namedFunctions(file.index);
  const edits: Edit[] = [];
  edits.push(...blockEdits(source, file.program.body, functions));
  for (const { node, ancestors } of file.index.functions) {
    if (handlers.has(node) || ancestors.some((a) => handlers.has(a)) || node.body.type !== 'BlockStatement') continue;
    edits.push(...blockEdits(source, node.body.body, functions));
  }
  const parsed = { program: file.program, edits };
  return { output: edits.length === 0 ? source : applyEdits(source, edits), parsed };
}

/** The guards of one block (a function's body, the module's top level), and the capability consts they leave unused. */
function blockEdits(source: string, statements: readonly Statement[], functions: LocalFunctions): Edit[] {
  const names = capabilityNames(statements);
  const edits: Edit[] = [];
  const removals: Edit[] = [];
  const dropped: Span[] = [];
  statements.forEach((s, i) => {
    if (s.type !== 'IfStatement') return;
    const rest = statements.slice(i + 1);
    if (!s.alternate && isCapabilityTest(s.test, names) && statementsOf(s.consequent).every((b) => onlyRegisters(b, functions, names))) {
      edits.push({ start: s.start!, end: s.end!, text: unwrapped(source, s) });
      dropped.push({ start: s.test.start!, end: s.test.end! });
    } else if (
      isEarlyReturnGuard(s, names) &&
      rest.some((r) => onlyRegisters(r, functions, names)) &&
      rest.every((r) => capabilityDeclaration(r, names) || onlyRegisters(r, functions, names))
    ) {
      removals.push(removeStatement(source, s));
      dropped.push({ start: s.start!, end: s.end! });
    } else if (readsCapabilities(s.test, names) && someNode(s, isRegistrationCall) && !markedAbove(source, s.start!)) {
      const test = source.slice(s.test.start!, s.test.end!).replace(/\s+/g, ' ');
      const quoted = test.length > 80 ? `${test.slice(0, 77)}...` : test;
      const capability = ungatedCapability(s.test, names);
      const { reason, next } =
        capability === undefined
          ? refuse('registered-late', 'capabilityGuard', { test: quoted })
          : refuse('registered-late', 'ungatedGuard', { test: quoted, capability });
      const at = lineStartOf(source, s.start!);
      edits.push({ start: at, end: at, text: markerComment({ indent: indentAt(source, s.start!), code: 'registered-late', reason, next }) + eolOf(source) });
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
function unwrapped(source: string, s: Extract<Statement, { type: 'IfStatement' }>): string {
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
    const line = source.slice(at, end);
    const inTemplate = templates.some((t) => at > t.start && at <= t.end);
    out += inTemplate ? line : line.replace(new RegExp(`^[ \\t]{0,${depth}}`), '');
    at = end;
  }
  return out.trimStart().trimEnd();
}

function markedAbove(source: string, at: number): boolean {
  const lineStart = lineStartOf(source, at);
  if (lineStart === 0) return false;
  return source.slice(lineStartOf(source, lineStart - 1), lineStart).includes(`${TODO_MARKER}(registered-late)`);
}
