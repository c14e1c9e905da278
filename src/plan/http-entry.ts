// HTTP entry points. A server connected to a Streamable HTTP or SSE transport serves only the
// 2025 era: a 2026-07-28 client falls back, and reaches the migrated handlers only through the
// SDK's shim. The SDK's guide serves 2026-07-28 with createMcpHandler(factory), which builds a
// server per request; its own 2025 half (`legacy: 'stateless'`) has no session, so the shim
// cannot send an input request there. So the route keeps its transport wiring for 2025 clients
// (a session carries the shim's questions) and, as the guide shows for a sessionful setup,
// first sends what `isLegacyRequest` says is no 2025 request to `createMcpHandler(factory,
// { legacy: 'reject' })`. That is done where it cannot change what a 2025 client gets: the
// server comes from a call the codemod can repeat, used for nothing but connect and close; the
// body the transport reads is already parsed; every transport option means nothing to
// createMcpHandler or has its counterpart there. Anything else is marked with the change to make.
import type { CallExpression, NewExpression, Node, ObjectExpression, ObjectProperty, Statement } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { boundNames, hasSideEffects, isFunction, keyName, memberPath, referencedNames, walk } from '../analyse/ast.ts';
import type { FunctionNode } from '../analyse/ast.ts';
import { innermostFunction } from '../analyse/file-index.ts';
import { requireOf } from '../analyse/module-imports.ts';
import { SERVER_PACKAGE } from '../analyse/sdk-surface.ts';
import { codeSnippet } from '../core/escape.ts';
import { enclosingStatement } from './entry-references.ts';
import { isInside, routeLocals, serverOf } from './http-server-factory.ts';
import { type Refusal, refuse } from './refusal.ts';
import type { StdioRefused } from './stdio-entry.ts';

const NODE_CLASSES = new Set(['NodeStreamableHTTPServerTransport', 'StreamableHTTPServerTransport']);
const FETCH_CLASS = 'WebStandardStreamableHTTPServerTransport';
const SSE = 'SSEServerTransport';
const MCP_PACKAGE = /^@modelcontextprotocol\//;
export const NODE_PACKAGE = '@modelcontextprotocol/node';
/** The v2 packages whose transports the rewrite knows (a v1 one is upgraded first, or marked). */
const V2_PACKAGES = new Set([SERVER_PACKAGE, NODE_PACKAGE]);

/** Options of the transport that concern only its own 2025 sessions. */
const SESSION_OPTIONS = new Set(['sessionIdGenerator', 'onsessioninitialized', 'onsessionclosed', 'eventStore', 'retryInterval']);
/** Options createMcpHandler takes under the same name. */
const SHARED_OPTIONS = new Set(['keepAliveMs', 'maxRequestBodySize']);

/** A route that now sends 2026-07-28 requests to createMcpHandler before its own wiring. */
export interface HttpServe {
  kind: 'http-serve';
  line: number;
  /** `node`: `(req, res)` and NodeStreamableHTTPServerTransport; `fetch`: a web Request and WebStandardStreamableHTTPServerTransport. */
  style: 'node' | 'fetch';
  /** The function that answers the requests. */
  route: FunctionNode;
  /** The guard goes above this statement of the route's body. */
  guardBefore: Statement;
  request: Node;
  /** node: the response the handler writes to, and the parsed body. */
  response?: Node;
  body?: Node;
  /** fetch: handleRequest's options (`{ authInfo }`), handed to the handler as they are, and their parsed body. */
  fetchOptions?: ObjectExpression;
  parsedBody?: Node;
  /** The call that builds the server, and the member of its result that is the server. */
  factory: CallExpression;
  member?: string;
  /** The handler is declared above this statement (the one holding the route, in its block). */
  handlerBefore: Statement;
  /** createMcpHandler's options besides `legacy`: the transport's `enableJsonResponse: true`, and the options both take. */
  jsonResponse: boolean;
  sharedOptions: ObjectProperty[];
}

export type HttpEntry = HttpServe | StdioRefused;

