// A server whose tools are declared in a project registry, the way production servers lay them
// out: each module under src/tools declares its tool (`declareTool({ name, factory })`, the name
// from a const object of another module), the registry's module registers every declaration in a
// loop with the handler its factory returns, and src/server.ts hands it the list. The engine
// reads the registry's module for the modules that declare tools: what a factory returns is the
// handler of the tool its declaration names, with its context where the registry's registration
// puts it (no schema: the context alone); so is the method of a tool written as a class, whose
// instance src/server.ts hands to the registry. A factory two declarations share, and a `factory` handed
// to a module that registers nothing, stay marked, and a second run writes nothing over them. The migrated server, run through the real v2 client on both eras, behaves as the
// original does on the 2025 era, and a second run changes nothing.
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
  'src/tools/names.ts': "export const TOOL_NAMES = { workspaces: 'list_workspaces', archive: 'archive_table' } as const;\n",
  'src/tools/tool-registry.ts': [
    "import type { McpServer, ServerContext, ToolCallback } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    `import type { World } from ${WORLD};`,
    '',
    'export interface ToolContext {',
    '  server: McpServer;',
    '  world: World;',
    '}',
    '',
    '/** What the SDK calls: `(args, ctx)` for a tool with a schema, `(ctx)` for one without. */',
    'export type ToolHandler = (args: any, ctx: ServerContext) => ReturnType<ToolCallback>;',
    '',
    'export interface ToolDeclaration {',
    '  name: string;',
    '  description: string;',
    '  inputSchema?: z.ZodRawShape;',
    '  factory: (context: ToolContext) => ToolHandler;',
    '}',
    '',
    'export function declareTool(declaration: ToolDeclaration): ToolDeclaration {',
    '  return declaration;',
    '}',
    '',
    '/** A tool written as a class: the registry calls `run` on it. */',
    'export interface ClassTool {',
    '  readonly name: string;',
    '  run(args: any, ctx: ServerContext): ReturnType<ToolCallback>;',
    '}',
    '',
    'export function registerClassTools(server: McpServer, tools: readonly ClassTool[]): void {',
    '  for (const tool of tools) server.registerTool(tool.name, {}, tool.run.bind(tool));',
    '}',
    '',
    'export function registerTools(server: McpServer, world: World, declarations: readonly ToolDeclaration[]): void {',
    '  declarations.forEach((declaration) => {',
    '    const { name, factory, ...config } = declaration;',
    '    server.registerTool(name, { description: config.description, ...(config.inputSchema && { inputSchema: z.object(config.inputSchema) }) }, factory({ server, world }));',
    '  });',
    '}',
    '',
  ].join('\n'),
  'src/tools/workspaces.ts': [
    "import { TOOL_NAMES } from './names.js';",
    "import { declareTool, type ToolContext } from './tool-registry.js';",
    '',
    'export const LIST_WORKSPACES = declareTool({',
    '  name: TOOL_NAMES.workspaces,',
    "  description: 'List the workspaces under the client roots',",
    '  factory: listWorkspaces,',
    '});',
    '',
    'function listWorkspaces({ server, world }: ToolContext) {',
    '  return async () => {',
    "    world.audit('workspaces:scan');",
    '    const { roots } = await server.server.listRoots();',
    '    world.audit(`workspaces:${roots.length}`);',
    "    return { content: [{ type: 'text' as const, text: roots.map((root) => root.name ?? root.uri).join(', ') }] };",
    '  };',
    '}',
    '',
  ].join('\n'),
  'src/tools/archive.ts': [
    "import * as z from 'zod/v4';",
    "import { TOOL_NAMES } from './names.js';",
    "import { declareTool } from './tool-registry.js';",
    '',
    'export const ARCHIVE_TABLE = declareTool({',
    '  name: TOOL_NAMES.archive,',
    "  description: 'Archive a table',",
    '  inputSchema: { table: z.string() },',
    '  factory:',
    '    ({ world }) =>',
    '    async ({ table }: { table: string }, ctx) => {',
    '      const rows = world.count(table);',
    '      const answer = await ctx.mcpReq.elicitInput({',
    '        message: `Archive ${rows} rows of ${table}?`,',
    "        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },",
    '      });',
    "      if (answer.action !== 'accept' || answer.content?.ok !== true) return { content: [{ type: 'text', text: 'Kept.' }] };",
    '      world.delete(table);',
    "      return { content: [{ type: 'text', text: `Archived ${rows} rows.` }] };",
    '    },',
    '});',
    '',
  ].join('\n'),
  // A tool written as a class another module makes an instance of and hands to the registry.
  'src/tools/reindex.ts': [
    "import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';",
    `import type { World } from ${WORLD};`,
    "import type { ClassTool } from './tool-registry.js';",
    '',
    'export class ReindexTool implements ClassTool {',
    "  readonly name = 'reindex';",
    '',
    '  constructor(',
    '    private readonly server: McpServer,',
    '    private readonly world: World,',
    '  ) {}',
    '',
    '  async run(): Promise<CallToolResult> {',
    "    this.world.audit('reindex:plan');",
    '    const answer = await this.server.server.elicitInput({',
    "      message: 'Rebuild every index?',",
    "      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },",
    '    });',
    '    this.world.audit(`reindex:${answer.action}`);',
    "    return { content: [{ type: 'text', text: answer.action }] };",
    '  }',
    '}',
    '',
  ].join('\n'),
  // One factory two declarations share: its handler would serve both tools, so it is marked.
  'src/tools/confirm.ts': [
    "import { declareTool, type ToolContext } from './tool-registry.js';",
    '',
    'function confirming({ server, world }: ToolContext) {',
    '  return async () => {',
    "    const answer = await server.server.elicitInput({ message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } });",
    '    world.audit(`confirm:${answer.action}`);',
    "    return { content: [{ type: 'text' as const, text: answer.action }] };",
    '  };',
    '}',
    '',
    "export const CONFIRM = declareTool({ name: 'confirm', description: 'Confirm', factory: confirming });",
    "export const CONFIRM_AGAIN = declareTool({ name: 'confirm_again', description: 'Confirm again', factory: confirming });",
    '',
  ].join('\n'),
  // A `factory` handed to a module with no registry: a job a timer runs, which no request answers.
  'src/jobs/scheduler.ts': [
    'export interface Job {',
    '  name: string;',
    '  factory: () => () => Promise<void>;',
    '}',
    '',
    'export function schedule(job: Job): Job {',
    '  setInterval(() => void job.factory()(), 60_000).unref();',
    '  return job;',
    '}',
    '',
  ].join('\n'),
  'src/jobs/digest.ts': [
    "import type { McpServer } from '@modelcontextprotocol/server';",
    "import { schedule } from './scheduler.js';",
    '',
    'export function scheduleDigest(server: McpServer): void {',
    '  schedule({',
    "    name: 'digest',",
    '    factory: () => async () => {',
    '      await server.server.createMessage({',
    "        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the day.' } }],",
    '        maxTokens: 50,',
    '      });',
    '    },',
    '  });',
    '}',
    '',
  ].join('\n'),
  'src/server.ts': [
    "import { McpServer } from '@modelcontextprotocol/server';",
    `import type { World } from ${WORLD};`,
    "import { ARCHIVE_TABLE } from './tools/archive.js';",
    "import { CONFIRM, CONFIRM_AGAIN } from './tools/confirm.js';",
    "import { ReindexTool } from './tools/reindex.js';",
    "import { registerClassTools, registerTools } from './tools/tool-registry.js';",
    "import { LIST_WORKSPACES } from './tools/workspaces.js';",
    '',
    'const TOOLS = [LIST_WORKSPACES, ARCHIVE_TABLE, CONFIRM, CONFIRM_AGAIN];',
    '',
    'export function createServer(world: World): McpServer {',
    "  const server = new McpServer({ name: 'warehouse', version: '1.0.0' });",
    '  registerTools(server, world, TOOLS);',
    '  registerClassTools(server, [new ReindexTool(server, world)]);',
    '  return server;',
    '}',
    '',
  ].join('\n'),
};

