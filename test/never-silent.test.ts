// `check` never passes a file that still pushes a request. Table-driven, as ESLint's rule
// tests are: `invalid` servers each ask the client in a spelling real code uses (an alias, a
// `.call`, a singleton another module exports, a store looked up per request, a framework's
// wrapper...), and check must report each site at its line with its rule while migrate marks it
// there (or migrates it); `valid` servers only look like that (a look-alike's own method, shown
// unrelated by where it came from or by its type) and both stay quiet.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileFindings } from '../src/eslint/file-findings.ts';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { transformSource, transformWithTypes } from '../src/transform.ts';
import { ROOT } from './support/fixtures.ts';

/** The params of a form question. */
const Q = "{ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }";
/** The params of a sampling request. */
const S = "{ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }";

interface Invalid {
  name: string;
  code: string;
  /** Default `server.ts`. */
  file?: string;
  /** What check reports: rule and line, in order. */
  errors: Array<[rule: string, line: number]>;
  /** What migrate reports without the type checker, when it differs (the checker knows more). */
  migrated?: Array<[rule: string, line: number]>;
  /** Words the next step of each marker must hold. */
  next?: string;
}

interface Valid {
  name: string;
  code: string;
  file?: string;
}

/** The next steps markers give, by why the call is in doubt. */
const VISIBLE = 'make the server object visible';
const DIRECT = 'call it directly (await';
const OWN_CONTEXT = "ask through the handler's own context instead";
const FRAMEWORK = "move to the framework's MRTR support";
const SPLIT = 'build inputRequired.elicit(...) in it, ask in the handler';
const INLINE = 'write the request inline';
const HANDLER = 'ask from a tool, prompt or resource handler';

const fill = (code: string) => code.replaceAll('$Q', Q).replaceAll('$S', S);

