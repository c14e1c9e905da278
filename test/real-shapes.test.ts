// The shapes real servers are written in, as pure functions of source text (no node_modules,
// no type checker): every spelling of a legacy request is found, and the SDK objects are told
// from where they came from.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { parseSource } from '../src/analyse/parse.ts';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { transformSource, transformWithTypes } from '../src/transform.ts';

/** The params of a form question, for sources written inline. */
const Q = "{ message: 'm', requestedSchema: { type: 'object', properties: {} } }";

/** A server with one tool taking only its context, whose body is `body` (Q: a question's params) and returns `text`. */
const oneTool = (body: string, text: string) => `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  ${body.replaceAll('Q', Q)}
  return { content: [{ type: 'text', text: ${text} }] };
});
`;

const statusOf = (source: string, file = 'server.ts') => transformSource(source, file).plan.sites.map((s) => [s.line, s.status, s.code]);

describe('every spelling of a legacy request is found', () => {
  it.each([
    ['a bound method through optional chains', 'const elicit = server.server?.elicitInput?.bind(server.server);', `const a = await elicit(${Q});`, 'elicit'],
    ["the low-level Server's request(), by its method", '', `const a = await server.server.request({ method: 'elicitation/create', params: ${Q} });`, 'elicit'],
    ['request() for roots', '', "const a = await server.server.request({ method: 'roots/list' });", 'roots'],
    ['request() whose method is a const', "const ROOTS = 'roots/list';", 'const a = await server.server.request({ method: ROOTS });', 'roots'],
    ['the method named in brackets, as a string', '', "const a = await server.server['listRoots']();", 'roots'],
    ['the method named in brackets, by a const', "const LIST = 'listRoots';", 'const a = await server.server[LIST]();', 'roots'],
    ['the low-level Server held in a local', 'const low = server.server;', 'const a = await low.listRoots();', 'roots'],
    [
      "the low-level Server of a local factory's result",
      'const getServer = (): McpServer => server;',
      'const a = await getServer().server.listRoots();',
      'roots',
    ],
  ])('%s', (_name, before, call, kind) => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
${before}
server.registerTool('t', { description: 'd' }, async () => {
  ${call}
  return { content: [{ type: 'text', text: JSON.stringify(a) }] };
});
`;
    expect(analyseFile(source, 'server.ts').sites.map((s) => [s.kind, s.uncertain ?? false])).toEqual([[kind, false]]);
    expect(statusOf(source)).toEqual([[5, 'migrated', undefined]]);
  });

  it("takes a v1 low-level Server's request() with its result schema, in a class", () => {
    const source = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
class App {
  private server: Server;
  constructor() {
    this.server = new Server({ name: 's', version: '1' }, { capabilities: {} });
  }
  async ask() {
    return this.server.request({ method: 'elicitation/create', params: ${Q} }, ElicitResultSchema);
  }
}
`;
    expect(analyseFile(source, 'app.ts').sites.map((s) => [s.kind, s.shape.resultType, s.uncertain ?? false])).toEqual([['elicit', 'ElicitResult', false]]);
  });

  it.each([
    ["another method's request", "await server.server.request({ method: 'ping' });"],
    ['an HTTP client', "await http.request({ method: 'GET', url });"],
    ['a request object it cannot read', 'await client.request(req);'],
    ['a request() with a method it cannot read, on an object it does not know', 'await http.request({ method, url });'],
    ["a look-alike's method handed on", 'await retry(llm.createMessage, 3);'],
    ['a feature test', "if (typeof server.server.elicitInput !== 'function') return;"],
  ])('leaves alone %s', (_name, call) => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\nasync function f() {\n  ${call}\n}\n`;
    expect(analyseFile(source, 'server.ts').sites).toEqual([]);
  });

  it.each([
    ['elicitInput', `await elicitInput(${Q})`, 'elicit'],
    ['createMessage', 'await createMessage({ messages: [], maxTokens: 5 })', 'sampling'],
    ['listRoots', 'await listRoots()', 'roots'],
    ['sendRequest', `await sendRequest({ method: 'elicitation/create', params: ${Q} })`, 'elicit'],
  ])('marks a function handed in as %s (unknown-receiver)', (name, call, kind) => {
    const source = `export async function helper(${name}: any, x: string) {\n  const r = ${call};\n  return r;\n}\n`;
    expect(analyseFile(source, 'helper.ts').sites.map((s) => s.kind)).toEqual([kind]);
    expect(statusOf(source, 'helper.ts')).toEqual([[2, 'marked', 'unknown-receiver']]);
  });

  it.each([
    ['the request context kept in a local', 'const req = ctx.mcpReq;\n  const a = await req.elicitInput(Q);'],
    ['the request context destructured from the context', 'const { mcpReq } = ctx;\n  const a = await mcpReq.elicitInput(Q);'],
    ['the method named in brackets', "const a = await ctx.mcpReq['elicitInput'](Q);"],
  ])('finds a question through %s, and migrates it', (_name, body) => {
    const source = oneTool(body, 'a.action');
    expect(analyseFile(source, 'server.ts').sites.map((s) => [s.kind, s.receiverHead])).toEqual([['elicit', 'ctx']]);
    expect(statusOf(source).map(([, status]) => status)).toEqual(['migrated']);
  });

  it.each([
    ['handed to a helper', 'const a = await confirmWith(ctx.mcpReq.elicitInput, Q);'],
    ['applied', 'const a = await Reflect.apply(server.server.elicitInput, server.server, [Q]);'],
    ['called through .call', 'const a = await ctx.mcpReq.elicitInput.call(ctx.mcpReq, Q);'],
    ['bound and handed on', 'const a = await confirmWith(ctx.mcpReq.elicitInput.bind(ctx.mcpReq), Q);'],
    ['stored in a let', 'let ask = ctx.mcpReq.elicitInput;\n  const a = await ask(Q);'],
    ['stored in a const and handed on', 'const ask = ctx.mcpReq.elicitInput;\n  const a = await confirmWith(ask, Q);'],
    ['bound into a const and handed on', 'const ask = ctx.mcpReq.elicitInput.bind(ctx.mcpReq);\n  const a = await confirmWith(ask, Q);'],
    ['taken out by Reflect.get', "const ask = Reflect.get(ctx.mcpReq, 'elicitInput');\n  const a = await ask.call(ctx.mcpReq, Q);"],
  ])('marks the method of an SDK object %s (unfollowed-reference), never drops it', (_name, body) => {
    const source = oneTool(body, 'String(a)');
    expect(statusOf(source)).toEqual([[4, 'marked', 'unfollowed-reference']]);
  });

  it.each([
    [
      'a context a class holds',
      'class Asker {\n  constructor(private readonly ctx: any) {}\n  async ask() {\n    return this.ctx.mcpReq.elicitInput(Q);\n  }\n}\n',
      'this',
    ],
    ['an element of an array', 'const pool: any[] = [];\nexport async function first() {\n  return pool[0].server.elicitInput(Q);\n}\n', '?'],
    ['a parameter nothing explains', 'export async function confirm(req: any) {\n  const r = await req.elicitInput(Q);\n  return r;\n}\n', 'req'],
  ])('finds elicitInput through %s, and marks it rather than drop it', (_name, code, head) => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';\n${code.replaceAll('Q', Q)}`;
    expect(analyseFile(source, 'helper.ts').sites.map((s) => [s.kind, s.receiverHead])).toEqual([['elicit', head]]);
    expect(statusOf(source, 'helper.ts').map(([, status]) => status)).toEqual(['marked']);
  });

  it('marks a call through a local stand-in interface with push methods, never drops it', () => {
    const source = `interface Asker {
  elicitInput(p: unknown): Promise<{ action: string }>;
}
export async function yesNo(asker: Asker) {
  const a = await asker.elicitInput(${Q});
  return a.action === 'accept';
}
`;
    expect(statusOf(source, 'asker.ts')).toEqual([[5, 'marked', 'unknown-receiver']]);
    // A type fact that says "not the SDK" for the stand-in is not asked for: only doubt is.
    const facts = { local: () => undefined, fromSdk: () => undefined };
    expect(transformSource(source, 'asker.ts', facts).plan.sites.map((s) => s.code)).toEqual(['unknown-receiver']);
  });
});

