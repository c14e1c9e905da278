// A project registry whose own type gives every handler its arguments first (`(args, ctx)`,
// args typed from the declaration's raw shape), though the SDK calls a tool registered without
// a schema with its context alone. Its roots tool, whose handler a factory function returns (no
// contextual type), is marked while it has no schema, naming the schema as the step; declared
// with an empty one, as the marker says, it migrates: its arguments typed `unknown` beside its
// typed context, the roots capability read from the request, the `Set` and `Map` it builds
// before the question built again on the retry. The migrated server typechecks and, run through
// the real v2 client on both eras, behaves as the original does on the 2025 era; a client
// without roots gets the configured paths, as before.
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

/** The roots tool's module: `schema` is what its declaration says of its input. */
const sites = (schema: string) =>
  [
    "import { declareTool, type SiteContext } from './registry.js';",
    '',
    'export const LIST_SITES = declareTool({',
    "  name: 'list_sites',",
    "  description: 'List the sites under the client roots',",
    schema,
    '  factory: createListSitesHandler,',
    '});',
    '',
    'function createListSitesHandler({ server, world, paths: configured }: SiteContext) {',
    '  return async () => {',
    '    const seen = new Set<string>();',
    '    const sizes = new Map<string, number>();',
    '    let searched: string[] | undefined;',
    '    const capabilities = server.server.getClientCapabilities();',
    '    if (capabilities?.roots) {',
    "      world.audit('sites:ask');",
    '      const { roots } = await server.server.listRoots();',
    '      searched = roots.map((root) => root.uri);',
    '    }',
    '    if (!searched || searched.length === 0) searched = configured;',
    '    for (const site of searched) {',
    '      if (seen.has(site)) continue;',
    '      seen.add(site);',
    '      sizes.set(site, site.length);',
    '    }',
    '    world.audit(`sites:${seen.size}`);',
    "    return { content: [{ type: 'text' as const, text: [...sizes].map(([site, size]) => `${site}=${size}`).join(', ') }] };",
    '  };',
    '}',
    '',
  ].join('\n');