/** Each HTTP transport the module builds, planned (none once the module serves through createMcpHandler). */
export function planHttpEntries(file: FileAnalysis): HttpEntry[] {
  const bindings = moduleBindings(file);
  const classes = new Map<string, { imported: string; from: string }>();
  for (const [local, { from, imported }] of bindings) {
    if (MCP_PACKAGE.test(from) && (NODE_CLASSES.has(imported) || imported === FETCH_CLASS || imported === SSE)) classes.set(local, { imported, from });
  }
  if (classes.size === 0 || bindings.has('createMcpHandler') || bindings.has('isLegacyRequest')) return [];
  const found: Array<{ transport: NewExpression; parents: readonly Node[]; cls: { imported: string; from: string } }> = [];
  walk(file.program, (node, parents) => {
    if (node.type !== 'NewExpression' || node.callee.type !== 'Identifier') return undefined;
    const cls = classes.get(node.callee.name);
    if (cls && statementAt(parents)) found.push({ transport: node, parents: [...parents], cls });
    return undefined;
  });
  // Two Streamable HTTP transports in one function would need one guard for both: left to a person.
  const routeOf = (f: (typeof found)[number]) => (f.cls.imported === SSE ? undefined : innermostFunction(f.parents));
  return found.map((f) => {
    const route = routeOf(f);
    if (route && found.filter((g) => routeOf(g) === route).length > 1) {
      return {
        kind: 'refused',
        line: f.transport.loc!.start.line,
        statement: statementAt(f.parents)!,
        refusal: refuse('http-entry', 'wiring', { use: 'two transports in one route' }),
      };
    }
    return planOne(file, f.transport, f.parents, f.cls, bindings);
  });
}

/** The names the rewrite imports, by package, for each kind of route. */
export const HTTP_IMPORTS = {
  fetch: { [SERVER_PACKAGE]: ['createMcpHandler', 'isLegacyRequest'] },
  node: { [SERVER_PACKAGE]: ['createMcpHandler', 'isLegacyRequest'], [NODE_PACKAGE]: ['toNodeHandler', 'toWebRequest'] },
} as const;

/** Names the module imports or requires, by local name (a require only where the name is kept). */
export function moduleBindings(file: FileAnalysis): Map<string, { from: string; imported: string }> {
  const names = new Map(file.importedNames);
  for (const statement of file.program.body) {
    const required = requireOf(statement);
    if (required) for (const name of required.names) names.set(name, { from: required.specifier, imported: name });
  }
  return names;
}

function planOne(
  file: FileAnalysis,
  transport: NewExpression,
  parents: readonly Node[],
  cls: { imported: string; from: string },
  bindings: ReadonlyMap<string, { from: string }>,
): HttpEntry {
  const text = (n: Node) => codeSnippet(file.source.slice(n.start!, n.end!), 60);
  const line = transport.loc!.start.line;
  const statement = statementAt(parents)!;
  const marked = (refusal: Refusal): StdioRefused => ({ kind: 'refused', line, statement, refusal });
  if (cls.imported === SSE) return marked(refuse('http-entry', 'sse'));
  const wiring = (use: Node) => marked(refuse('http-entry', 'wiring', { use: text(use) }));
  const route = innermostFunction(parents);
  if (!V2_PACKAGES.has(cls.from) || !route || route.body.type !== 'BlockStatement') return wiring(statement);
  if (!route.async) return wiring(route);
  const options = transportOptions(transport);
  if (options === undefined) return wiring(transport);
  if ('unmatched' in options) return marked(refuse('http-entry', 'options', { option: options.unmatched }));
  if ('uncarried' in options) {
    return marked(refuse('http-entry', 'optionValue', { option: options.uncarried, value: text(options.value), counterpart: options.counterpart }));
  }

  const style = cls.imported === FETCH_CLASS ? 'fetch' : 'node';
  // A name the guard would import that the module already uses for something else.
  for (const [from, names] of Object.entries(HTTP_IMPORTS[style])) {
    const clash = names.find((n) => file.declaredAnywhere.has(n) && bindings.get(n)?.from !== from);
    if (clash) return marked(refuse('http-entry', 'wiring', { use: clash }));
  }
  const calls = handleRequestCalls(route);
  const served = style === 'node' ? nodeRequests(route, calls, text) : fetchRequests(route, calls, text);
  if ('refusal' in served) return marked(served.refusal);
  const routeParents = parents.slice(0, parents.indexOf(route));
  const server = serverOf(file, { route, routeParents }, transport, text);
  if ('refusal' in server) return marked(server.refusal);

  const reads = [served.request, served.response, served.body, served.fetchOptions];
  const guardBefore = guardPosition(file, route, reads, [transport, ...calls, server.connect]);
  if (!guardBefore) return wiring(calls[0]!);
  return {
    kind: 'http-serve',
    line,
    style,
    route,
    guardBefore,
    ...served,
    factory: server.factory,
    ...(server.member ? { member: server.member } : {}),
    handlerBefore: enclosingStatement([...routeParents, route]),
    jsonResponse: options.json,
    sharedOptions: options.shared,
  };
}