describe('SDK objects known from where they came from', () => {
  const server = (decl: string, receiver: string) => `import { McpServer, Server, type ServerContext } from '@modelcontextprotocol/server';
${decl.replaceAll('RECEIVER', receiver)}
`;

  it.each([
    [
      'a class field set in the constructor',
      `class App {
  private readonly server: McpServer;
  constructor() {
    this.server = new McpServer({ name: 's', version: '1' });
    this.server.registerTool('t', { description: 'd' }, async () => {
      const a = await this.server.server.elicitInput(${Q});
      return { content: [{ type: 'text', text: a.action }] };
    });
  }
}`,
    ],
    [
      'a private field with its initialiser',
      `class App {
  readonly #mcp = new McpServer({ name: 's', version: '1' });
  register() {
    this.#mcp.registerTool('t', { description: 'd' }, async () => {
      const a = await this.#mcp.server.elicitInput(${Q});
      return { content: [{ type: 'text', text: a.action }] };
    });
  }
}`,
    ],
    [
      'a parameter property',
      `class Tools {
  constructor(private readonly mcp: McpServer) {}
  register() {
    this.mcp.registerTool('t', { description: 'd' }, async () => {
      const a = await this.mcp.server.elicitInput(${Q});
      return { content: [{ type: 'text', text: a.action }] };
    });
  }
}`,
    ],
    [
      'a local factory',
      `function make() {
  return new McpServer({ name: 's', version: '1' });
}
const srv = make();
srv.registerTool('t', { description: 'd' }, async () => {
  const a = await srv.server.elicitInput(${Q});
  return { content: [{ type: 'text', text: a.action }] };
});`,
    ],
    [
      'a project interface that extends an SDK type',
      `interface AppServer extends McpServer {
  started?: number;
}
export function register(app: AppServer) {
  app.registerTool('t', { description: 'd' }, async () => {
    const a = await app.server.elicitInput(${Q});
    return { content: [{ type: 'text', text: a.action }] };
  });
}`,
    ],
    [
      'an object literal holding it',
      `const mcp = new McpServer({ name: 's', version: '1' });
const app = { mcp };
mcp.registerTool('t', { description: 'd' }, async () => {
  const a = await app.mcp.server.elicitInput(${Q});
  return { content: [{ type: 'text', text: a.action }] };
});`,
    ],
    [
      'a low-level Server named anything',
      `const low = new Server({ name: 's', version: '1' }, { capabilities: {} });
low.setRequestHandler('tools/call', async (request) => {
  const a = await low.elicitInput(${Q});
  return { content: [{ type: 'text', text: a.action }] };
});`,
    ],
  ])('%s', (_name, code) => {
    const source = server(code, '');
    const sites = analyseFile(source, 'server.ts').sites;
    expect(sites.map((s) => s.uncertain ?? false)).toEqual([false]);
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => s.status)).toEqual(['migrated']);
    expect(() => parseSource(output, 'ts')).not.toThrow();
  });

  it.each([
    [
      'an instance of a local class',
      'class Llm {\n  server = { async createMessage(p: unknown) { return p; } };\n}\nconst llm = new Llm();\nexport const f = () => llm.server.createMessage({});',
    ],
    ['an object literal', "const forms = { server: { async elicitInput(q: string) { return q; } } };\nexport const f = () => forms.server.elicitInput('q');"],
  ])('is certain that %s is not one', (_name, code) => {
    expect(analyseFile(server(code, ''), 'server.ts').sites).toEqual([]);
  });

  it('keeps in doubt a receiver named like a server that nothing here explains', () => {
    const source = "import { app } from './app.js';\nexport const f = () => app.server.createMessage({ messages: [], maxTokens: 1 });\n";
    expect(analyseFile(source, 'f.ts').sites.map((s) => s.uncertain)).toEqual([true]);
  });
});

describe('a handler that destructures its context', () => {
  it('gets a named context, and destructures in its body only what it still reads', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: schema }, async ({ q }, { mcpReq, signal }) => {
  const a = await mcpReq.send({ method: 'elicitation/create', params: ${Q} });
  return { content: [{ type: 'text', text: a.action + String(signal.aborted) }] };
});
`;
    const { plan, output } = transformSource(source, 'server.js');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    // `signal` is v2's `ctx.mcpReq.signal`: the body keeps its name, from where v2 has it.
    expect(output).toContain('async ({ q }, ctx) => {\n  const { mcpReq: { signal } } = ctx;\n  const mrtr = await mrtrResume(ctx,');
    expect(output).not.toContain('mcpReq }');
    expect(transformSource(output, 'server.js').output).toBe(output);
  });

  it('drops the destructuring when the legacy call was all it served', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: schema }, async ({ q }, { sendRequest }) => {
  const a = await sendRequest({ method: 'elicitation/create', params: ${Q} });
  return { content: [{ type: 'text', text: a.action }] };
});
`;
    const { output } = transformSource(source, 'server.js');
    expect(output).toContain("async ({ q }, ctx) => {\n  const mrtr = await mrtrResume(ctx, 'tool:t'");
    expect(output).not.toContain('sendRequest');
  });
});

