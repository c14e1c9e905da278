// What the official v1-to-v2 codemod leaves of a v1 handler's shape, with a marker above it, and
// what v2 (2.4.0) calls it instead, as data:
// - a context destructured in the handler's parameters (`async (args, { sendNotification, _meta })`):
//   v2 nests those keys (`ctx.mcpReq.notify`, `ctx.mcpReq._meta`), and the codemod, which remaps
//   `extra.<key>` through its table, refuses the pattern;
// - `setRequestHandler(z.object({ method: z.literal('resources/subscribe') }), handler)`: v2
//   keys a handler by its method string, and the codemod only knows the SDK's own schemas.
// Each is read here; rewrite/v1-leftovers.ts writes the v2 form and drops the marker it answers.
import type { CallExpression, Node, ObjectPattern } from '@babel/types';
import { keyName, stringValue, walk } from './ast.ts';
import { ZOD_MODULE } from './tool-overloads.ts';

/** Where a key of v1's handler context (`RequestHandlerExtra`) lives on v2's context. */
export interface ContextPlace {
  /** The v2 object holding it: `ctx.mcpReq`, `ctx.http` (absent without HTTP), or the context itself. */
  under?: 'mcpReq' | 'http';
  key: string;
}

/**
 * v1 context keys and their v2 places, as the official codemod maps `extra.<key>` and as
 * v2's `ServerContext` declares them. Left out, so that a pattern naming one keeps its marker:
 * `sendRequest` (the MRTR pass migrates or marks the request it sends), `requestInfo` (v2's
 * `http.req` is a fetch `Request`: its headers are read another way), and the tasks keys
 * (`taskStore`, `taskId`, `taskRequestedTtl`: v2 removed the tasks API).
 */
export const V1_CONTEXT_PLACES: ReadonlyMap<string, ContextPlace> = new Map([
  ['signal', { under: 'mcpReq', key: 'signal' }],
  ['requestId', { under: 'mcpReq', key: 'id' }],
  ['_meta', { under: 'mcpReq', key: '_meta' }],
  ['sendNotification', { under: 'mcpReq', key: 'notify' }],
  ['authInfo', { under: 'http', key: 'authInfo' }],
  ['closeSSEStream', { under: 'http', key: 'closeSSE' }],
  ['closeStandaloneSSEStream', { under: 'http', key: 'closeStandaloneSSE' }],
  ['sessionId', { key: 'sessionId' }],
]);

/**
 * The request methods v2 (2.4.0) keys a handler by without schemas (its `RequestMethod`:
 * `setRequestHandler(method, handler)` parses the request with the spec schema), and the
 * notification methods (`NotificationMethod`) likewise.
 */
export const SPEC_REQUEST_METHODS: ReadonlySet<string> = new Set([
  'completion/complete',
  'elicitation/create',
  'initialize',
  'logging/setLevel',
  'ping',
  'prompts/get',
  'prompts/list',
  'resources/list',
  'resources/read',
  'resources/subscribe',
  'resources/templates/list',
  'resources/unsubscribe',
  'roots/list',
  'sampling/createMessage',
  'server/discover',
  'subscriptions/listen',
  'tools/call',
  'tools/list',
]);
export const SPEC_NOTIFICATION_METHODS: ReadonlySet<string> = new Set([
  'notifications/cancelled',
  'notifications/elicitation/complete',
  'notifications/initialized',
  'notifications/message',
  'notifications/progress',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/roots/list_changed',
  'notifications/subscriptions/acknowledged',
  'notifications/tools/list_changed',
]);

/**
 * v2's own keys, kept as they are: a pattern already in v2's shape (`{ sessionId, mcpReq: { id } }`,
 * as we write it) is marked again by the codemod when it runs on our output.
 */
const V2_CONTEXT_KEYS: ReadonlySet<string> = new Set(['mcpReq', 'http']);

