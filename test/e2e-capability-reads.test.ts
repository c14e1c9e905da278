// A handler that reads the client's capabilities before it asks, laid out the way production
// servers lay out their tools: a project registry (its own module) registers each declaration
// with the handler its async factory returns, without a schema for a tool that has none, and
// hands the factory the folders the server was started with. The handler asks for the client's
// roots only when the client declared them, and falls back to those folders (or the process's
// own). The capability read is derived again on the retry, from the capabilities the retry
// carries, so nothing travels for it; the collections the handler makes are made again too.
// Through the real v2 client on both eras the migrated server asks what the original asked
// (nothing, for a client without roots), gives the same results and does each thing once.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { ROOT } from './support/fixtures.ts';
import { runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
import { originalAndCopy } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

const WORLD = JSON.stringify(path.join(ROOT, 'fixtures', '_support', 'world.ts'));

const FILES: Record<string, string> = {
  'src/tools/registry.ts': [
    "import type { McpServer, ServerContext, ToolCallback } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    `import type { World } from ${WORLD};`,
    '',
    'export interface ToolContext {',
    '  server: McpServer;',
    '  world: World;',
    '  folders?: string[];',
    '}',
    '',
    '/** What the SDK calls: `(args, ctx)` for a tool with a schema, `(ctx)` for one without. */',
    'export type ToolHandler = (args: any, ctx: ServerContext) => ReturnType<ToolCallback>;',
    '',
    'export interface ToolDeclaration {',
    '  name: string;',
    '  description: string;',
    '  inputSchema?: z.ZodRawShape;',
    '  factory: (context: ToolContext) => ToolHandler | Promise<ToolHandler>;',
    '}',
    '',
    'export function declareTool(declaration: ToolDeclaration): ToolDeclaration {',
    '  return declaration;',
    '}',
    '',
    'export async function registerTools(server: McpServer, context: Omit<ToolContext, "server">, declarations: ToolDeclaration[]): Promise<void> {',
    '  for (const declaration of declarations) {',
    '    const { name, factory, ...config } = declaration;',
    '    const handler = await factory({ ...context, server });',
    '    server.registerTool(name, { ...config, inputSchema: config.inputSchema ? z.object(config.inputSchema) : undefined }, handler);',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/tools/notebooks.ts': [
    "import { declareTool, type ToolContext } from './registry.js';",
    '',
    'export const LIST_NOTEBOOKS = declareTool({',
    "  name: 'list_notebooks',",
    "  description: 'List the notebooks under the folders the client shares',",
    '  factory: createListNotebooks,',
    '});',
    '',
    'function withoutNested(folders: string[]): string[] {',
    '  const kept: string[] = [];',
    '  for (const folder of [...folders].sort()) if (!kept.some((k) => folder.startsWith(`${k}/`))) kept.push(folder);',
    '  return kept;',
    '}',
    '',
    'async function createListNotebooks({ server, world, folders: startFolders }: ToolContext) {',
    '  return async () => {',
    '    const found: string[] = [];',
    '    const seen = new Set<string>();',
    '    const pages = new Map<string, number>();',
    '',
    '    let folders: string[] | undefined;',
    '    const capabilities = server.server.getClientCapabilities();',
    '    if (capabilities?.roots) {',
    '      const { roots } = await server.server.listRoots();',
    '      folders = roots?.map((root) => new URL(root.uri).pathname);',
    '    }',
    '    if (!folders || folders.length === 0) {',
    '      folders = startFolders && startFolders.length > 0 ? startFolders : [process.cwd()];',
    '    }',
    '    folders = withoutNested(folders);',
    '',
    '    for (const folder of folders) {',
    '      if (seen.has(folder)) continue;',
    '      seen.add(folder);',
    '      pages.set(folder, world.count(folder));',
    '      found.push(`${folder} (${pages.get(folder)} pages)`);',
    '    }',
    '    world.audit(`listed:${found.length}`);',
    "    return { content: [{ type: 'text' as const, text: found.join('\\n') }] };",
    '  };',
    '}',
    '',
  ].join('\n'),
  'src/server.ts': [
    "import { McpServer } from '@modelcontextprotocol/server';",
    `import type { World } from ${WORLD};`,
    "import { LIST_NOTEBOOKS } from './tools/notebooks.js';",
    "import { registerTools } from './tools/registry.js';",
    '',
    'export async function createServer(world: World, folders?: string[]): Promise<McpServer> {',
    "  const server = new McpServer({ name: 'notebooks', version: '1.0.0' });",
    '  await registerTools(server, { world, ...(folders ? { folders } : {}) }, [LIST_NOTEBOOKS]);',
    '  return server;',
    '}',
    '',
  ].join('\n'),
};

type ServerModule = { createServer(world: World, folders?: string[]): Promise<McpServer> };

let dir: string;
let migrated: string;
let result: RunResult;
beforeAll(async () => {
  dir = await originalAndCopy('capability-reads-e2e-', FILES);
  migrated = path.join(dir, 'migrated');
  result = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('migrates the handler, reading the capabilities again on the retry instead of carrying them', () => {
  expect(result.errors).toEqual([]);
  expect(result.sites.map((s) => [s.file, s.handler, s.status, s.code])).toEqual([['src/tools/notebooks.ts', 'tool:list_notebooks', 'migrated', undefined]]);
  const site = result.sites[0]!;
  expect(site.rederived).toEqual(['found', 'seen', 'pages', 'folders', 'capabilities']);
  expect(site.rerun?.map((c) => [c.text, c.why])).toEqual([['server.server.getClientCapabilities()', 'read']]);
  const text = readFileSync(path.join(migrated, 'src/tools/notebooks.ts'), 'utf8');
  expect(text).toContain(
    '    const capabilities = (ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities();\n' +
      "    if (mrtr.step === 'roots' || capabilities?.roots) {\n",
  );
  expect(typecheck(Object.keys(FILES).map((f) => path.join(migrated, f)))).toEqual([]);
});

it('writes nothing on a second run, and finds nothing left', async () => {
  const texts = () => Object.keys(FILES).map((f) => readFileSync(path.join(migrated, f), 'utf8'));
  const first = texts();
  const again = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
  expect(again.errors).toEqual([]);
  expect(again.changed).toEqual([]);
  expect(texts()).toEqual(first);
  // Nothing is left to migrate or mark.
  expect(again.sites).toEqual([]);
});

const calls: ToolCall[] = [
  { name: 'list_notebooks', arguments: {} },
  { name: 'list_notebooks', arguments: {} },
];

/** Two clients: one that declares roots (asked, nested roots dropped), one that does not (never asked: the folders the server was given). */
const CLIENTS = [
  {
    capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
    script: { roots: [{ uri: 'file:///srv/b', name: 'b' }, { uri: 'file:///srv/a' }, { uri: 'file:///srv/a/deep' }] },
    asked: ['roots/list', 'roots/list'],
    text: '/srv/a (0 pages)\n/srv/b (0 pages)',
    log: ['count:/srv/a', 'count:/srv/b', 'audit:listed:2'],
  },
  {
    capabilities: { elicitation: { form: {} } },
    script: {},
    asked: [],
    text: '/data/notes (0 pages)',
    log: ['count:/data/notes', 'audit:listed:1'],
  },
];

it('asks a client with roots for them and a client without nothing, with the same results and each effect once, on both eras', async () => {
  const folders = ['/data/notes'];
  const original = (await import(path.join(dir, 'original', 'src/server.ts'))) as ServerModule;
  const after = (await import(path.join(migrated, 'src/server.ts'))) as ServerModule;
  for (const { capabilities, script, asked, text, log } of CLIENTS) {
    const legacyWorld = createWorld();
    const legacyServer = await original.createServer(legacyWorld, folders);
    const legacy = await runCalls(() => legacyServer, 'legacy', calls, script as ClientScript, capabilities);
    expect(legacy.questions.map((q) => q.method)).toEqual(asked);
    expect(legacy.results).toEqual([{ content: [{ type: 'text', text }] }, { content: [{ type: 'text', text }] }]);
    expect(legacyWorld.log).toEqual([...log, ...log]);

    for (const era of ['modern', 'legacy'] as const) {
      const world = createWorld();
      const server = await after.createServer(world, folders);
      const run = await runCalls(() => server, era, calls, script as ClientScript, capabilities);
      expect(run.era).toBe(era);
      expect({ era, asked, results: run.results }).toEqual({ era, asked, results: legacy.results });
      expect({ era, asked, questions: run.questions }).toEqual({ era, asked, questions: legacy.questions });
      expect({ era, asked, log: world.log }).toEqual({ era, asked, log: legacyWorld.log });
    }
  }
});
