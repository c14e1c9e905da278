// Every refusal code, triggered: for each code of the table in src/plan/refusal.ts, the
// smallest server that makes the codemod leave a site with that code, run through the engine
// as a dry run. Each must leave the `@mrtr-todo(<code>)` marker in the code it would write and
// the same words on the summary's line for the site. A code added to the table without a case
// here fails the type check and the first test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentText } from '../src/core/escape.ts';
import { runCodemod, type RunResult, type RunSettings } from '../src/engine/run.ts';
import { markerLine, REFUSAL_CODES, refuse, type RefusalCode } from '../src/plan/refusal.ts';
import { formatSummary } from '../src/report/summary.ts';
import { putFile } from './support/scratch.ts';

interface Case {
  /** The files of the project, by path. */
  files: Record<string, string>;
  /** The run's settings besides the defaults of a dry run without the type checker. */
  settings?: Partial<RunSettings>;
}

const Q = "{ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }";
const SERVER = "import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\n";
const DONE = "  return { content: [{ type: 'text', text: 'done' }] };";

/** A server with one tool whose handler has `body`. */
const tool = (body: string, params = '{ q }, ctx', name = "'t'") =>
  `${SERVER}server.registerTool(${name}, { inputSchema: schema }, async (${params}) => {\n${body}\n});\n`;
/** A project of one file, `server.ts`. */
const server = (code: string): Case => ({ files: { 'server.ts': code } });
/** A helper that does something before it asks, so it cannot be split. */
const HELPER = `async function confirm(ctx) {\n  log('asking');\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return answer.action === 'accept';\n}\n`;