// Babel lists TypeScript's `this` pseudo-parameter first among a function's parameters; no
// argument fills it, so it is never the arguments, the context or an argument of a helper.
describe('a function written with a `this` parameter', () => {
  const server = `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
const server = new McpServer({ name: 's', version: '1' });
class Svc {}
`;
  const migrated = (body: string) => {
    const { plan, output } = transformSource(server + body, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['migrated', undefined]]);
    expect(transformSource(output, 'server.ts').output).toBe(output);
    return output;
  };

  it('asks through the context after its arguments', () => {
    const output =
      migrated(`server.registerTool('archive_note', { description: 'd', inputSchema: { id: z.string() } }, async function (this: Svc, { id }, ctx) {
  const answer = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: answer.action + id }] };
});
`);
    expect(output).toContain(
      "async function (this: Svc, { id }, ctx) {\n  const mrtr = await mrtrResume(ctx, 'tool:archive_note', ['answer'], { id }, server);",
    );
  });

  it('takes no argument position by its arity when the registration hides the schema', () => {
    const output = migrated(`const config = { description: 'd' };
server.registerTool('t', config, async function (this: void, ctx) {
  const answer = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: answer.action }] };
});
`);
    expect(output).toContain("async function (this: void, ctx) {\n  const mrtr = await mrtrResume(ctx, 'tool:t', ['answer'], {}, server);");
  });

  it('keeps `this` first when its arguments and context are added', () => {
    const output = migrated(`server.registerTool('t', { inputSchema: { id: z.string() } }, async function (this: void) {
  const roots = await server.server.listRoots();
  return { content: [{ type: 'text', text: String(roots.roots.length) }] };
});
`);
    expect(output).toContain("async function (this: void, _args, ctx) {\n  const mrtr = await mrtrResume(ctx, 'tool:t', ['roots'], {}, server);");
  });

  it('is a bound method given its context after its arguments, and a helper method split with `this` first', () => {
    const output = migrated(`class Notes {
  constructor(private readonly mcp: McpServer) {
    this.mcp.registerTool('t', { inputSchema: { id: z.string() } }, this.pin.bind(this));
  }
  async pin(this: Notes, { id }: { id: string }) {
    const ok = await this.confirm(this.mcp, \`Pin \${id}?\`);
    return { content: [{ type: 'text' as const, text: String(ok) }] };
  }
  private async confirm(this: Notes, mcp: McpServer, message: string): Promise<boolean> {
    const answer = await mcp.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
    return answer.action === 'accept';
  }
}
`);
    expect(output).toContain(
      "async pin(this: Notes, { id }: { id: string }, ctx: ServerContext) {\n    const mrtr = await mrtrResume(ctx, 'tool:t', ['ok'], { id });",
    );
    expect(output).toContain('ok: this.confirmRequest(`Pin ${id}?`),');
    expect(output).toContain('private confirmRequest(this: Notes, message: string) {');
    expect(output).toContain('private confirmResult(this: Notes, answer: ElicitResult): boolean {');
  });

  it('is a function expression bound where it is registered, its added context typed', () => {
    const output = migrated(`const svc = new Svc();
server.registerTool('t', { inputSchema: z.object({ id: z.string() }) }, async function (this: Svc, { id }: { id: string }) {
  const answer = await server.server.elicitInput({ message: id, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text' as const, text: answer.action }] };
}.bind(svc));
`);
    expect(output).toContain(
      "async function (this: Svc, { id }: { id: string }, ctx: ServerContext) {\n  const mrtr = await mrtrResume(ctx, 'tool:t', ['answer'], { id }, server);",
    );
    expect(output).toContain('\n}.bind(svc));');
    // Bound with an argument too, it takes the registration's arguments one place later: not
    // followed, and marked as a function the codemod cannot tie to its registration.
    const boundArgument =
      server +
      `server.registerTool('t', { description: 'd' }, async function (this: Svc, tag: string, ctx: ServerContext) {
  const answer = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: answer.action + tag }] };
}.bind(new Svc(), 'x'));
`;
    expect(statusOf(boundArgument).map(([, status, code]) => [status, code])).toEqual([['marked', 'unregistered-handler']]);
  });

  it('is a method a handler delegates to, whose state is bound to its arguments alone', () => {
    const output = migrated(`class Notes {
  readonly mcp = new McpServer({ name: 's', version: '1' });
  constructor() {
    this.mcp.registerTool('t', { inputSchema: { id: z.string() } }, async (args) => {
      return await this.pin(args);
    });
  }
  async pin(this: Notes, args: { id: string }) {
    console.log('asking');
    const answer = await this.mcp.server.elicitInput({ message: args.id, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }
}
`);
    expect(output).toContain('return await this.pin(args, ctx);');
    expect(output).toContain(
      "async pin(this: Notes, args: { id: string }, ctx: ServerContext) {\n    const mrtr = await mrtrResume(ctx, 'tool:pin()', ['answer'], args);",
    );
  });

  it('is a method with no arguments a handler delegates to, given its context after `this`', () => {
    const output = migrated(`class Notes {
  readonly mcp = new McpServer({ name: 's', version: '1' });
  constructor() {
    this.mcp.registerTool('t', { description: 'd' }, async () => {
      return await this.pin();
    });
  }
  async pin(this: Notes) {
    console.log('asking');
    const answer = await this.mcp.server.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }
}
`);
    expect(output).toContain('return await this.pin(ctx);');
    expect(output).toContain("async pin(this: Notes, ctx: ServerContext) {\n    const mrtr = await mrtrResume(ctx, 'tool:pin()', ['answer'], {});");
  });

  it("reads the client's capabilities from its context in a method a low-level handler hands the call to", async () => {
    // Migrated as a handler of its own, the method takes the context the handler hands it.
    const file = fileURLToPath(new URL('../fixtures/low-level-delegates/input.ts', import.meta.url));
    const source = readFileSync(file, 'utf8').replace(
      '  private async purge(args: Args): Promise<CallToolResult> {\n',
      "  private async purge(args: Args): Promise<CallToolResult> {\n    if (!this.server.server.getClientCapabilities()?.elicitation) return { content: [{ type: 'text', text: 'cannot ask' }] };\n",
    );
    const types = new TsTypeFactsProvider();
    const { output, plan } = await transformWithTypes(source, file, types);
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated', 'migrated']);
    expect(output).toContain(
      "      if (!((ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? this.server.server.getClientCapabilities())?.elicitation) return { content: [{ type: 'text', text: 'cannot ask' }] };",
    );
    expect((await transformWithTypes(output, file, types)).output).toBe(output);
  });

  it("reads the client's capabilities from its context", () => {
    const output = migrated(`server.registerTool('t', { inputSchema: { id: z.string() } }, async function (this: Svc, { id }, ctx) {
  if (!server.server.getClientCapabilities()?.elicitation) return { content: [{ type: 'text', text: 'cannot ask' }] };
  const answer = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: answer.action + id }] };
});
`);
    // The envelope's capabilities first (2026-07-28), the connection's after (2025).
    expect(output).toContain(
      '  if (!((ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities())?.elicitation) return',
    );
  });

  it("is a helper's parameter a legacy method is handed to, by its position after `this`", () => {
    const source = (self: string) => `${server}type Ask = (params: { message: string }) => Promise<{ action: string }>;
async function confirmWith(${self}elicitInput: Ask, message: string): Promise<boolean> {
  const answer = await elicitInput({ message });
  return answer.action === 'accept';
}
server.registerTool('t', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const ok = await confirmWith(server.server.elicitInput.bind(server.server), id);
  return { content: [{ type: 'text', text: String(ok) }] };
});
`;
    // Whatever the `this`: the helper's request is found where it is handed on, and its caller marked.
    const expected = [
      [7, 'marked', 'unknown-receiver'],
      [11, 'marked', 'via-helper'],
    ];
    expect(statusOf(source('this: void, '))).toEqual(expected);
    expect(statusOf(source(''))).toEqual(expected);
  });
});

it('gives a handler registered with an arguments schema, and no parameters, its arguments and context', () => {
  const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'describe', inputSchema: {} }, async () => {
  const roots = await server.server.listRoots();
  return { content: [{ type: 'text', text: String(roots.roots.length) }] };
});
`;
  const { plan, output } = transformSource(source, 'server.js');
  expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
  expect(output).toContain("server.registerTool('t', { description: 'describe', inputSchema: {} }, async (_args, ctx) => {");
  // Registered with v1's tool(), which a v2 McpServer does not have, it is not migrated at all.
  const v1Shaped = transformSource(source.replace("registerTool('t', { description: 'describe', inputSchema: {} },", "tool('t', 'describe', {},"), 'server.js');
  expect(v1Shaped.plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'legacy-registration']]);
});

it('marks the handlers that reach a helper asking through a receiver in doubt', () => {
  const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
async function confirm(elicitInput: any, message: string) {
  const a = await elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return a.action === 'accept';
}
server.registerTool('t', { description: 'd' }, async () => {
  const ok = await confirm(server.server.elicitInput.bind(server.server), 'Go?');
  return { content: [{ type: 'text', text: String(ok) }] };
});
`;
  expect(statusOf(source)).toEqual([
    [4, 'marked', 'unknown-receiver'],
    [8, 'marked', 'via-helper'],
  ]);
});