/** What the transport's options come to for createMcpHandler, or the first one the codemod cannot carry there. */
type SortedOptions = { json: boolean; shared: ObjectProperty[] } | { unmatched: string } | { uncarried: string; value: Node; counterpart: string };

/**
 * The transport's options, sorted: those that concern only its 2025 sessions, those
 * createMcpHandler takes too (`enableJsonResponse: true` is its `responseMode: 'json'`), carried
 * when their value is a literal; `unmatched` names the first it has no counterpart for (a host
 * check: 2026-07-28 requests would go unchecked). Undefined when they cannot be read.
 */
function transportOptions(transport: NewExpression): SortedOptions | undefined {
  const [options, ...more] = transport.arguments;
  if (!options) return { json: false, shared: [] };
  if (more.length > 0 || options.type !== 'ObjectExpression') return undefined;
  let json = false;
  const shared: ObjectProperty[] = [];
  for (const p of options.properties) {
    const key = p.type === 'SpreadElement' || p.computed ? undefined : keyName(p.key);
    if (key === undefined || p.type !== 'ObjectProperty') return undefined;
    if (SESSION_OPTIONS.has(key)) continue;
    const counterpart = key === 'enableJsonResponse' ? "responseMode: 'json'" : SHARED_OPTIONS.has(key) ? key : undefined;
    if (counterpart === undefined) return { unmatched: key };
    if (key === 'enableJsonResponse' && p.value.type === 'BooleanLiteral') json = p.value.value;
    else if (key !== 'enableJsonResponse' && p.value.type === 'NumericLiteral') shared.push(p);
    else return { uncarried: key, value: p.value, counterpart };
  }
  return { json, shared };
}

/** Every `x.handleRequest(...)` the route makes itself (not in a function inside it). */
function handleRequestCalls(route: FunctionNode): CallExpression[] {
  const calls: CallExpression[] = [];
  walk(route.body, (node) => {
    if (isFunction(node)) return false;
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed) {
      if (keyName(node.callee.property) === 'handleRequest') calls.push(node);
    }
    return undefined;
  });
  return calls;
}

type Served = Pick<HttpServe, 'request' | 'response' | 'body' | 'fetchOptions' | 'parsedBody'>;
type Text = (n: Node) => string;

/**
 * `(req, res)`: each call hands on the route's own two parameters, and those that pass a
 * parsed body pass the same one. With none, the transport reads the body stream itself, and
 * telling the eras apart would read it first: marked.
 */
function nodeRequests(route: FunctionNode, calls: readonly CallExpression[], text: Text): Served | { refusal: Refusal } {
  const [req, res] = route.params;
  const wiring = (use: Node) => ({ refusal: refuse('http-entry', 'wiring', { use: text(use) }) });
  if (calls.length === 0 || req?.type !== 'Identifier' || res?.type !== 'Identifier') return wiring(route);
  let body: Node | undefined;
  for (const call of calls) {
    const [a, b, c, ...more] = call.arguments;
    if (a?.type !== 'Identifier' || a.name !== req.name || b?.type !== 'Identifier' || b.name !== res.name || more.length > 0) return wiring(call);
    if (c && (c.type === 'SpreadElement' || c.type === 'ArgumentPlaceholder' || hasSideEffects(c) || (body && text(body) !== text(c)))) return wiring(call);
    body ??= c;
  }
  if (!body) return { refusal: refuse('http-entry', 'unreadBody', { call: text(calls[0]!) }) };
  return { request: req, response: res, body };
}

