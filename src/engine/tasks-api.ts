// The v1 SDK's experimental tasks API, which v2 removed (SEP-2663: tasks moved to the
// Extensions Track). The official v1-to-v2 codemod drops its imports and server options with a
// warning at the top of the file, and leaves the code that uses it: that code then does not
// build (`InMemoryTaskStore is not defined`, no `server.experimental`, a `CreateTaskResult`
// whose import it dropped). Each statement that still uses it gets a marker above it naming each
// use, and a note at its line, so the summary says which lines block the build and `check` keeps
// reporting them until they are gone.
import type { Identifier, Node, Program, Statement } from '@babel/types';
import { forEachNode, walk } from '../analyse/ast.ts';
import { dialectOf, parseSource } from '../analyse/parse.ts';
import { codeSnippet } from '../core/escape.ts';
import { type Edit, indentAt, lineStartOf } from '../core/vocabulary.ts';
import { markerLine, refuse } from '../plan/refusal.ts';
import { applyEdits, markerEdits } from '../rewrite/rewrite.ts';

const TASK_CLASSES = new Set(['InMemoryTaskStore', 'InMemoryTaskMessageQueue']);
const QUICK = /InMemoryTask(?:Store|MessageQueue)|\.experimental\s*\.\s*tasks\b/;
const CODE = 'tasks-api';

/** The v1 SDK's tasks modules: the official codemod drops the imports from them it knows. */
const TASKS_MODULE = /^@modelcontextprotocol\/sdk\/experimental\/tasks(?:\/|$)/;

/** The names a v1 text imports from the tasks modules (`CreateTaskResult`): the uses left of them dangle once their import goes. */
export function tasksImports(v1Text: string, fileName: string): Set<string> {
  const names = new Set<string>();
  if (!v1Text.includes('experimental/tasks')) return names;
  try {
    for (const s of parseSource(v1Text, dialectOf(fileName)).program.body) {
      if (s.type === 'ImportDeclaration' && TASKS_MODULE.test(s.source.value)) for (const spec of s.specifiers) names.add(spec.local.name);
    }
  } catch {
    // A text that does not parse was not upgraded either.
  }
  return names;
}

/**
 * `text` with a marker above each statement using the removed tasks API, and a note for each
 * (lines in the marked text). `dropped`: names the v1 text imported from the tasks modules
 * (tasksImports); a use of one the upgraded text no longer imports is a use of the API.
 */
export function markTasksApi(
  text: string,
  fileName: string,
  dropped: ReadonlySet<string> = new Set(),
): { text: string; notes: Array<{ line: number; column: number; message: string }> } {
  if (!QUICK.test(text) && dropped.size === 0) return { text, notes: [] };
  let program;
  try {
    program = parseSource(text, dialectOf(fileName)).program;
  } catch {
    return { text, notes: [] };
  }
  const statements = new Map<Statement, Node[]>();
  // Each use of a statement once: not again by the same text, nor inside one already named (`InMemoryTaskStore` of `new InMemoryTaskStore()`).
  const add = (statement: Statement | undefined, use: Node) => {
    if (!statement) return;
    const uses = statements.get(statement) ?? [];
    const named = uses.some((u) => (u.start! <= use.start! && use.end! <= u.end!) || text.slice(u.start!, u.end!) === text.slice(use.start!, use.end!));
    if (!named) uses.push(use);
    statements.set(statement, uses);
  };
  walk(program, (node, parents) => {
    const uses =
      (node.type === 'NewExpression' && node.callee.type === 'Identifier' && TASK_CLASSES.has(node.callee.name)) ||
      (node.type === 'MemberExpression' &&
        !node.computed &&
        node.property.type === 'Identifier' &&
        node.property.name === 'tasks' &&
        isExperimental(node.object));
    if (!uses) return undefined;
    add(statementOf(parents), node);
    return false;
  });
  for (const use of danglingUses(program, dropped)) add(statementAt(program, use.start!), use);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const edits: Edit[] = [];
  const found: Array<{ lineStart: number; reason: string; next: string }> = [];
  for (const [statement, uses] of [...statements].sort(([a], [b]) => a.start! - b.start!)) {
    const lineStart = lineStartOf(text, statement.start!);
    const [first, ...others] = uses.map((u) => codeSnippet(text.slice(u.start!, u.end!), 60));
    // The marker names the first use, the note each (`a`, `b`: the template quotes the whole).
    const refusal =
      others.length === 0
        ? refuse(CODE, 'removed', { use: first! })
        : refuse(CODE, 'removedSeveral', { use: first!, more: String(others.length), uses: [first, ...others].join('`, `') });
    const reason = refusal.reason;
    const marker = { lineStart, indent: indentAt(text, statement.start!), code: CODE, text: markerLine(refusal) };
    found.push({ lineStart, reason, next: refusal.next });
    edits.push(...markerEdits(text, marker, eol));
  }
  const marked = applyEdits(text, edits);
  // Each note at its statement's line in the marked text: one line lower per marker written above it.
  const notes = found.map(({ lineStart, reason, next }) => {
    const above = edits.filter((e) => e.start <= lineStart && e.end === e.start).length;
    const line = text.slice(0, lineStart).split('\n').length + above;
    return { line, column: 1, message: `${reason} Next: ${next}` };
  });
  return { text: marked, notes };
}

/** The identifiers (values and types) naming one of `dropped` where the module no longer imports or declares it at the top. */
function danglingUses(program: Program, dropped: ReadonlySet<string>): Identifier[] {
  if (dropped.size === 0) return [];
  const bound = new Set<string>();
  for (const s of program.body) {
    if (s.type === 'ImportDeclaration') for (const spec of s.specifiers) bound.add(spec.local.name);
    const declared = s.type === 'ExportNamedDeclaration' ? s.declaration : s;
    if (declared && 'id' in declared && declared.id?.type === 'Identifier') bound.add(declared.id.name);
  }
  const uses: Identifier[] = [];
  forEachNode(program, (node) => {
    if (node.type === 'ImportDeclaration') return false;
    if (node.type === 'Identifier' && dropped.has(node.name) && !bound.has(node.name)) uses.push(node);
    return undefined;
  });
  return uses;
}

/** The innermost statement of a block or of the module that holds `offset`. */
function statementAt(program: Program, offset: number): Statement | undefined {
  let found: Statement | undefined;
  walk(program, (node, parents) => {
    if (node.start! > offset || node.end! <= offset) return false;
    const up = parents[parents.length - 1];
    if (up && (up.type === 'Program' || up.type === 'BlockStatement')) found = node as Statement;
    return undefined;
  });
  return found;
}

function isExperimental(node: Node): boolean {
  return (
    (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') &&
    !node.computed &&
    node.property.type === 'Identifier' &&
    node.property.name === 'experimental'
  );
}

/** The statement of a block or of the module that holds the node the walk is at. */
function statementOf(parents: readonly Node[]): Statement | undefined {
  for (let i = parents.length - 1; i > 0; i--) {
    const up = parents[i - 1]!;
    if (up.type === 'Program' || up.type === 'BlockStatement') return parents[i] as Statement;
  }
  return undefined;
}
