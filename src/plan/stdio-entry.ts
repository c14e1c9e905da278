// Stdio entry points. A server connected to a StdioServerTransport serves only the 2025 era:
// a 2026-07-28 client finds no `server/discover` and falls back, so every migrated handler is
// reached only through the SDK's shim. The SDK's guide maps `await server.connect(new
// StdioServerTransport())` to `serveStdio(() => buildServer())`, which serves both eras from
// one factory. It may call the factory more than once (a probe instance, then the era the
// client chose), so the factory must build a new server each time: a server that comes from a
// call the codemod can repeat (`const { server, cleanup } = createServer()`) is rewritten, any
// other wiring is marked with the change to make.
import type { CallExpression, NewExpression, Node, Statement, VariableDeclaration, VariableDeclarator } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { hasSideEffects, memberPath, walk } from '../analyse/ast.ts';
import { requireOf } from '../analyse/module-imports.ts';
import { SERVER_PACKAGE } from '../analyse/sdk-surface.ts';
import { codeSnippet } from '../core/escape.ts';
import {
  callStatement,
  declarationOf,
  destructured,
  enclosingStatement,
  isCloseCall,
  isConnectArgument,
  references,
  scopeOf,
  type ServerMember,
  statementOf,
} from './entry-references.ts';
import { type Refusal, refuse } from './refusal.ts';

/** Where serveStdio and the v2 StdioServerTransport come from. */
export const STDIO_PACKAGE = `${SERVER_PACKAGE}/stdio`;
export const SERVE_STDIO = 'serveStdio';
const TRANSPORT_CLASS = 'StdioServerTransport';

/** A wiring rewritten to `serveStdio(factory)`. */
export interface StdioServe {
  kind: 'serve';
  line: number;
  /** `await server.connect(transport);`, removed. */
  connect: Statement;
  /** `const transport = new StdioServerTransport()`, removed, when the transport is a variable. */
  transportDeclaration?: VariableDeclaration;
  /** The transport built with streams of its own: handed to serveStdio as `{ transport }`. */
  ownTransport?: NewExpression;
  /** Where the server was declared, and the call that built it (repeated by the factory). */
  declaration: VariableDeclaration;
  declarator: VariableDeclarator;
  call: CallExpression;
  awaited: boolean;
  serverName: string;
  /** The server is a property of what the call returns (`const { server, cleanup } = createServer()`). */
  member?: ServerMember;
}

/** A wiring left with a marker above `statement`. */
export interface StdioRefused {
  kind: 'refused';
  line: number;
  statement: Statement;
  refusal: Refusal;
}

export type StdioEntry = StdioServe | StdioRefused;

/** Every stdio transport the module builds, each planned as a rewrite or a marker. */
export function planStdioEntries(file: FileAnalysis): StdioEntry[] {
  const classes = transportClasses(file);
  if (classes.size === 0) return [];
  const entries: StdioEntry[] = [];
  walk(file.program, (node, parents) => {
    if (node.type === 'NewExpression' && node.callee.type === 'Identifier' && classes.has(node.callee.name)) entries.push(planOne(file, node, parents));
  });
  return entries;
}

/** Local names of StdioServerTransport imported (or required) from the v2 server package. */
export function transportClasses(file: FileAnalysis): Set<string> {
  const names = new Set<string>();
  for (const [local, { from, imported }] of file.importedNames) if (imported === TRANSPORT_CLASS && isStdioSource(from)) names.add(local);
  for (const statement of file.program.body) {
    const required = requireOf(statement);
    if (required && isStdioSource(required.specifier) && required.names.includes(TRANSPORT_CLASS)) names.add(TRANSPORT_CLASS);
  }
  return names;
}

function isStdioSource(specifier: string): boolean {
  return specifier === STDIO_PACKAGE || specifier === SERVER_PACKAGE;
}