/**
 * A web Request: each call hands on the same request with the same options (`authInfo`,
 * `parsedBody`), and the route returns the Response it answers (so the handler's answers it too).
 */
function fetchRequests(route: FunctionNode, calls: readonly CallExpression[], text: Text): Served | { refusal: Refusal } {
  const wiring = (use: Node) => ({ refusal: refuse('http-entry', 'wiring', { use: text(use) }) });
  const [first] = calls;
  if (!first) return wiring(route);
  const [request, options] = first.arguments;
  const path = request && memberPath(request);
  if (path === undefined || path.startsWith('this')) return wiring(first);
  if (options !== undefined && options.type !== 'ObjectExpression') return wiring(first);
  let parsedBody: Node | undefined;
  for (const p of options?.properties ?? []) {
    const key = p.type === 'ObjectProperty' && !p.computed ? keyName(p.key) : undefined;
    if (p.type !== 'ObjectProperty' || (key !== 'authInfo' && key !== 'parsedBody') || hasSideEffects(p.value)) return wiring(first);
    if (key === 'parsedBody') parsedBody = p.value;
  }
  const same = (a: Node | undefined, b: Node | undefined) => (a ? text(a) : '') === (b ? text(b) : '');
  const returned = returnedCalls(route);
  for (const call of calls) {
    if (call.arguments.length > 2 || !same(call.arguments[0], request) || !same(call.arguments[1], options) || !returned.has(call)) return wiring(call);
  }
  return { request: request!, ...(options ? { fetchOptions: options } : {}), ...(parsedBody ? { parsedBody } : {}) };
}

/** The calls the route returns the value of: `return x(...)`, `return await x(...)`. */
function returnedCalls(route: FunctionNode): Set<Node> {
  const returned = new Set<Node>();
  walk(route.body, (node) => {
    if (isFunction(node)) return false;
    if (node.type === 'ReturnStatement' && node.argument) returned.add(node.argument.type === 'AwaitExpression' ? node.argument.argument : node.argument);
    return undefined;
  });
  return returned;
}

/**
 * The statement of the route's body the guard goes above: the first, unless what the guard
 * reads is declared in the route's body (`const body = await readJson(req)`). Each such name
 * must be declared by a `const` statement of the body itself, and the guard goes below the
 * last; the statements above it may only declare or compute (none answers a request) and must
 * not build, connect or use the transport.
 */
function guardPosition(file: FileAnalysis, route: FunctionNode, reads: ReadonlyArray<Node | undefined>, mustFollow: readonly Node[]): Statement | undefined {
  const statements = (route.body as Extract<Node, { type: 'BlockStatement' }>).body;
  const params = new Set(route.params.flatMap((p) => boundNames(p).map((b) => b.name)));
  const locals = routeLocals(file, route);
  const needed = new Set(reads.flatMap((n) => (n ? [...referencedNames(n)] : [])).filter((n) => locals.has(n) && !params.has(n)));
  let index = 0;
  statements.forEach((s, i) => {
    if (s.type !== 'VariableDeclaration' || s.kind !== 'const') return;
    for (const d of s.declarations) {
      for (const b of boundNames(d.id)) {
        if (needed.delete(b.name)) index = Math.max(index, i + 1);
      }
    }
  });
  if (needed.size > 0) return undefined;
  const above = statements.slice(0, index);
  if (above.some((s) => (s.type !== 'VariableDeclaration' && s.type !== 'ExpressionStatement') || mustFollow.some((n) => isInside(n, s)))) return undefined;
  return statements[index];
}

/** The statement of a block or of the module the node the walk is at stands in. */
function statementAt(parents: readonly Node[]): Statement | undefined {
  for (let i = parents.length - 1; i > 0; i--) {
    const up = parents[i - 1]!;
    if (up.type === 'Program' || up.type === 'BlockStatement') return parents[i] as Statement;
  }
  return undefined;
}