const FILES: Record<string, string> = {
  'src/registry.ts': [
    "import type { McpServer, ServerContext, ToolCallback } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    `import type { World } from ${WORLD};`,
    '',
    'export interface SiteContext {',
    '  server: McpServer;',
    '  world: World;',
    '  paths: string[];',
    '}',
    '',
    'export type SiteCallback<T extends z.ZodRawShape = z.ZodRawShape> = (',
    '  args: z.infer<z.ZodObject<T>>,',
    '  ctx: ServerContext,',
    ') => ReturnType<ToolCallback>;',
    '',
    'export type SiteFactory<T extends z.ZodRawShape> = (context: SiteContext) => SiteCallback<T>;',
    '',
    'export interface SiteTool<T extends z.ZodRawShape> {',
    '  name: string;',
    '  description: string;',
    '  inputSchema?: T;',
    '  factory: SiteFactory<T>;',
    '}',
    '',
    '// eslint-disable-next-line @typescript-eslint/no-explicit-any',
    'export type AnySiteTool = SiteTool<any>;',
    '',
    'export function declareTool<T extends z.ZodRawShape>(tool: SiteTool<T>): SiteTool<T> {',
    '  return tool;',
    '}',
    '',
    'export function registerTools(server: McpServer, context: Omit<SiteContext, "server">, tools: AnySiteTool[]): void {',
    '  for (const tool of tools) {',
    '    const { name, factory, ...config } = tool;',
    '    const handler = factory({ ...context, server });',
    '    server.registerTool(name, { ...config, inputSchema: config.inputSchema ? z.object(config.inputSchema) : undefined }, handler);',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/sites.ts': sites('  inputSchema: {},'),
  'src/pending.ts': sites('')
    .replace(/LIST_SITES/g, 'PENDING_SITES')
    .replace(/list_sites/g, 'pending_sites')
    .replace(/createListSitesHandler/g, 'createPendingHandler'),
  'src/server.ts': [
    "import { McpServer } from '@modelcontextprotocol/server';",
    `import type { World } from ${WORLD};`,
    "import { PENDING_SITES } from './pending.js';",
    "import { registerTools } from './registry.js';",
    "import { LIST_SITES } from './sites.js';",
    '',
    'export function createServer(world: World): McpServer {',
    "  const server = new McpServer({ name: 'sites', version: '1.0.0' });",
    "  registerTools(server, { world, paths: ['file:///srv/default'] }, [LIST_SITES, PENDING_SITES]);",
    '  return server;',
    '}',
    '',
  ].join('\n'),
};

const calls: ToolCall[] = [{ name: 'list_sites', arguments: {} }, { name: 'list_sites' }];
const script: ClientScript = { roots: [{ uri: 'file:///srv/a', name: 'a' }, { uri: 'file:///srv/b' }, { uri: 'file:///srv/a' }] };

let dir: string;
let migrated: string;
let result: RunResult;
beforeAll(async () => {
  dir = await originalAndCopy('registry-schema-e2e-', FILES);
  migrated = path.join(dir, 'migrated');
  result = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('migrates the handler of the tool that declares a schema, and marks the one without, naming the schema as the step', () => {
  expect(result.errors).toEqual([]);
  expect(result.sites.map((s) => [s.file, s.handler, s.status, s.code])).toEqual([
    ['src/pending.ts', 'tool:pending_sites', 'marked', 'context-pattern'],
    ['src/sites.ts', 'tool:list_sites', 'migrated', undefined],
  ]);
  const pending = readFileSync(path.join(migrated, 'src/pending.ts'), 'utf8');
  expect(pending).toContain(
    '      // @mrtr-todo(context-pattern): `SiteCallback` (registry.ts:11) puts args first — declare `inputSchema` on this tool, then run again\n' +
      '      const { roots } = await server.server.listRoots();',
  );
  const migratedSites = readFileSync(path.join(migrated, 'src/sites.ts'), 'utf8');
  expect(migratedSites).toContain('  return async (_args: unknown, ctx: ServerContext) => {\n');
  expect(migratedSites).toContain('roots are deprecated');
  expect(typecheck(Object.keys(FILES).map((f) => path.join(migrated, f)))).toEqual([]);
});

it('writes nothing on a second run', async () => {
  const texts = () => Object.keys(FILES).map((f) => readFileSync(path.join(migrated, f), 'utf8'));
  const first = texts();
  const again = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
  expect(again.errors).toEqual([]);
  expect(again.changed).toEqual([]);
  expect(texts()).toEqual(first);
});

type Built = { createServer(world: World): McpServer };

it('behaves as the original does, on both eras, with and without the roots capability', async () => {
  const original = (await import(path.join(dir, 'original', 'src/server.ts'))) as Built;
  const after = (await import(path.join(migrated, 'src/server.ts'))) as Built;
  for (const capabilities of [undefined, { elicitation: { form: {} }, sampling: {} }]) {
    const legacyWorld = createWorld();
    const legacy = await runCalls(() => original.createServer(legacyWorld), 'legacy', calls, script, capabilities);
    const asked = capabilities === undefined;
    expect(legacyWorld.log).toEqual(asked ? ['audit:sites:ask', 'audit:sites:2', 'audit:sites:ask', 'audit:sites:2'] : ['audit:sites:1', 'audit:sites:1']);
    expect(legacy.questions.map((q) => q.method)).toEqual(asked ? ['roots/list', 'roots/list'] : []);
    for (const era of ['modern', 'legacy'] as const) {
      const world = createWorld();
      const run = await runCalls(() => after.createServer(world), era, calls, script, capabilities);
      expect(run.era).toBe(era);
      expect({ era, results: run.results }).toEqual({ era, results: legacy.results });
      expect({ era, questions: run.questions }).toEqual({ era, questions: legacy.questions });
      expect({ era, log: world.log }).toEqual({ era, log: legacyWorld.log });
    }
  }
});