/** One key of a destructured v1 context: the property as written, and where v2 has it. */
export interface ContextKey {
  property: Extract<ObjectPattern['properties'][number], { type: 'ObjectProperty' }>;
  place: ContextPlace;
}

/**
 * The keys of a context destructured the v1 way, each with its v2 place; undefined when one key
 * has none (unknown, or left out above), v2's `mcpReq` or `http` is destructured beside a v1 key
 * that goes under it, or the pattern has a rest element or a computed key: then it is not rewritten.
 */
export function v1ContextKeys(pattern: ObjectPattern): ContextKey[] | undefined {
  const keys: ContextKey[] = [];
  for (const property of pattern.properties) {
    if (property.type !== 'ObjectProperty' || property.computed) return undefined;
    const name = keyName(property.key);
    const place = name === undefined ? undefined : V2_CONTEXT_KEYS.has(name) ? { key: name } : V1_CONTEXT_PLACES.get(name);
    if (!place) return undefined;
    keys.push({ property, place });
  }
  // v2's `mcpReq` beside a v1 key that goes under it would be destructured twice.
  const ownV2 = new Set(keys.filter((k) => V2_CONTEXT_KEYS.has(k.place.key) && k.place.under === undefined).map((k) => k.place.key));
  if (keys.length === 0 || keys.some((k) => k.place.under !== undefined && ownV2.has(k.place.under))) return undefined;
  return keys;
}

/**
 * The method a `setRequestHandler`/`setNotificationHandler` call keys its handler by when its
 * first argument is a zod object of that method alone (`z.object({ method: z.literal('m') })`,
 * optionally `.passthrough()`, `.loose()` or `.strip()`) and `m` is a spec method of that kind;
 * `zodNames` are the file's local names of the zod namespace.
 */
export function schemaKeyedMethod(call: CallExpression, zodNames: ReadonlySet<string>): { method: string; literal: Node } | undefined {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return undefined;
  const methods =
    callee.property.name === 'setRequestHandler'
      ? SPEC_REQUEST_METHODS
      : callee.property.name === 'setNotificationHandler'
        ? SPEC_NOTIFICATION_METHODS
        : undefined;
  const first = call.arguments[0];
  if (!methods || call.arguments.length !== 2 || !first) return undefined;
  const literal = methodOfZodObject(unwrapOpenness(first), zodNames);
  const method = stringValue(literal);
  return literal && method !== undefined && methods.has(method) ? { method, literal } : undefined;
}

/** `x.passthrough()` / `x.loose()` / `x.strip()` → `x`: how far unknown keys are kept does not change the method. */
function unwrapOpenness(node: Node): Node {
  if (
    node.type === 'CallExpression' &&
    node.arguments.length === 0 &&
    node.callee.type === 'MemberExpression' &&
    !node.callee.computed &&
    node.callee.property.type === 'Identifier' &&
    ['passthrough', 'loose', 'strip'].includes(node.callee.property.name)
  ) {
    return node.callee.object;
  }
  return node;
}

/** `z.object({ method: z.literal('m') })` → the `'m'` node. */
function methodOfZodObject(node: Node, zodNames: ReadonlySet<string>): Node | undefined {
  if (!isZodCall(node, 'object', zodNames) || node.arguments.length !== 1) return undefined;
  const shape = node.arguments[0]!;
  if (shape.type !== 'ObjectExpression' || shape.properties.length !== 1) return undefined;
  const only = shape.properties[0]!;
  if (only.type !== 'ObjectProperty' || only.computed || keyName(only.key) !== 'method') return undefined;
  const literal = only.value as Node;
  if (!isZodCall(literal, 'literal', zodNames) || literal.arguments.length !== 1) return undefined;
  return literal.arguments[0] as Node;
}

function isZodCall(node: Node, name: string, zodNames: ReadonlySet<string>): node is CallExpression {
  return (
    node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    !node.callee.computed &&
    node.callee.object.type === 'Identifier' &&
    zodNames.has(node.callee.object.name) &&
    node.callee.property.type === 'Identifier' &&
    node.callee.property.name === name
  );
}