describe('the type checker in a checkout without node_modules', () => {
  // Outside this checkout: '@modelcontextprotocol/server' does not resolve, as in a fresh clone.
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mrtr-no-modules-'));
    writeFileSync(
      path.join(dir, 'mcp.ts'),
      "import { McpServer } from '@modelcontextprotocol/server';\nexport interface AppServer extends McpServer {\n  served?: number;\n}\nexport interface Asker {\n  createMessage(p: unknown): Promise<{ model: string }>;\n}\n",
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tools = (type: string) => `import type { ${type} } from './mcp.js';
export function register(app: ${type}) {
  (app as any).registerTool('t', { description: 'd' }, async () => {
    const r = await app.server.createMessage({ messages: [], maxTokens: 5 });
    return { content: [{ type: 'text', text: r.model }] };
  });
}
`;

  it("takes a project type built on an unresolved SDK import for the SDK's", async () => {
    const file = path.join(dir, 'tools.ts');
    const source = tools('AppServer');
    writeFileSync(file, source);
    expect(analyseFile(source, file).sites.map((s) => s.uncertain)).toEqual([true]);
    const { plan } = await transformWithTypes(source, file, new TsTypeFactsProvider());
    expect(plan.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.status, s.code])).toEqual([['migrated', undefined]]);
  });

  it("imports the type a lifted local is named with from the module that exports it, beside the file's own import", async () => {
    writeFileSync(
      path.join(dir, 'store.ts'),
      'export interface Note {\n  title: string;\n}\nexport class NoteStore {\n  get(id: string): Note | undefined {\n    return { title: id };\n  }\n}\n',
    );
    const file = path.join(dir, 'notes.ts');
    const source = `import { McpServer } from '@modelcontextprotocol/server';
import { NoteStore } from './store.js';
const store = new NoteStore();
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  const note = store.get('a');
  if (!note) return { content: [] };
  const a = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: note.title + a.action }] };
});
`;
    writeFileSync(file, source);
    const { output, plan } = await transformWithTypes(source, file, new TsTypeFactsProvider());
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain("import { NoteStore, type Note } from './store.js';");
    expect(output).toContain('mrtr.locals<{ note: Note }>()');
  });

  it('keeps a call on a stand-in with push methods marked, not dropped', async () => {
    const file = path.join(dir, 'asker.ts');
    const source =
      "import type { Asker } from './mcp.js';\nexport async function ask(asker: { server: Asker }) {\n  const r = await asker.server.createMessage({});\n  return r.model;\n}\n";
    writeFileSync(file, source);
    const { plan } = await transformWithTypes(source, file, new TsTypeFactsProvider());
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'unknown-receiver']]);
  });
});

describe('a URL elicitation thrown as an error', () => {
  const handler = (body: string, returns = '') => `import { McpServer, UrlElicitationRequiredError, type CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
const server = new McpServer({ name: 's', version: '1' });
declare function newId(): string;
declare function settled(id: string): boolean;
server.registerTool('pay', { inputSchema: z.object({ invoice: z.string() }) }, async ({ invoice })${returns} => {
${body}
});
`;
  const throwing = "    throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Pay', url: `https://pay.example/${id}`, elicitationId: id }]);";

  it('is a question resumed after the throw: what came before does not run again, and its id travels', () => {
    const source = handler(
      `  const id: string = newId();\n  if (!settled(id)) {\n${throwing}\n  }\n  return { content: [{ type: 'text', text: id }] };`,
      ': Promise<CallToolResult>',
    );
    const { plan, output } = transformSource(source, 'pay.ts');
    expect(plan.sites.map((s) => [s.line, s.status])).toEqual([[9, 'migrated']]);
    expect(plan.sites[0]!.lifted).toEqual(['id']);
    expect(output).toContain("return mrtr.ask('url', { id }, {\n        url: inputRequired.elicitUrl({ message: 'Pay', url: `https://pay.example/${id}` }),");
    // The retry reads the answer and goes on after the throw: newId() runs on the first call only.
    const resumed = output.slice(output.indexOf("if (mrtr.response<ElicitResult>('url', 'elicit')"));
    expect(resumed).not.toContain('newId()');
    expect(resumed).toContain("return { content: [{ type: 'text', text: id }] };");
    expect(output).toContain('async ({ invoice }, ctx): Promise<CallToolResult | InputRequiredResult> => {');
    expect(transformSource(output, 'pay.ts').output).toBe(output);
  });

  it('is refused where nothing follows it and code before it does something', () => {
    const source = handler(`  const id = newId();\n${throwing.slice(2)}`);
    expect(transformSource(source, 'pay.ts').plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'url-elicitation']]);
  });

  it('is reported at the throw, marked or migrated (the same line check reports)', () => {
    const source = handler(`  const id = external.makeId();\n  if (!settled(id)) {\n${throwing}\n  }\n  return { content: [{ type: 'text', text: id }] };`);
    // No annotation and no type checker: `id` cannot travel, so the site is marked, at line 9.
    expect(transformSource(source, 'pay.ts').plan.sites.map((s) => [s.line, s.column, s.status, s.code])).toEqual([[9, 5, 'marked', 'untyped-local']]);
  });

  it('keeps a destructured id the code after reads declared before the code the retry skips, assigned in it (no semicolons)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mrtr-url-throw-'));
    try {
      const file = path.join(dir, 'pay.ts');
      const source = [
        "import { McpServer, UrlElicitationRequiredError } from '@modelcontextprotocol/server'",
        'declare function open(): { id: string; page: string }',
        'declare function settled(id: string): boolean',
        "const server = new McpServer({ name: 's', version: '1' })",
        "server.registerTool('pay', { description: 'd' }, async () => {",
        '  const label = open().page',
        '  const { id, page } = open()',
        '  if (!settled(id)) {',
        "    throw new UrlElicitationRequiredError([{ mode: 'url', message: label, url: page, elicitationId: id }])",
        '  }',
        "  return { content: [{ type: 'text', text: id + page }] }",
        '})',
        '',
      ].join('\n');
      writeFileSync(file, source);
      const { plan, output } = await transformWithTypes(source, file, new TsTypeFactsProvider());
      expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: ['id', 'page'] }]);
      expect(output).toContain(
        [
          '  let id: string, page: string',
          '  if (mrtr.step === undefined) {',
          '    const label = open().page',
          '    ;({ id, page } = open())',
          '    if (!settled(id)) {',
          "      return mrtr.ask('url', { id, page }, {",
          '        url: inputRequired.elicitUrl({ message: label, url: page }),',
          '      })',
          '    }',
          '  } else {',
          '    ({ id, page } = mrtr.locals<{ id: string; page: string }>())',
          "    if (mrtr.response<ElicitResult>('url', 'elicit') === undefined) return mrtr.askAgain()",
          '  }',
          "  return { content: [{ type: 'text', text: id + page }] }",
        ].join('\n'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is refused inside a try, whose catch saw the error', () => {
    const source = handler(`  const id = 'x';\n  try {\n${throwing}\n  } catch (e) {\n    return { content: [] };\n  }\n  return { content: [] };`);
    expect(transformSource(source, 'pay.ts').plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'url-elicitation']]);
  });
});

