// HTTP entry points. A server connected to a Streamable HTTP or SSE transport serves only the
// 2025 era: a 2026-07-28 client falls back, and reaches the migrated handlers only through the
// SDK's shim. The SDK's guide serves both eras from one factory with createMcpHandler, which
// is fetch-shaped and stateless: moving a route onto it changes how the application is wired
// (the framework's route, sessions, auth), so each transport is marked with the change to
// make, never rewritten.
import type { NewExpression, Node, ObjectExpression, Statement } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { keyName, walk } from '../analyse/ast.ts';
import { refuse } from './refusal.ts';
import type { StdioRefused } from './stdio-entry.ts';

const STREAMABLE = new Set(['StreamableHTTPServerTransport', 'NodeStreamableHTTPServerTransport', 'WebStandardStreamableHTTPServerTransport']);
const SSE = 'SSEServerTransport';
const MCP_PACKAGE = /^@modelcontextprotocol\//;

/** Each HTTP transport the module builds, marked (none once the module serves through createMcpHandler). */
export function planHttpEntries(file: FileAnalysis): StdioRefused[] {
  const classes = new Map<string, 'streamable' | 'sse'>();
  for (const [local, { from, imported }] of file.importedNames) {
    if (!MCP_PACKAGE.test(from)) continue;
    if (STREAMABLE.has(imported)) classes.set(local, 'streamable');
    else if (imported === SSE) classes.set(local, 'sse');
  }
  if (classes.size === 0 || file.importedNames.has('createMcpHandler')) return [];
  const entries: StdioRefused[] = [];
  walk(file.program, (node, parents) => {
    if (node.type !== 'NewExpression' || node.callee.type !== 'Identifier') return undefined;
    const kind = classes.get(node.callee.name);
    const statement = kind && statementOf(parents);
    if (!statement) return undefined;
    const id = kind === 'sse' ? 'sse' : stateless(node) ? 'stateless' : 'sessionful';
    entries.push({ kind: 'refused', line: node.loc!.start.line, statement, refusal: refuse('http-entry', id) });
    return undefined;
  });
  return entries;
}

/** `{ sessionIdGenerator: undefined }`: a transport per request, as createMcpHandler serves. */
function stateless(transport: NewExpression): boolean {
  const options = transport.arguments[0];
  if (options?.type !== 'ObjectExpression') return false;
  return (options as ObjectExpression).properties.some(
    (p) => p.type === 'ObjectProperty' && keyName(p.key) === 'sessionIdGenerator' && p.value.type === 'Identifier' && p.value.name === 'undefined',
  );
}

function statementOf(parents: readonly Node[]): Statement | undefined {
  for (let i = parents.length - 1; i > 0; i--) {
    const up = parents[i - 1]!;
    if (up.type === 'Program' || up.type === 'BlockStatement') return parents[i] as Statement;
  }
  return undefined;
}