function planOne(file: FileAnalysis, transport: NewExpression, parents: readonly Node[]): StdioEntry {
  const { source } = file;
  const text = (n: Node) => codeSnippet(source.slice(n.start!, n.end!), 60);
  const parent = parents[parents.length - 1]!;
  let connectCall: CallExpression | undefined;
  let connectParents: readonly Node[] = parents.slice(0, -1);
  let transportDeclaration: VariableDeclaration | undefined;
  if (parent.type === 'VariableDeclarator' && parent.init === transport && parent.id.type === 'Identifier') {
    const declaration = parents[parents.length - 2]!;
    if (declaration.type === 'VariableDeclaration' && declaration.declarations.length === 1) {
      const uses = references(scopeOf(parents), parent.id.name, parent.id);
      if (uses.length === 1 && isConnectArgument(uses[0]!)) {
        connectCall = uses[0]!.parents[uses[0]!.parents.length - 1] as CallExpression;
        connectParents = uses[0]!.parents.slice(0, -1);
        transportDeclaration = declaration;
      }
    }
  } else if (isConnectArgument({ node: transport, parents })) connectCall = parent as CallExpression;
  const statement = enclosingStatement(parents);
  const line = transport.loc!.start.line;
  if (!connectCall) return { kind: 'refused', line, statement, refusal: refuse('stdio-entry', 'wiring', { use: text(statement) }) };
  const connect = statementOf(connectParents);
  const connectText = text(connectCall);
  const receiver = (connectCall.callee as { object: Node }).object;
  if (!connect || receiver.type !== 'Identifier')
    return { kind: 'refused', line, statement: connect ?? statement, refusal: refuse('stdio-entry', 'wiring', { use: text(connect ?? statement) }) };
  const serverName = receiver.name;
  const marked = (refusal: Refusal): StdioRefused => ({ kind: 'refused', line: connect.loc!.start.line, statement: connect, refusal });
  const declared = declarationOf(file, serverName, connectParents);
  const unknown = () => marked(refuse('stdio-entry', 'unknownServer', { server: serverName, connect: connectText }));
  if (!declared) return unknown();
  const { declarator, declaration, scope } = declared;
  const awaited = declarator.init?.type === 'AwaitExpression';
  const init = awaited ? (declarator.init as { argument: Node }).argument : declarator.init;
  if (init?.type === 'NewExpression') return marked(refuse('stdio-entry', 'singleton', { server: serverName, cls: text(init.callee), connect: connectText }));
  if (init?.type !== 'CallExpression' || memberPath(init.callee) === undefined || init.arguments.some(hasSideEffects)) return unknown();
  const member = declarator.id.type === 'ObjectPattern' ? destructured(declarator.id, serverName) : undefined;
  if (declarator.id.type !== 'Identifier' && !member) return unknown();
  const held = (use: Node) =>
    marked(
      refuse('stdio-entry', 'heldServer', { server: serverName, use: text(use), line: String(use.loc!.start.line), connect: connectText, factory: text(init) }),
    );
  for (const use of references(scope, serverName, declarator.id)) {
    if (use.node === receiver) continue;
    if (!isCloseCall(use)) return held(use.parents[use.parents.length - 1] ?? use.node);
  }
  for (const other of member?.others ?? []) {
    for (const use of references(scope, other.local, declarator.id)) {
      const call = callStatement(use);
      if (!call) {
        const used = use.parents[use.parents.length - 1] ?? use.node;
        const line = String(used.loc!.start.line);
        return marked(refuse('stdio-entry', 'heldMember', { member: other.local, factory: text(init), use: text(used), line, connect: connectText }));
      }
      other.calls.push(call);
    }
  }
  const ownTransport = transport.arguments.length > 0 ? transport : undefined;
  return {
    kind: 'serve',
    line: connect.loc!.start.line,
    connect,
    transportDeclaration,
    ownTransport,
    declaration,
    declarator,
    call: init,
    awaited,
    serverName,
    member,
  };
}