describe('what travels across a question', () => {
  const tool = (body: string) => `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
type Note = { title: string; tags: string[] };
declare const notes: { get(id: string): Note | undefined };
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
${body}
});
`;
  // \`notes\` is a project's store: what its \`get\` does is not shown, so it runs once and what it gives travels.
  const ask = `  const answer = await ctx.mcpReq.elicitInput(${Q});`;

  it('keeps the narrowing a guard before the question made', () => {
    const { output, plan } = transformSource(
      tool(
        `  const note: Note | undefined = notes.get(id);\n  if (!note) return { content: [] };\n${ask}\n  return { content: [{ type: 'text', text: note.title + answer.action }] };`,
      ),
      'n.ts',
    );
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain('const { note } = mrtr.locals<{ note: Note }>();');
  });

  it('marks a local the `if (note)` around the question narrows: its copy, declared before that `if`, would lose it', () => {
    // Written as `const note = resuming ? mrtr.locals<{ note: Note }>().note : notes.get(id)`,
    // then `if (mrtr.step === 'answer' || note)`, the code after the question reads a `note`
    // that may be null: the output would not typecheck.
    const { plan } = transformSource(
      tool(
        `  const note: Note | null | undefined = notes.get(id);\n  if (note) {\n  ${ask}\n    return { content: [{ type: 'text', text: note.title + answer.action }] };\n  }\n  return { content: [] };`,
      ),
      'n.ts',
    );
    expect(plan.sites).toMatchObject([
      { status: 'marked', code: 'nested-site', reason: expect.stringContaining('`note` is narrowed by a check before the question') },
    ]);
  });

  it('keeps the question in the guard with a local a check there narrowed, when the question ends its branch', () => {
    // `byId[id]` runs nothing: declared before the guard as written, `note` would lose the narrowing `if (!note)` made.
    const { output, plan } = transformSource(
      tool(
        `  const byId: Record<string, Note | undefined> = { [id]: notes.get(id) };\n  const note = byId[id];\n  if (!note) return { content: [] };\n  if (note.tags.length === 0) {\n    await ctx.mcpReq.elicitInput({ message: note.title, requestedSchema: { type: 'object', properties: {} } });\n  }\n  return { content: [] };`,
      ),
      'n.ts',
    );
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: [] }]);
    // Declared before the guard, `note` would be `Note | undefined` at the question.
    expect(output).toContain(
      [
        '  if (mrtr.step === undefined) {',
        '    const byId: Record<string, Note | undefined> = { [id]: notes.get(id) };',
        '    const note = byId[id];',
        '    if (!note) return { content: [] };',
        '    if (note.tags.length === 0) {',
        "      return mrtr.ask('answer', {}, {",
      ].join('\n'),
    );
    expect(output).toContain(
      "  } else {\n    if (mrtr.response<ElicitResult>('answer', 'elicit') === undefined) return mrtr.askAgain();\n  }\n  return { content: [] };",
    );
  });

  it('does not narrow where the guard does not leave', () => {
    const { output } = transformSource(
      tool(
        `  const note: Note | undefined = notes.get(id);\n  if (!note) console.error('none');\n${ask}\n  return { content: [{ type: 'text', text: String(note?.title) + answer.action }] };`,
      ),
      'n.ts',
    );
    expect(output).toContain('mrtr.locals<{ note: Note | undefined }>()');
  });

  it('declares an unassigned let again on the retry instead of carrying it', () => {
    const { output, plan } = transformSource(
      tool(`  let reason: string;\n${ask}\n  reason = answer.action;\n  return { content: [{ type: 'text', text: reason }] };`),
      'n.ts',
    );
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: [] }]);
    expect(output).toContain("return mrtr.ask('answer', {}, {");
    // Declared where it was, before the code the retry skips, and assigned after the question.
    expect(output).toMatch(/\n {2}let reason: string;\n {2}if \(mrtr\.step === undefined\) \{\n/);
    expect(output).toMatch(/\n {2}if \(answer === undefined\) return mrtr\.askAgain\(\);\n {2}reason = answer\.action;\n/);
  });

  it('carries a let assigned before the question', () => {
    const { plan } = transformSource(
      tool(`  let reason: string;\n  reason = notes.get(id)?.title ?? 'x';\n${ask}\n  return { content: [{ type: 'text', text: reason + answer.action }] };`),
      'n.ts',
    );
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: ['reason'] }]);
  });

  it.each([
    ['a property assigned', 'note.title = String(answer.action);'],
    ['a method that changes an array', 'note.tags.push(String(answer.action));'],
  ])('marks a local that refers to an object held elsewhere and changed after the question: %s', (_name, change) => {
    const { plan, output } = transformSource(tool(`  const note = notes.get(id)!;\n${ask}\n  ${change}\n  return { content: [] };`), 'n.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'mutated-local']]);
    expect(plan.sites[0]!.reason).toContain('`note` refers to an object held elsewhere (`notes.get(id)!`)');
    expect(output).toContain('@mrtr-todo(mutated-local): `note` (line 7) is changed after the question');
  });

  it('carries a value the handler made itself from one read once, changed after the question', () => {
    const { plan } = transformSource(
      tool(
        `  const seen: Note = { title: notes.get(id)?.title ?? id, tags: [] };\n${ask}\n  seen.tags.push(String(answer.action));\n  return { content: [{ type: 'text', text: seen.tags.join() }] };`,
      ),
      'n.ts',
    );
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: ['seen'] }]);
  });

  it('makes again a value the handler made from its arguments, changed after the question', () => {
    const { plan } = transformSource(
      tool(
        `  const seen: Note = { title: id, tags: [] };\n${ask}\n  seen.tags.push(String(answer.action));\n  return { content: [{ type: 'text', text: seen.tags.join() }] };`,
      ),
      'n.ts',
    );
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: [], rederived: ['seen'] }]);
  });

  it("notes that code after the question reads the retry's request", () => {
    const { output, plan } = transformSource(
      tool(`${ask}\n  console.error(ctx.mcpReq.id, ctx.mcpReq._meta?.progressToken);\n  return { content: [] };`),
      'n.ts',
    );
    expect(output).toContain(
      "// @mrtr-note: the code after this question reads `ctx.mcpReq.id`, `ctx.mcpReq._meta`: on the retry that answers it, that is the retry's request",
    );
    expect(plan.sites[0]!.guidance).toContain("ctx.mcpReq.id, ctx.mcpReq._meta is the retry's request");
  });
});

describe('imports whose last use the rewrite took', () => {
  const server = (extra: string) => `import { McpServer } from '@modelcontextprotocol/server';
import { ElicitResultSchema, ListRootsResultSchema } from './schemas.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  const a = await ctx.mcpReq.send({ method: 'elicitation/create', params: ${Q} }, ElicitResultSchema);
  return { content: [{ type: 'text', text: a.action }] };
});
${extra}`;

  it('are removed, and only those', () => {
    const { output } = transformSource(server('export const keep = ListRootsResultSchema;\n'), 's.ts');
    expect(output).toContain("import { ListRootsResultSchema } from './schemas.js';");
    expect(output).not.toContain('ElicitResultSchema');
  });

  it('go with their declaration when nothing of it is left', () => {
    const { output } = transformSource(server('').replace(', ListRootsResultSchema', ''), 's.ts');
    expect(output).not.toContain("from './schemas.js'");
    expect(output).not.toContain('ElicitResultSchema');
  });

  it('stay while something else uses them, in a type too', () => {
    const { output } = transformSource(server('export type T = typeof ElicitResultSchema;\nexport const keep = ListRootsResultSchema;\n'), 's.ts');
    expect(output).toContain("import { ElicitResultSchema, ListRootsResultSchema } from './schemas.js';");
  });
});