const calls: ToolCall[] = [
  { name: 'list_workspaces', arguments: {} },
  { name: 'archive_table', arguments: { table: 'logs' } },
  { name: 'archive_table', arguments: { table: 'users' } },
  { name: 'reindex', arguments: {} },
];
const script: ClientScript = {
  roots: [{ uri: 'file:///srv/a', name: 'a' }, { uri: 'file:///srv/b' }],
  elicit: (params) => ({ action: 'accept', content: { ok: String(params.message).includes('logs') } }),
};

let dir: string;
let migrated: string;
let result: RunResult;
beforeAll(async () => {
  dir = await originalAndCopy('registries-e2e-', FILES);
  migrated = path.join(dir, 'migrated');
  result = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('migrates the handlers a registry gets from other modules (what factories return, a class’s method), and marks the rest', () => {
  expect(result.errors).toEqual([]);
  expect(result.sites.map((s) => [s.file, s.handler, s.status, s.code])).toEqual([
    ['src/jobs/digest.ts', undefined, 'marked', 'unregistered-handler'], // a factory's product that nothing here registers
    ['src/tools/archive.ts', 'tool:TOOL_NAMES.archive', 'migrated', undefined],
    ['src/tools/confirm.ts', 'tool:confirm', 'marked', 'shared-handler'],
    ['src/tools/reindex.ts', 'tool:reindex', 'migrated', undefined],
    ['src/tools/workspaces.ts', 'tool:TOOL_NAMES.workspaces', 'migrated', undefined],
  ]);
  expect(typecheck(Object.keys(FILES).map((f) => path.join(migrated, f)))).toEqual([]);
});

it('writes nothing on a second run, the marker above the shared handler’s request left as it is', async () => {
  const texts = () => Object.keys(FILES).map((f) => readFileSync(path.join(migrated, f), 'utf8'));
  const first = texts();
  const again = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
  expect(again.errors).toEqual([]);
  expect(again.changed).toEqual([]);
  expect(texts()).toEqual(first);
});

it('behaves as the original does, on both eras', async () => {
  const original = (await import(path.join(dir, 'original', 'src/server.ts'))) as { createServer(world: World): McpServer };
  const legacyWorld = createWorld();
  const legacy = await runCalls(() => original.createServer(legacyWorld), 'legacy', calls, script);
  expect(legacyWorld.log).toEqual([
    'audit:workspaces:scan',
    'audit:workspaces:2',
    'count:logs',
    'delete:logs=3',
    'count:users',
    'audit:reindex:plan',
    'audit:reindex:accept',
  ]);
  expect(legacy.questions.map((q) => q.method)).toEqual(['roots/list', 'elicitation/create', 'elicitation/create', 'elicitation/create']);

  const after = (await import(path.join(migrated, 'src/server.ts'))) as { createServer(world: World): McpServer };
  for (const era of ['modern', 'legacy'] as const) {
    const world = createWorld();
    const run = await runCalls(() => after.createServer(world), era, calls, script);
    expect(run.era).toBe(era);
    expect({ era, results: run.results }).toEqual({ era, results: legacy.results });
    expect({ era, questions: run.questions }).toEqual({ era, questions: legacy.questions });
    expect({ era, log: world.log }).toEqual({ era, log: legacyWorld.log });
  }
});