const CASES: Record<RefusalCode, Case> = {
  'no-request-to-answer': server(
    `${SERVER}server.server.oninitialized = async () => {\n  const roots = await server.server.listRoots();\n  console.log(roots);\n};\n`,
  ),
  'unregistered-handler': server(
    `${SERVER}const handlers = {\n  async wipe({ q }, ctx) {\n    const answer = await ctx.mcpReq.elicitInput(${Q});\n  ${DONE}\n  },\n};\nfor (const [name, fn] of Object.entries(handlers)) server.registerTool(name, { inputSchema: schema }, fn);\n`,
  ),
  'nested-site': server(tool(`  const pending = ctx.mcpReq.elicitInput(${Q});\n  const answer = await pending;\n${DONE}`)),
  closure: server(
    tool(`  const ask = async () => {\n    const answer = await ctx.mcpReq.elicitInput(${Q});\n    return answer;\n  };\n  await ask();\n${DONE}`),
  ),
  'unserialisable-local': server(
    tool(
      `  const started = new Date();\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return { content: [{ type: 'text', text: started.toISOString() + answer.action }] };`,
    ),
  ),
  'legacy-sdk': {
    ...server(
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', { inputSchema: schema }, async ({ q }, ctx) => {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}\n});\n`,
    ),
    settings: { v1: false },
  },
  'legacy-registration': server(
    `${SERVER}server.tool('t', 'Wipe everything', async (ctx) => {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}\n});\n`,
  ),
  'hand-migrated': server(tool(`  const earlier = ctx.mcpReq.inputResponses?.confirm;\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}`)),
  'mutated-local': server(
    tool(`  const entry: { count: number } = cache.get(q);\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  entry.count += 1;\n${DONE}`),
  ),
  'unbounded-local': server(
    tool(
      `  const rows: string[] = loadRows(q);\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return { content: [{ type: 'text', text: answer.action + rows.length }] };`,
    ),
  ),
  'stdio-entry': server(
    `${SERVER}import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';\nawait server.connect(new StdioServerTransport());\n`,
  ),
  'http-entry': server(
    `${SERVER}import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';\nconst transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });\nawait server.connect(transport);\n`,
  ),
  // The v1 upgrade takes only a file with a request, so the server has a tool that asks.
  'tasks-api': server(
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';\nconst taskStore = new InMemoryTaskStore();\nconst server = new McpServer({ name: 's', version: '1' }, { capabilities: {}, taskStore });\nserver.registerTool('t', { inputSchema: schema }, async ({ q }, ctx) => {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}\n});\n`,
  ),
  'secret-in-state': server(
    tool(
      `  const apiKey: string = keyFor(q);\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return { content: [{ type: 'text', text: answer.action + apiKey.length }] };`,
    ),
  ),
  'untyped-local': server(
    tool(`  const n = compute(q);\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return { content: [{ type: 'text', text: answer.action + n }] };`),
  ),
  'param-reassigned': server(
    tool(`  q = q.trim();\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return { content: [{ type: 'text', text: q + answer.action }] };`),
  ),
  'unknown-request': server(tool(`  const answer = await ctx.mcpReq.send(request);\n${DONE}`)),
  'server-elsewhere': {
    files: {
      'tools.ts': `import { server } from './instance.ts';\nserver.registerTool('t', { inputSchema: schema }, async ({ q }, ctx) => {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}\n});\n`,
    },
  },
  // An xmcp tool whose work before the question would run again: xmcp verifies no requestState.
  'framework-state': server(
    `import { type ToolExtraArguments } from 'xmcp';\nexport default async function t({ q }: { q: string }, extra: ToolExtraArguments) {\n  log('asking');\n  const answer = await extra.elicit(${Q});\n  return { content: [{ type: 'text', text: answer.action }] };\n}\n`,
  ),
  'blocked-by-sibling': server(
    tool(`  const answer = await ctx.mcpReq.elicitInput(${Q});\n  const later = async () => {\n    await ctx.mcpReq.elicitInput(${Q});\n  };\n${DONE}`),
  ),
  'name-clash': server(tool(`  const mrtrAnswer = 1;\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}`)),
  loop: server(tool(`  for (const key in q) {\n    const answer = await ctx.mcpReq.elicitInput(${Q});\n  }\n${DONE}`)),
  'switch-case': server(tool(`  switch (q) {\n    case 'a':\n      await ctx.mcpReq.elicitInput(${Q});\n    case 'b':\n      return done();\n  }\n${DONE}`)),
  finally: server(tool(`  try {\n    work();\n  } finally {\n    await ctx.mcpReq.elicitInput(${Q});\n  }\n${DONE}`)),
  'in-helper': server(`${SERVER}export ${HELPER}`),
  // A helper one handler asks through and a test calls outside any handler: split, and kept under its name for the test.
  'legacy-entry': {
    files: {
      'root.ts': `import type { McpServer } from '@modelcontextprotocol/server';\nexport async function pickRoot(server: McpServer, given?: string): Promise<string> {\n  if (given) return given;\n  const { roots } = await server.server.listRoots();\n  return roots[0]?.uri ?? '';\n}\n`,
      'tools.ts': `${SERVER}import { pickRoot } from './root.ts';\nserver.registerTool('t', { inputSchema: schema }, async ({ q }) => {\n  const root = await pickRoot(server, q);\n  return { content: [{ type: 'text', text: root }] };\n});\n`,
      'root.test.ts': `import { pickRoot } from './root.ts';\ntest('takes the root it is given', async () => {\n  expect(await pickRoot(fakeServer, '/srv')).toBe('/srv');\n});\n`,
    },
  },
  'via-helper': server(`${HELPER}${tool(`  const ok = await confirm(ctx);\n  return { content: [{ type: 'text', text: String(ok) }] };`)}`),
  'blocked-by-helper': server(
    `${HELPER}${tool(`  const first = await ctx.mcpReq.elicitInput(${Q});\n  const ok = await confirm(ctx);\n  return { content: [{ type: 'text', text: String(ok) + first.action }] };`)}`,
  ),
  'shadowed-local': server(
    tool(
      `  const n: number = 1;\n  {\n    const n: number = 2;\n    const answer = await ctx.mcpReq.elicitInput(${Q});\n    use(n, answer);\n  }\n  use(n);\n${DONE}`,
    ),
  ),
  'unknown-receiver': server(tool(`  const answer = await client.server.createMessage(params);\n${DONE}`)),
  'unknown-tool-name': server(tool(`  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}`, '{ q }, ctx', "nameOf('t')")),
  'shared-handler': server(
    `${SERVER}async function handle({ q }, ctx) {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}\n}\nserver.registerTool('a', { inputSchema: schema }, handle);\nserver.registerTool('b', { inputSchema: schema }, handle);\n`,
  ),
  'registered-late': server(
    `${SERVER}server.server.oninitialized = () => {\n  const session = server.server.transport?.sessionId;\n  server.registerTool('t', { inputSchema: schema }, async ({ q }, ctx) => {\n    const answer = await ctx.mcpReq.elicitInput(${Q});\n    log(session);\n  ${DONE}\n  });\n};\n`,
  ),
  'task-augmented': server(
    tool(
      `  const answer = await ctx.mcpReq.elicitInput({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} }, task: { ttl: 60000 } });\n${DONE}`,
    ),
  ),
  'url-elicitation': server(tool(`  throw new UrlElicitationRequiredError(pending);`)),
  sampling: {
    ...server(tool(`  const result = await ctx.mcpReq.requestSampling(params);\n${DONE}`)),
    settings: { transform: { sampling: 'flag' } },
  },
  layout: server(tool(`  const answer = await ctx.mcpReq.elicitInput(${Q}); return answer;`)),
  // A comment between the arrow and its expression: no block can be written around it.
  'expression-body': server(`${SERVER}server.registerTool('t', { inputSchema: schema }, async ({ q }, ctx) => /* ask */ ctx.mcpReq.elicitInput(${Q}));\n`),
  'foreign-context': server(tool(`  const answer = await extra.mcpReq.elicitInput(${Q});\n${DONE}`)),
  'request-pattern': server(
    `import { Server } from '@modelcontextprotocol/server';\nconst server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });\nserver.setRequestHandler('tools/call', async ({ params }, ctx) => {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}\n});\n`,
  ),
  'context-pattern': server(tool(`  const answer = await mcpReq.elicitInput(${Q});\n${DONE}`, '{ q }, { mcpReq, ...rest }')),
  'mixed-promise-all': server(tool(`  const [answer, record] = await Promise.all([ctx.mcpReq.elicitInput(${Q}), load(q)]);\n${DONE}`)),
  'optional-call': server(tool(`  const answer = await ctx.mcpReq?.elicitInput(${Q});\n${DONE}`)),
  'unfollowed-reference': server(tool(`  const answer = await confirmWith(ctx.mcpReq.elicitInput, q);\n${DONE}`)),
  'return-type': server(
    `${SERVER}async function handle({ q }, ctx): Result {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n${DONE}\n}\nserver.registerTool('t', { inputSchema: schema }, handle);\n`,
  ),
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mrtr-refusal-codes-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(code: string, { files, settings }: Case): Promise<RunResult> {
  const dir = path.join(root, code);
  for (const [file, text] of Object.entries(files)) await putFile(dir, file, text);
  return runCodemod({ paths: ['.'], cwd: dir, write: false, types: false, ...settings });
}

describe('every refusal code', () => {
  it('has a case', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(REFUSAL_CODES).sort());
  });

  it.each(Object.entries(CASES))('%s: the marker and the report line', async (code, c) => {
    const result = await run(code, c);
    expect(result.errors).toEqual([]);
    // The tasks API is left by the v1 upgrade: reported with the upgrade's notes, at the marked statement.
    if (code === 'tasks-api') {
      const [note] = result.upgrades.flatMap((u) => u.notes.filter((n) => n.code === 'tasks-api-left').map((n) => ({ ...n, file: u.file })));
      expect(note).toBeDefined();
      const lines = result.changed.find((f) => f.path === note!.file)!.output.split('\n');
      const marker = markerLine(refuse('tasks-api', 'removed', { use: 'new InMemoryTaskStore()' }));
      expect(lines[note!.line - 2]!.trim()).toBe(`// @mrtr-todo(${code}): ${commentText(marker)}`);
      expect(note!.message).toContain('Next: remove it with the tools and options that use it');
      expect(lines[note!.line - 1]).toBe('const taskStore = new InMemoryTaskStore();');
      expect(formatSummary(result, { dryRun: true }).split('\n')).toContain(`  ${note!.file}:${note!.line}:1  tasks-api-left  ${note!.message}`);
      return;
    }
    // A stdio entry point is no request site: it is reported on a line of its own.
    const entry = result.entryPoints?.find((e) => e.code === code);
    const site = entry ?? result.sites.find((s) => s.code === code);
    expect(site, JSON.stringify(result.sites.map((s) => [s.code, s.reason]))).toBeDefined();
    expect(site!.status).toBe('marked');
    const output = result.changed.find((f) => f.path === site!.file)!.output;
    // The marker is one short line: what blocks and the next step; the report gives the rest.
    const marker = `// @mrtr-todo(${code}): ${commentText(site!.marker!)}`;
    expect(output.split('\n').map((line) => line.trim())).toContain(marker);
    expect(marker.length).toBeLessThanOrEqual(160);
    const where = entry ? `${entry.file}:${entry.line}` : `${site!.file}:${site!.line}:${(site as RunResult['sites'][number]).column}`;
    expect(formatSummary(result, { dryRun: true }).split('\n')).toContain(`  ${where}  ${code}  ${site!.reason}  Next: ${site!.next}`);
  });
});

// A marker that blames another statement names the line that statement is on in the written file.
describe('markers name the line of the statement that blocks', () => {
  const NAMED: [RefusalCode, string][] = [
    ['param-reassigned', 'q = q.trim();'],
    ['shadowed-local', 'const n: number = 2;'],
    ['blocked-by-helper', 'const ok = await confirm(ctx);'],
  ];
  it.each(NAMED)('%s', async (code, statement) => {
    const result = await run(`${code}-line`, CASES[code]);
    const site = result.sites.find((s) => s.code === code)!;
    const line = /line (\d+)/.exec(site.marker!)?.[1];
    expect(line, site.marker).toBeDefined();
    const output = result.changed.find((f) => f.path === site.file)!.output.split('\n');
    expect(output[Number(line) - 1]!.trim()).toBe(statement);
  });
});