describe('a handler already migrated by hand', () => {
  it('is left alone when it has no legacy request, and marked when it has one too', () => {
    const source = `import { McpServer, inputRequired } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('done', { description: 'd' }, async (ctx) => {
  if (!ctx.mcpReq.inputResponses?.ok) return inputRequired({ inputRequests: { ok: inputRequired.elicit(${Q}) } });
  return { content: [] };
});
server.registerTool('half', { description: 'd' }, async (ctx) => {
  if (!ctx.mcpReq.inputResponses?.ok) return inputRequired({ inputRequests: { ok: inputRequired.elicit(${Q}) } });
  const more = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: more.action }] };
});
`;
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.line, s.status, s.code])).toEqual([[9, 'marked', 'hand-migrated']]);
    expect(output).not.toContain('mrtrResume');
    expect(output.split('\n').slice(0, 7).join('\n')).toBe(source.split('\n').slice(0, 7).join('\n'));
  });
});

describe('registration names read at run time', () => {
  const registered = (name: string, before = '') => `import { McpServer } from '@modelcontextprotocol/server';
import { TOOLS } from './names.js';
const server = new McpServer({ name: 's', version: '1' });
${before}
server.registerTool(${name}, { description: 'd' }, async (ctx) => {
  const a = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: a.action }] };
});
`;

  it('names the state with the same expression (an imported const object)', () => {
    const { output, plan } = transformSource(registered('TOOLS.create'), 's.ts');
    expect(plan.sites).toMatchObject([{ status: 'migrated', handler: 'tool:TOOLS.create' }]);
    expect(output).toContain("await mrtrResume(ctx, `tool:${TOOLS.create}`, ['a'], {}, server);");
  });

  it.each([
    ['a let that may change', 'names.create', "let names = { create: 'c' };"],
    ['a call', 'pick()', 'declare function pick(): string;'],
  ])('refuses %s', (_name, expression, before) => {
    expect(transformSource(registered(expression, before), 's.ts').plan.sites.map((s) => s.code)).toEqual(['unknown-tool-name']);
  });
});

describe("a project's own tool definitions", () => {
  const defined = (handler: string) => `import * as z from 'zod/v4';
import { defineTool } from './registry.js';
export const tool = defineTool({
  name: 'deploy',
  description: 'Deploy',
  inputSchema: z.object({ env: z.string() }),
  ${handler}
});
`;

  it.each([
    [
      'an arrow',
      `handler: async ({ env }, ctx) => {\n    const a = await ctx.mcpReq.elicitInput(${Q});\n    return { content: [{ type: 'text', text: env + a.action }] };\n  },`,
    ],
    [
      'a method',
      `async handler({ env }, ctx) {\n    const a = await ctx.mcpReq.elicitInput(${Q});\n    return { content: [{ type: 'text', text: env + a.action }] };\n  },`,
    ],
  ])('are handlers: %s', (_name, handler) => {
    const { plan, output } = transformSource(defined(handler), 'deploy.ts');
    expect(plan.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.status, s.handler])).toEqual([['migrated', 'tool:deploy']]);
    expect(output).toContain("await mrtrResume(ctx, 'tool:deploy', ['a'], { env });");
  });

  it('are marked for what they lack, not as asking outside a request, when the handler takes no context', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\n${defined(`handler: async ({ env }) => {\n    const a = await server.server.elicitInput(${Q});\n    return { content: [{ type: 'text', text: env + a.action }] };\n  },`)}`;
    expect(transformSource(source, 'deploy.ts').plan.sites.map((s) => s.code)).toEqual(['context-pattern']);
  });
});

describe('a low-level tools/call handler', () => {
  const lowLevel = (cases: string, helpers = '') => `import { Server } from '@modelcontextprotocol/server';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
${helpers}
server.setRequestHandler('tools/call', async (request) => {
  switch (request.params.name) {
${cases}
    default:
      throw new Error('unknown tool');
  }
});
`;

  it('asks through a helper that destructures its answer, from a case that returns it', () => {
    const source = lowLevel(
      "    case 'roots':\n      return await summary();",
      "async function summary() {\n  const { roots } = await server.listRoots();\n  return { content: [{ type: 'text' as const, text: String(roots.length) }] };\n}",
    );
    const { plan, output } = transformSource(source, 'low.ts');
    expect(plan.sites.map((s) => [s.status, s.handler])).toEqual([['migrated', 'helper:summary']]);
    expect(output).toContain('function summaryResult({ roots }: ListRootsResult) {');
    expect(output).toContain('  return summaryResult(mrtrAnswer);');
  });
});

describe('a low-level handler dispatching on the tool name', () => {
  const source = `import { Server } from '@modelcontextprotocol/server';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
async function ask(message: string) {
  console.error(message);
  const a = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return a.action;
}
server.setRequestHandler('tools/call', async (request) => {
  switch (request.params.name) {
    case 'helped':
      return { content: [{ type: 'text', text: await ask('Go?') }] };
    case 'closure': {
      const later = async () => server.elicitInput(${Q});
      return { content: [{ type: 'text', text: String(later) }] };
    }
    case 'direct': {
      const a = await server.elicitInput(${Q});
      return { content: [{ type: 'text', text: a.action }] };
    }
    default:
      throw new Error('unknown tool');
  }
});
`;

  it('migrates the cases it can, and marks the others where they are', () => {
    const { plan, output } = transformSource(source, 'low.ts');
    expect(plan.sites.map((s) => [s.line, s.status, s.code])).toEqual([
      [5, 'marked', 'in-helper'],
      [11, 'marked', 'via-helper'],
      [13, 'marked', 'closure'],
      [17, 'migrated', undefined],
    ]);
    expect(output).toMatch(
      /case 'helped':\n\s+\/\/ @mrtr-todo\(via-helper\)[^\n]*\n\s+return \{ content: \[\{ type: 'text', text: await ask\('Go\?'\) \}\] \};/,
    );
    expect(output).toMatch(/\/\/ @mrtr-todo\(closure\)[^\n]*\n\s+const later = async \(\) => server\.elicitInput/);
    expect(output).toContain("return mrtr.ask('a', {}, {");
    expect(() => parseSource(output, 'ts')).not.toThrow();
    // A second run changes nothing: the cases left out keep their markers.
    expect(transformSource(output, 'low.ts').output).toBe(output);
  });
});

describe('a class that wraps the request', () => {
  const source = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
class Prompter {
  constructor(private readonly server: McpServer) {}
  private readonly log: string[] = [];
  async confirm(message: string): Promise<boolean> {
    const result = await this.server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
    this.log.push(result.action);
    return result.action === 'accept';
  }
}
class Notes {
  private readonly server = new McpServer({ name: 'notes', version: '1' });
  private readonly prompter = new Prompter(this.server);
  register() {
    this.server.registerTool('archive', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
      if (!(await this.prompter.confirm(\`Archive \${id}?\`))) return { content: [] };
      return { content: [{ type: 'text', text: id }] };
    });
  }
}
export const notes = new Notes();
`;

  it('is split into request and result methods, and the calling handler asks and resumes', () => {
    const { plan, output } = transformSource(source, 'notes.ts');
    expect(plan.sites.map((s) => [s.status, s.handler])).toEqual([['migrated', 'helper:confirm']]);
    expect(output).toContain(
      "  confirmRequest(message: string) {\n    return inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: {} } });\n  }",
    );
    expect(output).toContain('  confirmResult(result: ElicitResult): boolean {\n    this.log.push(result.action);');
    expect(output).toContain('answer: this.prompter.confirmRequest(`Archive ${id}?`),');
    expect(output).toContain('if (!(this.prompter.confirmResult(mrtrAnswer))) return { content: [] };');
    expect(() => parseSource(output, 'ts')).not.toThrow();
    expect(transformSource(output, 'notes.ts').output).toBe(output);
  });

  it('is not split while something it cannot follow may call the method', () => {
    const more = source.replace('export const notes = new Notes();', "export const notes = new Notes();\nexport const ask = (p: any) => p.confirm('x');");
    expect(transformSource(more, 'notes.ts').plan.sites.map((s) => s.code)).toEqual(['in-helper', 'via-helper']);
  });
});

