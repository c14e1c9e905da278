// The v1 SDK's experimental tasks API, which v2 removed (SEP-2663: tasks moved to the
// Extensions Track). The official v1-to-v2 codemod drops its imports and server options with a
// warning at the top of the file, and leaves the code that uses it: that code then does not
// build (`InMemoryTaskStore is not defined`, no `server.experimental`). Each statement that
// still uses it gets a marker above it and a note at its line, so the summary says which lines
// block the build and `check` keeps reporting them until they are gone.
import type { Node, Statement } from '@babel/types';
import { walk } from '../analyse/ast.ts';
import { dialectOf, parseSource } from '../analyse/parse.ts';
import { codeSnippet } from '../core/escape.ts';
import { type Edit, indentAt, lineStartOf } from '../core/vocabulary.ts';
import { markerLine, REFUSAL_CODES, refuse } from '../plan/refusal.ts';
import { applyEdits, markerEdits } from '../rewrite/rewrite.ts';

const TASK_CLASSES = new Set(['InMemoryTaskStore', 'InMemoryTaskMessageQueue']);
const QUICK = /InMemoryTask(?:Store|MessageQueue)|\.experimental\s*\.\s*tasks\b/;
const CODE = 'tasks-api';

/** `text` with a marker above each statement using the removed tasks API, and a note for each (lines in the marked text). */
export function markTasksApi(text: string, fileName: string): { text: string; notes: Array<{ line: number; column: number; message: string }> } {
  if (!QUICK.test(text)) return { text, notes: [] };
  let program;
  try {
    program = parseSource(text, dialectOf(fileName)).program;
  } catch {
    return { text, notes: [] };
  }
  const statements = new Map<Statement, Node>();
  walk(program, (node, parents) => {
    const uses =
      (node.type === 'NewExpression' && node.callee.type === 'Identifier' && TASK_CLASSES.has(node.callee.name)) ||
      (node.type === 'MemberExpression' &&
        !node.computed &&
        node.property.type === 'Identifier' &&
        node.property.name === 'tasks' &&
        isExperimental(node.object));
    if (!uses) return undefined;
    const statement = statementOf(parents);
    if (statement && !statements.has(statement)) statements.set(statement, node);
    return false;
  });
  const message = REFUSAL_CODES[CODE].messages.removed;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const edits: Edit[] = [];
  const found: Array<{ lineStart: number; reason: string }> = [];
  for (const [statement, use] of statements) {
    const lineStart = lineStartOf(text, statement.start!);
    const refusal = refuse(CODE, 'removed', { use: codeSnippet(text.slice(use.start!, use.end!), 60) });
    const reason = refusal.reason;
    const marker = { lineStart, indent: indentAt(text, statement.start!), code: CODE, text: markerLine(refusal) };
    found.push({ lineStart, reason });
    edits.push(...markerEdits(text, marker, eol));
  }
  const marked = applyEdits(text, edits);
  // Each note at its statement's line in the marked text: one line lower per marker written above it.
  const notes = found.map(({ lineStart, reason }) => {
    const above = edits.filter((e) => e.start <= lineStart && e.end === e.start).length;
    const line = text.slice(0, lineStart).split('\n').length + above;
    return { line, column: 1, message: `${reason} Next: ${message.next}` };
  });
  return { text: marked, notes };
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