const invalid: Invalid[] = [
  {
    name: 'a method renamed by destructuring the low-level Server',
    code: `import { McpServer } from '@modelcontextprotocol/server';
const mcp = new McpServer({ name: 's', version: '1' });
mcp.registerTool('t', { description: 'd' }, async () => {
  const { elicitInput: ask } = mcp.server;
  const a = await ask($Q);
  return { content: [{ type: 'text', text: a.action }] };
});
`,
    errors: [['legacy-request', 5]],
  },
  {
    name: '.call on a server another module exports',
    code: `import { mcp } from './server.js';
export async function confirm() {
  const a = await mcp.server.elicitInput.call(mcp.server, $Q);
  return a.action === 'accept';
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: DIRECT,
  },
  {
    name: '.apply on a server another module exports',
    code: `import { mcp } from './server.js';
export async function roots() {
  return mcp.server.listRoots.apply(mcp.server, []);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: DIRECT,
  },
  {
    name: '.bind of a low-level Server another module exports, called later',
    code: `import { lowLevel } from './server.js';
const sample = lowLevel.createMessage.bind(lowLevel);
export async function summarise() {
  return sample($S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: VISIBLE,
  },
  {
    name: 'Reflect.apply of a method of an imported object',
    code: `import { lowLevel } from './server.js';
export async function roots() {
  return Reflect.apply(lowLevel.listRoots, lowLevel, []);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: DIRECT,
  },
  {
    name: 'the McpServer of an AsyncLocalStorage store, optionally chained',
    code: `import { AsyncLocalStorage } from 'node:async_hooks';
export const als = new AsyncLocalStorage<{ server: any }>();
export async function confirm() {
  const a = await als.getStore()?.server.server.elicitInput($Q);
  return a?.action === 'accept';
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: VISIBLE,
  },
  {
    name: 'a v1 handler context kept in an AsyncLocalStorage store, its sendRequest',
    code: `import { AsyncLocalStorage } from 'node:async_hooks';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
export const requestContext = new AsyncLocalStorage<{ extra: any }>();
export async function confirm() {
  const a = await requestContext.getStore()!.extra.sendRequest({ method: 'elicitation/create', params: $Q }, ElicitResultSchema);
  return a.action === 'accept';
}
`,
    errors: [['mrtr-todo/unknown-receiver', 5]],
    next: OWN_CONTEXT,
  },
  {
    name: 'a method named in brackets by a string, on an imported object',
    code: `import { sampler } from './llm.js';
export async function summarise() {
  return sampler['createMessage']($S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: VISIBLE,
  },
  {
    name: 'a method named in brackets by a const, on an imported object',
    code: `import { lowLevel } from './server.js';
const ROOTS = 'listRoots';
export async function roots() {
  return lowLevel[ROOTS]();
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: VISIBLE,
  },
  {
    name: 'a low-level Server kept on globalThis',
    code: `export async function roots() {
  const r = await (globalThis as any).mcpLow.listRoots();
  return r.roots;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: VISIBLE,
  },
  {
    name: 'a module namespace holding the low-level Server',
    code: `import * as app from './app.js';
export async function roots() {
  return app.low.listRoots();
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: VISIBLE,
  },
  {
    name: 'an accessor function returning the low-level Server',
    code: `import { getLowLevel } from './server.js';
export async function summarise() {
  return getLowLevel().createMessage($S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: VISIBLE,
  },
  {
    name: 'a class field of a type nothing here explains',
    code: `export class Summariser {
  constructor(private readonly client: any) {}
  async run() {
    return this.client.createMessage($S);
  }
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: VISIBLE,
  },
  {
    name: 'a method destructured from an awaited call',
    code: `import { connect } from './server.js';
export async function summarise() {
  const { createMessage } = await connect();
  return createMessage($S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: VISIBLE,
  },
  {
    name: "a framework's elicit destructured from the handler's context",
    file: 'tools/confirm.js',
    code: `export default async function confirm({ id }, { elicit }) {
  const a = await elicit({ message: 'Delete ' + id + '?', requestedSchema: { type: 'object', properties: {} } });
  return a.action;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: FRAMEWORK,
  },
  {
    name: "a framework's sample taken out of the context in the body",
    file: 'tools/summarise.js',
    code: `export default async function summarise(args, ctx) {
  const { sample } = ctx;
  const r = await sample({ messages: [], maxTokens: 5 });
  return r.content;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: FRAMEWORK,
  },
  {
    name: "a framework's elicit on a context a class holds",
    code: `export class Wizard {
  constructor(private readonly ctx: any) {}
  async ask() {
    return this.ctx.elicit($Q);
  }
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: FRAMEWORK,
  },
  {
    name: "a framework session's requestSampling",
    code: `export async function summarise(session: any) {
  const r = await session.requestSampling($S);
  return r.content;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: OWN_CONTEXT,
  },
  {
    name: 'sendRequest of a context a class holds',
    code: `import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
export class Job {
  constructor(private readonly extra: any) {}
  async summarise() {
    return this.extra.sendRequest({ method: 'sampling/createMessage', params: $S }, CreateMessageResultSchema);
  }
}
`,
    errors: [['mrtr-todo/unknown-receiver', 5]],
    next: OWN_CONTEXT,
  },
  {
    name: 'sendRequest of a request handed in, its kind named by the result schema',
    code: `import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
export async function forward(extra: any, request: any) {
  const r = await extra.sendRequest(request, ElicitResultSchema);
  return r.action;
}
`,
    errors: [['mrtr-todo/in-helper', 3]],
    next: SPLIT,
  },
  {
    name: "the low-level Server's request() in a tool, named by its result schema",
    code: `import { McpServer } from '@modelcontextprotocol/server';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
const mcp = new McpServer({ name: 's', version: '1' });
mcp.registerTool('t', { description: 'd' }, async () => {
  const request = JSON.parse(process.env.SAMPLE ?? '{}');
  const r = await mcp.server.request(request, CreateMessageResultSchema);
  return { content: [{ type: 'text', text: r.model }] };
});
`,
    errors: [['mrtr-todo/unknown-request', 6]],
    next: INLINE,
  },
  {
    name: 'a request built by its request schema and sent on a transport',
    code: `import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
export async function roots(transport: any) {
  return transport.send(ListRootsRequestSchema.parse({ jsonrpc: '2.0', id: 1, method: 'roots/list' }));
}
`,
    errors: [['mrtr-todo/unknown-request', 3]],
    next: HANDLER,
  },
  {
    name: 'a method called through a comma expression (compiled code)',
    file: 'dist/roots.js',
    code: `import { mcp } from './server.js';
export async function roots() {
  return (0, mcp.server.listRoots)();
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: DIRECT,
  },
  {
    name: 'the low-level Server held in a let',
    code: `import { McpServer } from '@modelcontextprotocol/server';
export async function summarise(mcp: McpServer) {
  let low;
  low = mcp.server;
  return low.createMessage($S);
}
`,
    // The checker knows `low` is the SDK's Server: a request in a helper.
    errors: [['mrtr-todo/in-helper', 5]],
    migrated: [['mrtr-todo/unknown-receiver', 5]],
    next: VISIBLE,
  },
  {
    name: 'a parameter given any other name',
    code: `export async function summarise(llm: any) {
  const r = await llm.createMessage($S);
  return r.content;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: VISIBLE,
  },
  {
    name: "a callback's parameter",
    code: `import { withServer } from './server.js';
export const roots = () => withServer((s: any) => s.listRoots());
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: VISIBLE,
  },
  {
    name: 'a session looked up in a map, optionally called',
    code: `const sessions = new Map<string, any>();
export async function summarise(id: string) {
  return sessions.get(id)?.createMessage?.($S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: VISIBLE,
  },
  {
    name: 'a bound method kept in an object and called from it',
    code: `import { lowLevel } from './server.js';
const api = { ask: lowLevel.elicitInput.bind(lowLevel) };
export async function confirm() {
  const a = await api.ask($Q);
  return a.action;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: DIRECT,
  },
  {
    name: 'a class field initialised from a call, then asked through',
    code: `import { connect } from './server.js';
export class Bridge {
  private low = connect();
  async roots() {
    return this.low.listRoots();
  }
}
`,
    errors: [['mrtr-todo/unknown-receiver', 5]],
    next: VISIBLE,
  },
  {
    name: 'a getter returning the server of an imported singleton',
    code: `import { mcp } from './server.js';
export class Tools {
  get low() {
    return mcp.server;
  }
  async roots() {
    return this.low.listRoots();
  }
}
`,
    errors: [['mrtr-todo/unknown-receiver', 7]],
    next: VISIBLE,
  },
  {
    name: 'a method taken out of an object parameter by destructuring',
    code: `export async function summarise({ createMessage }: any, text: string) {
  const r = await createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 5 });
  return r.content;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: VISIBLE,
  },
  {
    name: 'a callee cast to any, on the server of a tool (asked and migrated)',
    code: `import { McpServer } from '@modelcontextprotocol/server';
const mcp = new McpServer({ name: 's', version: '1' });
mcp.registerTool('t', { description: 'd' }, async () => {
  const a = await (mcp.server.elicitInput as any)($Q);
  return { content: [{ type: 'text', text: String(a.action) }] };
});
`,
    errors: [['legacy-request', 4]],
  },
  {
    name: 'a non-null asserted callee on a server another module exports',
    code: `import { mcp } from './server.js';
export const roots = () => mcp.server.listRoots!();
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: VISIBLE,
  },
  {
    name: 'super of a class another module exports',
    code: `import { BaseServer } from './base.js';
export class Server extends BaseServer {
  async summarise() {
    return super.createMessage($S);
  }
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: VISIBLE,
  },
  {
    name: 'a method renamed out of an accessor call',
    code: `import { getServer } from './server.js';
export async function roots() {
  const { listRoots: list } = getServer().server;
  return list();
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: VISIBLE,
  },
  {
    name: 'a bound method of an AsyncLocalStorage store, called later',
    code: `import { AsyncLocalStorage } from 'node:async_hooks';
const store = new AsyncLocalStorage<any>();
export async function confirm() {
  const ask = store.getStore().low.elicitInput.bind(store.getStore().low);
  return ask($Q);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 5]],
    next: VISIBLE,
  },
  {
    name: "a request by its method on another module's object",
    code: `import { low } from './server.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
export const confirm = () => low.request({ method: 'elicitation/create', params: $Q }, ElicitResultSchema);
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: VISIBLE,
  },
  {
    name: '.call of a request by its method, on an imported object',
    code: `import { low } from './server.js';
export const roots = () => low.request.call(low, { method: 'roots/list' }, {});
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: DIRECT,
  },
  {
    name: "a JSON-RPC request written by hand, sent on another module's transport",
    code: `import { transport } from './transport.js';
export const summarise = () => transport.send({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: $S });
`,
    errors: [['mrtr-todo/unknown-request', 2]],
    next: HANDLER,
  },
  {
    name: "a framework's elicit invoked through .call",
    file: 'tools/confirm.js',
    code: `export default async function confirm(args, ctx) {
  const a = await ctx.elicit.call(ctx, { message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
  return a.action;
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: FRAMEWORK,
  },
  {
    name: "a session's requestSampling invoked through .call",
    code: `export async function summarise(session: any) {
  return session.requestSampling.call(session, $S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: OWN_CONTEXT,
  },
  {
    name: "a session's requestSampling bound, then called",
    code: `export async function summarise(session: any) {
  const ask = session.requestSampling.bind(session);
  return ask($S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: OWN_CONTEXT,
  },
  {
    name: 'sendRequest of a kept context through .apply, its request listed',
    code: `export class Job {
  constructor(private readonly extra: any) {}
  roots() {
    return this.extra.sendRequest.apply(this.extra, [{ method: 'roots/list' }]);
  }
}
`,
    errors: [['mrtr-todo/unknown-receiver', 4]],
    next: OWN_CONTEXT,
  },
  {
    name: 'the server of an McpServer kept on globalThis (plain JavaScript)',
    file: 'server.js',
    code: `export async function summarise() {
  return globalThis.mcp.server.createMessage($S);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: VISIBLE,
  },
  {
    name: 'a server named in brackets on globalThis',
    code: `export async function confirm() {
  return (globalThis as any)['mcpServer'].server.elicitInput($Q);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 2]],
    next: VISIBLE,
  },
  {
    name: 'the server of an McpServer singleton another module exports',
    code: `import { server } from './server.js';
export async function confirm() {
  return server.server.elicitInput($Q);
}
`,
    errors: [['mrtr-todo/unknown-receiver', 3]],
    next: VISIBLE,
  },
  {
    name: 'an AsyncLocalStorage store held in a const first',
    code: `import { AsyncLocalStorage } from 'node:async_hooks';
const als = new AsyncLocalStorage<any>();
export async function roots() {
  const store = als.getStore();
  return store.server.listRoots();
}
`,
    errors: [['mrtr-todo/unknown-receiver', 5]],
    next: VISIBLE,
  },
  {
    name: 'an alias of an alias of the low-level Server',
    code: `import { mcp } from './server.js';
export async function roots() {
  const s = mcp.server;
  const t = s;
  return t.listRoots();
}
`,
    errors: [['mrtr-todo/unknown-receiver', 5]],
    next: VISIBLE,
  },
];

const valid: Valid[] = [
  {
    name: "an MCP Client's request, whatever method it names",
    code: `import { Client } from '@modelcontextprotocol/client';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
const client = new Client({ name: 'c', version: '1' });
export const relay = () => client.request({ method: 'sampling/createMessage', params: $S }, CreateMessageResultSchema);
`,
  },
  {
    name: 'a v1 MCP Client, by its annotation',
    code: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
export async function relay(client: Client) {
  return client.request({ method: 'roots/list' }, ListRootsResultSchema);
}
`,
  },
  {
    name: 'an MCP Client a factory returns (the checker tells)',
    code: `import type { Client } from '@modelcontextprotocol/client';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
export async function relay(connect: () => Promise<Client>, request: any) {
  const upstream = await connect();
  return upstream.request(request, CreateMessageResultSchema);
}
`,
  },
  {
    name: 'HTTP clients: axios, undici, a fetch wrapper, superagent',
    code: `import axios from 'axios';
import * as undici from 'undici';
import agent from 'superagent';
export async function ping(url: string, fetch: any, body: object) {
  await axios.request({ method: 'post', url });
  await undici.request(url, { method: 'GET' });
  await fetch.request(url, { method: 'roots/list' });
  return agent.post(url).send(body);
}
`,
  },
  {
    name: "an AWS client's send",
    code: `import { S3Client, GetObjectCommand } from '@aws-sdk/client-s3';
const s3 = new S3Client({});
export const get = () => s3.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }));
`,
  },
  {
    name: "lodash's sample invoked through .call",
    code: `import _ from 'lodash';
export const pick = (items: string[]) => _.sample.call(_, items);
`,
  },
  {
    name: "a local class's own createMessage",
    code: `class Chat {
  async createMessage(p: { text: string }) {
    return p.text;
  }
}
export const reply = (chat = new Chat()) => chat.createMessage({ text: 'hi' });
`,
  },
  {
    name: 'an object literal with its own elicitInput',
    code: `const forms = { async elicitInput(q: string) { return q.toUpperCase(); } };
export const shout = (q: string) => forms.elicitInput(q);
`,
  },
  {
    name: 'a parameter typed by a class of this file',
    code: `class Roots {
  async listRoots() {
    return [];
  }
}
export async function all(r: Roots) {
  return r.listRoots();
}
`,
  },
  {
    name: 'an element of an array of a class of this file (the checker tells)',
    code: `class Chat {
  async createMessage(prompt: string) {
    return prompt;
  }
}
const chats = [new Chat()];
export const first = () => chats[0]!.createMessage('hi');
`,
  },
  {
    name: 'an HTTP request and a socket send',
    code: `export async function ping(http: any, socket: any, url: string) {
  await http.request({ method: 'GET', url });
  socket.send('hello');
}
`,
  },
  {
    name: 'a request of another method, by schema',
    code: `import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
export async function call(client: any) {
  return client.request({ method: 'tools/call', params: { name: 'x' } }, CallToolResultSchema);
}
`,
  },
  {
    name: "lodash's sample and a stream's elicit-less context",
    code: `import _ from 'lodash';
export const pick = (items: string[]) => _.sample(items);
`,
  },
  {
    name: 'a feature test of the method',
    code: `import { mcp } from './server.js';
export const canAsk = () => typeof mcp.server.elicitInput === 'function';
`,
  },
  {
    name: "a look-alike's method handed on, not invoked",
    code: `import { llm } from './llm.js';
export const retried = () => retry(llm.createMessage, 3);
declare function retry(f: unknown, n: number): unknown;
`,
  },
  {
    name: 'sample on an object not named like a context',
    code: `export const pick = (stats: { sample(n: number): number[] }) => stats.sample(10);
`,
  },
  {
    name: 'sendRequest of a JSON-RPC connection, by its own method',
    code: `export const configuration = (connection: any) => connection.sendRequest('workspace/configuration', { items: [] });
`,
  },
  {
    name: "super's own method, of a base class of this file",
    code: `class Base {
  async listRoots() {
    return [] as string[];
  }
}
export class Roots extends Base {
  override async listRoots() {
    return [...(await super.listRoots()), 'extra'];
  }
}
`,
  },
];

const absolute = (file: string) => path.join(ROOT, '.tmp', 'never-silent', file);
/** What `check` reports for one file (the ESLint plugin's path: the prefilter, the plan, the checker on receivers in doubt). */
const checkOf = (code: string, file: string) => fileFindings(code, absolute(file), ROOT).findings.map((f) => [f.ruleId, f.line] as [string, number]);
const ruleOf = (site: { status: string; code?: string }) => (site.status === 'migrated' ? 'legacy-request' : `mrtr-todo/${site.code}`);

describe('check reports, and migrate marks, every spelling of a request', () => {
  it.each(invalid.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const code = fill(c.code);
    const file = c.file ?? 'server.ts';
    expect(checkOf(code, file)).toEqual(c.errors);
    // migrate, without the checker: the same sites, each migrated or marked where it is.
    const { plan, output } = transformSource(code, file);
    expect(plan.sites.map((s) => [ruleOf(s), s.line])).toEqual(c.migrated ?? c.errors);
    const marked = plan.sites.filter((s) => s.status !== 'migrated');
    for (const s of marked) expect(output).toContain(`@mrtr-todo(${s.code})`);
    if (c.next) for (const s of marked) expect(s.next).toContain(c.next);
    // The marked file still fails check, at each marker's site.
    if (marked.length > 0) expect(checkOf(output, file).map(([rule]) => rule)).toEqual(expect.arrayContaining(marked.map(ruleOf)));
  });
});

describe('look-alikes stay quiet', () => {
  const types = new TsTypeFactsProvider();
  it.each(valid.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const code = fill(c.code);
    const file = c.file ?? 'server.ts';
    expect(checkOf(code, file)).toEqual([]);
    // migrate, with the checker a run on TypeScript sources has.
    expect((await transformWithTypes(code, absolute(file), types)).output).toBe(code);
  });
});