it("widens the registry's handler type that a migrated tool definition is handed to", () => {
  const source = `import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
interface ToolDef {
  name: string;
  handler: (args: { env: string }, ctx: ServerContext) => Promise<CallToolResult>;
}
function defineTool(def: ToolDef): ToolDef {
  return def;
}
export const tool = defineTool({
  name: 'deploy',
  inputSchema: {},
  handler: async ({ env }, ctx) => {
    const a = await ctx.mcpReq.elicitInput(${Q});
    return { content: [{ type: 'text', text: env + a.action }] };
  },
});
`;
  const { output } = transformSource(source, 'registry.ts');
  expect(output).toContain('handler: (args: { env: string }, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>;');
  expect(output).toMatch(/type InputRequiredResult/);
  expect(transformSource(output, 'registry.ts').output).toBe(output);
});

describe('a handler that delegates the call to a function that asks', () => {
  const source = `import { Server } from '@modelcontextprotocol/server';
class Weather {
  private readonly server = new Server({ name: 'w', version: '1' }, { capabilities: { tools: {} } });
  constructor() {
    this.server.setRequestHandler('tools/call', async (request) => {
      switch (request.params.name) {
        case 'forecast':
          return await this.forecast(request.params.arguments);
        case 'alerts':
          return this.alerts();
        default:
          throw new Error('unknown tool');
      }
    });
  }
  private async forecast(args: Record<string, unknown> | undefined) {
    let city = typeof args?.city === 'string' ? args.city : undefined;
    if (!city) {
      const answer = await this.server.elicitInput(${Q});
      if (answer.action !== 'accept') return { content: [{ type: 'text' as const, text: 'No city.' }] };
      city = String(answer.content?.city);
    }
    return { content: [{ type: 'text' as const, text: city }] };
  }
  private async alerts() {
    console.error('asking for roots');
    const { roots } = await this.server.listRoots();
    return { content: [{ type: 'text' as const, text: String(roots.length) }] };
  }
}
export const weather = new Weather();
`;

  it('migrates each function as a handler of its own, and hands it the context', () => {
    const facts = { local: () => ({ text: 'string | undefined', jsonSafe: true }) };
    const { plan, output } = transformSource(source, 'weather.ts', facts);
    expect(plan.sites.map((s) => [s.line, s.status, s.handler])).toEqual([
      [19, 'migrated', 'tool:forecast()'],
      [27, 'migrated', 'tool:alerts()'],
    ]);
    expect(output).toContain("this.server.setRequestHandler('tools/call', async (request, ctx) => {");
    expect(output).toContain('return await this.forecast(request.params.arguments, ctx);');
    expect(output).toContain('return this.alerts(ctx);');
    expect(output).toContain('private async forecast(args: Record<string, unknown> | undefined, ctx: ServerContext) {');
    expect(output).toContain("const mrtr = await mrtrResume(ctx, 'tool:forecast()', ['answer'], args);");
    expect(() => parseSource(output, 'ts')).not.toThrow();
    expect(transformSource(output, 'weather.ts', facts).output).toBe(output);
  });

  it('is not migrated when the handler does something before it delegates', () => {
    const busy = source.replace("        case 'forecast':\n", "        case 'forecast':\n          console.error('forecast');\n");
    expect(transformSource(busy, 'weather.ts').plan.sites.map((s) => s.code)).toContain('in-helper');
  });
});

it('takes a method of the class handed to a registration (this.handle.bind(this)) as the handler', () => {
  const source = `import { Server } from '@modelcontextprotocol/server';
class App {
  private readonly server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  constructor() {
    this.server.setRequestHandler('tools/call', this.handleCall.bind(this));
  }
  private async handleCall(request: { params: { name: string } }) {
    const a = await this.server.elicitInput(${Q});
    return { content: [{ type: 'text' as const, text: request.params.name + a.action }] };
  }
}
export const app = new App();
`;
  const { plan, output } = transformSource(source, 'app.ts');
  expect(plan.sites.map((s) => [s.status, s.handler])).toEqual([['migrated', 'tool:tools/call']]);
  expect(output).toContain('private async handleCall(request: { params: { name: string } }, ctx: ServerContext) {');
});

describe('requests asked only on a condition', () => {
  it.each([
    ['the branch of a ternary', 'const a = ctx.mcpReq.id ? await ctx.mcpReq.elicitInput(Q) : undefined;', 'String(a?.action)'],
    ['the right of &&', "const a = ctx.mcpReq.id && (await ctx.mcpReq.elicitInput(Q)).action === 'accept';", 'String(a)'],
    ['the right of ??', 'const a = ctx.sessionId ?? (await ctx.mcpReq.elicitInput(Q)).action;', 'String(a)'],
    ['the right of ||=', 'let a = ctx.sessionId;\n  a ||= (await ctx.mcpReq.elicitInput(Q)).action;', 'String(a)'],
    ['an argument of an optional call', 'const a = ctx.http?.authInfo?.scopes.concat((await ctx.mcpReq.elicitInput(Q)).action);', 'String(a)'],
    ["an if's condition, right of &&", "if (ctx.mcpReq.id && (await ctx.mcpReq.elicitInput(Q)).action === 'accept') console.error('ok');", "'x'"],
  ])('are marked in %s, not asked every time', (_name, body, text) => {
    const source = oneTool(body, text);
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'nested-site']]);
    expect(plan.sites[0]!.reason).toContain('asked only when a condition around it holds');
    expect(output).toContain('@mrtr-todo(nested-site): ');
  });

  it('are migrated when the condition is the question itself', () => {
    const source = oneTool("const a = (await ctx.mcpReq.elicitInput(Q)).action === 'accept' ? 'yes' : 'no';", 'a');
    expect(statusOf(source).map(([, status]) => status)).toEqual(['migrated']);
  });
});

describe('requests whose method or receiver a plain reading does not name', () => {
  it.each([
    ['an element of an array', "const names = ['elicitInput'] as const;\n", 'const a = await ctx.mcpReq[names[0]](Q);'],
    ['a member of a namespace', "namespace Calls {\n  export const ask = 'elicitInput';\n}\n", 'const a = await server.server[Calls.ask](Q);'],
    ['a call', 'declare function pick(): "elicitInput";\n', 'const a = await ctx.mcpReq[pick()](Q);'],
  ])('marks a method named in brackets by %s (unfollowed-reference), never drops it', (_name, before, call) => {
    const source = oneTool(call, 'String(a)').replace('const server =', `${before}const server =`);
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'unfollowed-reference']]);
    expect(plan.sites[0]!.reason).toContain('names its method by an expression the codemod cannot read');
    expect(output).toContain('@mrtr-todo(unfollowed-reference): ');
  });

  it("leaves alone a method named in brackets on an object that is not the SDK's", () => {
    const source = oneTool('const handlers: Record<string, () => Promise<string>> = {};\n  const a = await handlers[String(ctx.mcpReq.id)]();', 'a');
    expect(analyseFile(source, 'server.ts').sites).toEqual([]);
  });

  it.each([
    ['in the body', 'const {\n    mcpReq: { elicitInput },\n  } = ctx;\n  const a = await elicitInput(Q);', 'async (ctx) =>'],
    ['in the parameters', 'const a = await elicitInput(Q);', 'async ({ mcpReq: { elicitInput } }) =>'],
  ])('marks a method taken out of the request context by a nested destructuring %s', (_name, body, head) => {
    const source = oneTool(body, 'a.action').replace('async (ctx) =>', head);
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'unfollowed-reference']]);
    expect(plan.sites[0]!.reason).toContain('taken out of the request context by a nested destructuring');
    expect(output).toContain('@mrtr-todo(unfollowed-reference): ');
  });
});