/** The local names the file binds the zod namespace to (`import { z } from 'zod'`, `import * as z from 'zod/v4'`, `import z from 'zod'`). */
export function zodNamespaceNames(importedNames: ReadonlyMap<string, { from: string; imported: string }>): Set<string> {
  const names = new Set<string>();
  for (const [local, { from, imported }] of importedNames) {
    if (ZOD_MODULE.test(from) && (imported === 'z' || imported === '*' || imported === 'default')) names.add(local);
  }
  return names;
}

/** The v1 SDK's schemas of spec requests, by name, and the method v2 keys their handlers by. */
const REQUEST_SCHEMA_METHODS: ReadonlyMap<string, string> = new Map([
  ['CallToolRequestSchema', 'tools/call'],
  ['CompleteRequestSchema', 'completion/complete'],
  ['CreateMessageRequestSchema', 'sampling/createMessage'],
  ['ElicitRequestSchema', 'elicitation/create'],
  ['GetPromptRequestSchema', 'prompts/get'],
  ['InitializeRequestSchema', 'initialize'],
  ['ListPromptsRequestSchema', 'prompts/list'],
  ['ListResourcesRequestSchema', 'resources/list'],
  ['ListResourceTemplatesRequestSchema', 'resources/templates/list'],
  ['ListRootsRequestSchema', 'roots/list'],
  ['ListToolsRequestSchema', 'tools/list'],
  ['PingRequestSchema', 'ping'],
  ['ReadResourceRequestSchema', 'resources/read'],
  ['SetLevelRequestSchema', 'logging/setLevel'],
  ['SubscribeRequestSchema', 'resources/subscribe'],
  ['UnsubscribeRequestSchema', 'resources/unsubscribe'],
]);

/** A request schema of the SDK named where a wrapped `setRequestHandler` compares what it is handed. */
export interface SchemaCompared {
  /** The statement (of the program's body or a block) the name is in. */
  statement: Node;
  name: string;
  method: string;
}

/**
 * Where a module replaces `setRequestHandler` with a wrapper (`server.setRequestHandler = (schema,
 * handler) => ...`), the SDK's request schemas it names other than as a handler's key: v1 handed
 * the wrapper those schemas, v2 hands it method strings, so a lookup by schema (a set of them, a
 * comparison) matches nothing any more, and silently. One per statement, in source order.
 */
export function schemasComparedByWrapper(program: Node, importedNames: ReadonlyMap<string, { from: string; imported: string }>): SchemaCompared[] {
  let wrapped = false;
  walk(program, (node) => {
    if (node.type === 'AssignmentExpression' && node.left.type === 'MemberExpression' && keyName(node.left.property) === 'setRequestHandler') wrapped = true;
  });
  if (!wrapped) return [];
  const found = new Map<Node, SchemaCompared>();
  walk(program, (node, parents) => {
    if (node.type !== 'Identifier') return;
    const imported = importedNames.get(node.name);
    const method = imported && imported.from.startsWith('@modelcontextprotocol/') && REQUEST_SCHEMA_METHODS.get(imported.imported);
    if (!method) return;
    const parent = parents[parents.length - 1];
    const key = parent?.type === 'CallExpression' && parent.arguments[0] === node && parent.callee.type === 'MemberExpression';
    if (!parent || parent.type.startsWith('Import') || (key && keyName((parent.callee as { property: Node }).property) === 'setRequestHandler')) return;
    const statement = [...parents]
      .reverse()
      .find((p, i, up) => /Statement|Declaration$/.test(p.type) && ['Program', 'BlockStatement'].includes(up[i + 1]?.type ?? ''));
    if (statement && !found.has(statement)) found.set(statement, { statement, name: node.name, method });
  });
  return [...found.values()].sort((a, b) => a.statement.start! - b.statement.start!);
}
