// What the official v1-to-v2 codemod leaves marked of a handler's v1 shape, finished by the
// upgrade (src/rewrite/v1-leftovers.ts): the tables it writes from checked against the 2.4.0
// declarations, each rewrite on the codemod's own output, and each leftover it cannot write
// the v2 way keeping the codemod's marker.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_NOTIFICATION_METHODS, SPEC_REQUEST_METHODS, V1_CONTEXT_PLACES } from '../src/analyse/v1-leftovers.ts';
import { upgradeV1 } from '../src/engine/v1-upgrade.ts';
import { rewriteV1Leftovers } from '../src/rewrite/v1-leftovers.ts';
import { transformSource } from '../src/transform.ts';
import { checkoutScratch } from './support/scratch.ts';
import { diagnosticsByFile } from './support/typecheck.ts';

const scratch = checkoutScratch('v1-leftovers-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Diagnostics of one module compiled against the installed packages. */
function compile(name: string, text: string): string[] {
  const file = path.join(scratch, name);
  writeFileSync(file, text);
  return diagnosticsByFile([file]).get(file)!;
}

describe('the tables, against @modelcontextprotocol/server 2.4.0', () => {
  it('place each v1 context key where ServerContext declares it, and list exactly the methods v2 keys a handler by without schemas', () => {
    const reads = [...V1_CONTEXT_PLACES].map(
      ([v1, { under, key }], i) => `export const k${i} = (ctx: ServerContext) => ctx${under ? `.${under}?` : ''}.${key}; // ${v1}`,
    );
    const exact = (type: string, methods: ReadonlySet<string>) =>
      `export const ${type}s: ${type}[] = ${JSON.stringify([...methods])};\n` +
      `export const every${type}: Record<${type}, true> = { ${[...methods].map((m) => `'${m}': true`).join(', ')} };\n`;
    const text = `import type { NotificationMethod, RequestMethod, ServerContext } from '@modelcontextprotocol/server';\n${reads.join('\n')}\n${exact('RequestMethod', SPEC_REQUEST_METHODS)}${exact('NotificationMethod', SPEC_NOTIFICATION_METHODS)}`;
    expect(compile('tables.ts', text)).toEqual([]);
  });
});

const V1_HEAD =
  "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';\nconst server = new McpServer({ name: 's', version: '1' });\n";
const V2_HEAD =
  "import { McpServer } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\nconst server = new McpServer({ name: 's', version: '1' });\n";

/** v1 module bodies after the official codemod and its follow-ups (one run for all). */
async function upgraded(bodies: readonly string[]): Promise<string[]> {
  const files = await upgradeV1(bodies.map((body, i) => ({ path: `src/server${i}.ts`, text: V1_HEAD + body })));
  return files.map((f) => {
    expect(f.text.startsWith(V2_HEAD)).toBe(true);
    return f.text.slice(V2_HEAD.length);
  });
}

/** Each case's v1 body rewritten exactly to its v2 body, and every v2 body typechecking against 2.4.0 (one program). */
function rewrites(cases: ReadonlyArray<readonly [string, string, string]>): void {
  let texts: string[] = [];
  beforeAll(async () => {
    texts = await upgraded(cases.map((c) => c[1]));
  });
  it.each(cases.map((c, i) => [c[0], i, c[2]] as const))('%s', (_name, i, v2) => {
    expect(texts[i]).toBe(v2);
  });
  it('leaves modules that typecheck', () => {
    const files = texts.map((text, i) => {
      const file = path.join(scratch, `${cases[i]![0].replace(/\W+/g, '-')}.ts`);
      writeFileSync(file, V2_HEAD + text);
      return file;
    });
    expect([...diagnosticsByFile(files)].filter(([, d]) => d.length > 0)).toEqual([]);
  });
}

describe('a context destructured in the handler’s parameters', () => {
  rewrites([
    [
      'notify and _meta under mcpReq',
      `server.registerTool('t', { inputSchema: {} }, async (_a, { sendNotification, _meta }) => { await sendNotification({ method: 'x', params: { t: _meta?.progressToken } }); return { content: [] }; });\n`,
      `server.registerTool('t', { inputSchema: z.object({}) }, async (_a, { mcpReq: { notify: sendNotification, _meta } }) => { await sendNotification({ method: 'x', params: { t: _meta?.progressToken } }); return { content: [] }; });\n`,
    ],
    [
      'the session in place, the id renamed, a default kept',
      `server.registerTool('t', { inputSchema: {} }, async (_a, { sessionId, requestId, signal = new AbortController().signal }) => ({ content: [{ type: 'text', text: \`\${sessionId}\${requestId}\${signal.aborted}\` }] }));\n`,
      `server.registerTool('t', { inputSchema: z.object({}) }, async (_a, { sessionId, mcpReq: { id: requestId, signal = new AbortController().signal } }) => ({ content: [{ type: 'text', text: \`\${sessionId}\${requestId}\${signal.aborted}\` }] }));\n`,
    ],
    [
      'the HTTP keys under http, which may be absent',
      `server.registerTool('t', { inputSchema: {} }, async (_a, { authInfo, closeSSEStream }) => { closeSSEStream?.(); return { content: [{ type: 'text', text: String(authInfo?.clientId) }] }; });\n`,
      `server.registerTool('t', { inputSchema: z.object({}) }, async (_a, { http: { authInfo, closeSSE: closeSSEStream } = {} }) => { closeSSEStream?.(); return { content: [{ type: 'text', text: String(authInfo?.clientId) }] }; });\n`,
    ],
    [
      'a pattern over lines, one key a line',
      `server.registerTool('t', { inputSchema: {} }, async (\n  _a,\n  {\n    signal,\n    sessionId,\n  },\n) => ({ content: [{ type: 'text', text: \`\${sessionId}\${signal.aborted}\` }] }));\n`,
      `server.registerTool('t', { inputSchema: z.object({}) }, async (\n  _a,\n  {\n    mcpReq: { signal },\n    sessionId,\n  },\n) => ({ content: [{ type: 'text', text: \`\${sessionId}\${signal.aborted}\` }] }));\n`,
    ],
  ]);

  it.each([
    [
      'a key v2 reads another way (requestInfo: a fetch Request in v2)',
      `async (_a, { requestInfo, signal }) => ({ content: [{ type: 'text', text: String(requestInfo?.headers) + signal.aborted }] })`,
    ],
    ['a rest element', `async (_a, { signal, ...rest }) => ({ content: [{ type: 'text', text: String(rest) + signal.aborted }] })`],
    ['a key of the tasks API v2 removed', `async (_a, { taskStore, signal }) => ({ content: [{ type: 'text', text: String(taskStore) + signal.aborted }] })`],
  ])('keeps the codemod’s marker over %s', async (_name, handler) => {
    const [text] = await upgraded([`server.registerTool('t', { inputSchema: {} }, ${handler});\n`]);
    expect(text).toContain('/* @mcp-codemod-error Destructuring of context parameter in signature:');
    expect(text).toContain(handler);
  });

  it('leaves no marker where the codemod runs again on the pattern it wrote (a v1 import it cannot move is left)', async () => {
    const compat = "import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';\nvoid toJsonSchemaCompat;\n";
    const handler = `async (_a, { sessionId, requestId }) => ({ content: [{ type: 'text', text: \`\${sessionId}\${requestId}\` }] })`;
    const [file] = await upgradeV1([{ path: 'src/server.ts', text: `${V1_HEAD}${compat}server.registerTool('t', { inputSchema: {} }, ${handler});\n` }]);
    expect(file!.text).toContain('async (_a, { sessionId, mcpReq: { id: requestId } }) =>');
    expect(file!.text).not.toContain('Destructuring of context parameter');
  });

  it('keeps the marker over v2’s mcpReq destructured beside a key that goes under it', () => {
    const marker = '/* @mcp-codemod-error Destructuring of context parameter in signature: "{ mcpReq: { id }, signal }". Manual refactoring required. */';
    const text = `${V2_HEAD}server.registerTool('t', {},\n  ${marker}\n  async (_a: object, { mcpReq: { id }, signal }) => ok);\n`;
    expect(rewriteV1Leftovers(text, 'a.ts')).toEqual({ output: text, rewritten: 0 });
  });

  it('lets the MRTR pass destructure what it keeps of a pattern with `sendRequest` the v2 way, and drop the marker', async () => {
    const ask = `const r = await sendRequest({ method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);`;
    const v1 = `${V1_HEAD}import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
server.registerTool('t', { inputSchema: {} }, async (_a, { sendRequest, sendNotification, sessionId }) => {
  ${ask}
  await sendNotification({ method: 'notifications/message', params: { level: 'info', data: r.action + sessionId } });
  return { content: [] };
});
`;
    const [file] = await upgradeV1([{ path: 'src/server.ts', text: v1 }]);
    const { output, plan } = transformSource(file!.text, 'src/server.ts');
    expect(plan.sites.map((site) => site.status)).toEqual(['migrated']);
    expect(output).toContain(
      "async (_a, ctx) => {\n  const { mcpReq: { notify: sendNotification }, sessionId } = ctx;\n  const mrtr = await mrtrResume(ctx, 'tool:t'",
    );
    expect(output).not.toContain('@mcp-codemod-error');
  });

  it('leaves `{ sendRequest }` to the MRTR pass', () => {
    const marker = '/* @mcp-codemod-error Destructuring of context parameter in signature: "{ sendRequest, signal }". Manual refactoring required. */';
    const text = `${V2_HEAD}server.registerTool('t', {},\n  ${marker}\n  async (_a: object, { sendRequest, signal }) => ok);\n`;
    expect(rewriteV1Leftovers(text, 'a.ts')).toEqual({ output: text, rewritten: 0 });
  });

  it('drops only its own message from a marker that joins several', () => {
    const mine = 'Destructuring of context parameter in signature: "{ signal }". Manual refactoring required.';
    const text = `${V2_HEAD}server.registerTool('t', {},\n  /* @mcp-codemod-error Another thing. | ${mine} */\n  async (_a: object, { signal }) => ok);\n`;
    expect(rewriteV1Leftovers(text, 'a.ts').output).toBe(
      `${V2_HEAD}server.registerTool('t', {},\n  /* @mcp-codemod-error Another thing. */\n  async (_a: object, { mcpReq: { signal } }) => ok);\n`,
    );
  });

  it('rewrites no pattern the codemod did not mark', () => {
    const text = `${V2_HEAD}function helper(_a: object, { signal }: { signal: AbortSignal }) { return signal; }\n`;
    expect(rewriteV1Leftovers(`${text}// Destructuring of context parameter in signature\n`, 'a.ts').rewritten).toBe(0);
  });
});

describe('a handler keyed by a zod object of its method', () => {
  rewrites([
    [
      'a spec request, passthrough',
      `server.server.setRequestHandler(z.object({ method: z.literal('resources/subscribe') }).passthrough(), async () => ({}));\n`,
      `server.server.setRequestHandler('resources/subscribe', async () => ({}));\n`,
    ],
    [
      'a spec request over lines, loose',
      `server.server.setRequestHandler(\n  z.object({ method: z.literal("logging/setLevel") }).loose(),\n  async () => ({}),\n);\n`,
      `server.server.setRequestHandler(\n  "logging/setLevel",\n  async () => ({}),\n);\n`,
    ],
    [
      'a spec notification',
      `server.server.setNotificationHandler(z.object({ method: z.literal('notifications/initialized') }), () => {});\n`,
      `server.server.setNotificationHandler('notifications/initialized', () => {});\n`,
    ],
  ]);

  it.each([
    ['a custom method', `server.server.setRequestHandler(z.object({ method: z.literal('acme/search') }), async () => ({}));\n`],
    [
      'a schema with params of its own',
      `server.server.setRequestHandler(z.object({ method: z.literal('ping'), params: z.object({ n: z.number() }) }), async () => ({}));\n`,
    ],
    ['a request method on a notification handler', `server.server.setNotificationHandler(z.object({ method: z.literal('ping') }), () => {});\n`],
  ])('keeps the codemod’s marker over %s', async (_name, v1) => {
    const [text] = await upgraded([v1]);
    expect(text).toContain('with a non-string first argument');
    expect(text).toContain(v1.trimEnd());
  });
});

describe('a name the codemod dropped with its tasks import', () => {
  const v1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateTaskResult } from '@modelcontextprotocol/sdk/experimental/tasks';

export type Made = CreateTaskResult;

export function register(server: McpServer) {
  server.experimental.tasks.registerToolTask('research', {}, {
    createTask: async (_args, extra): Promise<CreateTaskResult> => ({ task: await extra.taskStore.createTask({ ttl: 1000 }) }),
  });
}
`;

  it('is a use of the tasks API: marked where it is used, and named in the note of each statement', async () => {
    const [file] = await upgradeV1([{ path: 'src/tasks.ts', text: v1 }]);
    const lines = file!.text.split('\n');
    expect(lines.slice(2, 10)).toEqual([
      '// @mrtr-todo(tasks-api): `CreateTaskResult` is the v1 tasks API, which v2 removed — remove it and its tools, or use the tasks extension',
      'export type Made = CreateTaskResult;',
      '',
      'export function register(server: McpServer) {',
      '  // @mrtr-todo(tasks-api): `server.experimental.tasks` and 1 more are the v1 tasks API, which v2 removed — remove them, or use the tasks extension',
      "  server.experimental.tasks.registerToolTask('research', {}, {",
      '    createTask: async (_args, extra): Promise<CreateTaskResult> => ({ task: await extra.taskStore.createTask({ ttl: 1000 }) }),',
      '  });',
    ]);
    const notes = file!.notes.filter((n) => n.code === 'tasks-api-left').map((n) => [n.line, n.message.split(' is the ')[0]!.split(' are the ')[0]]);
    expect(notes).toEqual([
      [4, '`CreateTaskResult`'],
      [8, '`server.experimental.tasks`, `CreateTaskResult`'],
    ]);
  });
});

describe('a setRequestHandler wrapper that looks handlers up by schema', () => {
  // v1 handed the wrapper the schema a handler was keyed by; v2 hands it the method string,
  // so a lookup by schema stops matching, with no error: the upgrade marks where it looks.
  const WRAPPER = [
    "import { ListToolsRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';",
    'const register = server.server.setRequestHandler.bind(server.server);',
    'const cached = new Set([ListToolsRequestSchema, ListPromptsRequestSchema]);',
    'server.server.setRequestHandler = ((schema: any, handler: any) => {',
    '  if (cached.has(schema)) return register(schema, async (...args: any[]) => ({ ...(await handler(...args)), ttlMs: 300000 }));',
    '  return register(schema, handler);',
    '}) as typeof server.server.setRequestHandler;',
    'server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));',
    '',
  ].join('\n');

  it('is marked where it names a request schema, once, naming the method v2 hands it instead', async () => {
    const [file] = await upgradeV1([{ path: 'src/server.ts', text: V1_HEAD + WRAPPER }]);
    const markers = file!.text.split('\n').filter((line) => line.includes('@mcp-codemod-error'));
    expect(markers).toEqual([
      "/* @mcp-codemod-error setRequestHandler is wrapped, and v2 hands it method strings: `ListToolsRequestSchema` here matches none — compare with 'tools/list' */",
    ]);
    const lines = file!.text.split('\n');
    expect(lines[lines.indexOf(markers[0]!) + 1]).toBe('const cached = new Set([ListToolsRequestSchema, ListPromptsRequestSchema]);');
    expect(file!.text).toContain("server.server.setRequestHandler('tools/list', () => ({ tools: [] }));");
    expect(file!.notes.map((n) => n.message)).toContainEqual(expect.stringContaining('`ListToolsRequestSchema` here matches none'));
    // Run again on its own output: the marker is not written twice.
    expect(rewriteV1Leftovers(file!.text, 'src/server.ts').output).toBe(file!.text);
  });
});