describe('a request through the context of a function no registration here names', () => {
  const SERVER =
    "import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\n";
  const ASK = `const a = await ctx.mcpReq.elicitInput(${Q});\n    return { content: [{ type: 'text' as const, text: a.action }] };`;
  it.each([
    [
      'a handler kept in an object registered in a loop',
      `const tools = {\n  wipe: {\n    config: { description: 'd' },\n    async handler(ctx: ServerContext) {\n    ${ASK}\n    },\n  },\n};\nfor (const [name, t] of Object.entries(tools)) server.registerTool(name, t.config, t.handler);\n`,
    ],
    [
      'a handler behind a wrapper',
      `const withAuth = (fn: (ctx: ServerContext) => Promise<CallToolResult>) => fn;\nserver.registerTool('wipe', { description: 'd' }, withAuth(async (ctx) => {\n    ${ASK}\n}));\n`,
    ],
    [
      'a handler registered through a helper of the project',
      `function tool(name: string, fn: (ctx: ServerContext) => Promise<CallToolResult>) {\n  server.registerTool(name, { description: name }, fn);\n}\ntool('wipe', async (ctx) => {\n    ${ASK}\n});\n`,
    ],
    [
      'a decorated method',
      `const Tool = (_name: string) => (_target: object, _key: string) => {};\nclass Tools {\n  @Tool('wipe')\n  async wipe(ctx: ServerContext) {\n    ${ASK}\n  }\n}\nexport const tools = new Tools();\n`,
    ],
  ])('is marked as one, not as a request outside every handler: %s', (_name, code) => {
    const { plan, output } = transformSource(SERVER + code, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'unregistered-handler']]);
    expect(plan.sites[0]!.reason).toContain('goes through the request context `ctx` of a function the codemod could not tie to');
    expect(output).toContain('@mrtr-todo(unregistered-handler): ');
  });

  it('is marked as one when the function takes a context and asks through the server', () => {
    const code = `const withAuth = (fn: (ctx: ServerContext) => Promise<CallToolResult>) => fn;\nserver.registerTool('roots', { description: 'd' }, withAuth(async (ctx) => {\n  const r = await server.server.listRoots();\n  return { content: [{ type: 'text' as const, text: String(r.roots.length) }] };\n}));\n`;
    const { plan, output } = transformSource(SERVER + code, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'unregistered-handler']]);
    expect(plan.sites[0]!.reason).toContain('is made in a function that takes a request context (`ctx`)');
    expect(output).toContain('@mrtr-todo(unregistered-handler): ');
  });

  it.each([
    [
      'a function a factory returns, for a registry to register',
      `async function makeFolders(server: McpServer) {\n  return async () => {\n    const r = await server.server.listRoots();\n    return { content: [{ type: 'text' as const, text: String(r.roots.length) }] };\n  };\n}\nexport const FOLDERS = { name: 'folders', build: makeFolders };\n`,
      'makeFolders',
    ],
    [
      'a handler an arrow factory returns, taking its context',
      `const makeWipe = (server: McpServer) => async (ctx: ServerContext): Promise<CallToolResult> => {\n    ${ASK}\n};\nexport const tools = [{ name: 'wipe', build: makeWipe }];\n`,
      'makeWipe',
    ],
  ])('is marked as one, naming its factory: %s', (_name, code, factory) => {
    const { plan, output } = transformSource(SERVER + code, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'unregistered-handler']]);
    expect(plan.sites[0]!.reason).toContain(`this request is made in a function that \`${factory}\` returns, which the codemod could not tie to`);
    expect(output).toContain('@mrtr-todo(unregistered-handler): ');
  });

  it("is a request outside every handler in a resource template's list callback", () => {
    const code = `server.registerResource('n', new ResourceTemplate('n://{id}', {\n  list: async (ctx) => {\n    const a = await ctx.mcpReq.elicitInput(${Q});\n    return { resources: a.action === 'accept' ? [{ uri: 'n://1', name: 'one' }] : [] };\n  },\n}), {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));\n`;
    const source = SERVER.replace('type ServerContext }', 'type ServerContext, ResourceTemplate }') + code;
    expect(statusOf(source).map(([, status, code]) => [status, code])).toEqual([['marked', 'no-request-to-answer']]);
  });

  it('is a request outside every handler where a request handler of another kind is handed it', () => {
    const code = `server.server.setRequestHandler('completion/complete', async (_request, ctx) => {\n  const a = await ctx.mcpReq.elicitInput(${Q});\n  return { completion: { values: [a.action] } };\n});\n`;
    expect(statusOf(SERVER + code).map(([, status, code]) => [status, code])).toEqual([['marked', 'no-request-to-answer']]);
  });
});

describe("a class's method registered as a handler", () => {
  const source = (more: string) => `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
export class Projects {
  async handleArchive(ctx: ServerContext) {
    const a = await ctx.mcpReq.elicitInput(${Q});
    return { content: [{ type: 'text' as const, text: a.action }] };
  }
  register(server: McpServer) {
    server.registerTool('archive', { description: 'd' }, this.handleArchive.bind(this));
  }
}
export function build() {
  const server = new McpServer({ name: 's', version: '1' });
  const projects = new Projects();
  projects.register(server);
${more}  return server;
}
`;

  it('is migrated when the registration is all that names it', () => {
    expect(statusOf(source('')).map(([, status]) => status)).toEqual(['migrated']);
  });

  it.each([
    ['registered again through an instance', "  server.registerTool('archive_too', { description: 'd' }, projects.handleArchive.bind(projects));\n"],
    ['called from another handler', "  server.registerTool('archive_now', { description: 'd' }, (ctx) => projects.handleArchive(ctx));\n"],
  ])('is marked shared-handler when it is also %s: its state would name one of them', (_name, more) => {
    const { plan, output } = transformSource(source(more), 'projects.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'shared-handler']]);
    expect(plan.sites[0]!.reason).toContain('the method `handleArchive` is registered as tool:archive and named elsewhere too');
    expect(output).toContain('@mrtr-todo(shared-handler): ');
  });
});

describe('`this` in a subclass', () => {
  const ofClass = (head: string, base: string) => `${head}
export class Low extends ${base} {
  async confirm() {
    return this.elicitInput(${Q});
  }
}
`;

  it("of the SDK's Server asks the client", () => {
    const source = ofClass("import { Server } from '@modelcontextprotocol/server';", 'Server');
    expect(analyseFile(source, 'low.ts').sites.map((s) => [s.kind, s.uncertain ?? false])).toEqual([['elicit', false]]);
    expect(statusOf(source, 'low.ts').map(([, status]) => status)).toEqual(['marked']);
  });

  it('of a class another module exports is in doubt, not dropped', () => {
    const source = ofClass("import { Base } from './base.js';", 'Base');
    expect(analyseFile(source, 'low.ts').sites.map((s) => [s.kind, s.uncertain ?? false])).toEqual([['elicit', true]]);
  });

  it('of a class of this file that has the method itself is not the SDK', () => {
    const source = ofClass(`class Base {\n  async elicitInput(q: unknown) {\n    return q;\n  }\n}`, 'Base');
    expect(analyseFile(source, 'low.ts').sites).toEqual([]);
  });
});
