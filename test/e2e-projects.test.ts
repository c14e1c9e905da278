// A server of several modules end to end: the helper that asks lives in its own module
// (src/prompt.ts), called through a wrapper of it and by the server's handlers, named by a
// const object of another module. The project is migrated by the engine (the helper split,
// each handler asking through its halves), and the migrated server, run through the real v2
// client on both eras, behaves as the original does on the 2025 era: same results, same
// questions, same side effects.
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { runCodemod } from '../src/engine/run.ts';
import { ROOT } from './support/fixtures.ts';
import { runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
import { originalAndCopy } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

const WORLD = path.join(ROOT, 'fixtures', '_support', 'world.ts');

const FILES: Record<string, string> = {
  'src/names.ts': "export const TOOLS = { drop: 'drop_table', truncate: 'truncate_table' } as const;\n",
  'src/prompt.ts': [
    "import type { McpServer } from '@modelcontextprotocol/server';",
    '',
    '/** Asks the user to confirm; true only on an explicit yes. */',
    'export async function confirm(server: McpServer, message: string): Promise<boolean> {',
    '  const result = await server.server.elicitInput({',
    '    message,',
    "    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },",
    '  });',
    "  return result.action === 'accept' && result.content?.ok === true;",
    '}',
    '',
    'export async function confirmDestructive(server: McpServer, what: string): Promise<boolean> {',
    '  return confirm(server, `This cannot be undone: ${what}. Continue?`);',
    '}',
    '',
  ].join('\n'),
  'src/server.ts': [
    "import { McpServer } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    `import type { World } from ${JSON.stringify(WORLD)};`,
    "import { TOOLS } from './names.js';",
    "import { confirm, confirmDestructive } from './prompt.js';",
    '',
    'export function createServer(world: World): McpServer {',
    "  const server = new McpServer({ name: 'tables', version: '1.0.0' });",
    '',
    '  server.registerTool(TOOLS.drop, { inputSchema: z.object({ table: z.string() }) }, async ({ table }) => {',
    '    const rows = world.count(table);',
    '    if (!(await confirmDestructive(server, `drop ${table} (${rows} rows)`))) {',
    "      return { content: [{ type: 'text', text: 'Kept.' }] };",
    '    }',
    '    world.delete(table);',
    "    return { content: [{ type: 'text', text: `Dropped ${rows} rows.` }] };",
    '  });',
    '',
    '  server.registerTool(TOOLS.truncate, { inputSchema: z.object({ table: z.string() }) }, async ({ table }) => {',
    '    const ok = await confirm(server, `Truncate ${table}?`);',
    '    world.audit(`truncate:${table}:${ok}`);',
    "    return { content: [{ type: 'text', text: ok ? 'Truncated.' : 'Kept.' }] };",
    '  });',
    '',
    '  return server;',
    '}',
    '',
  ].join('\n'),
};

const accept = (content: Record<string, unknown>) => ({ action: 'accept' as const, content });
const calls: ToolCall[] = [
  { name: 'drop_table', arguments: { table: 'logs' } },
  { name: 'truncate_table', arguments: { table: 'users' } },
];
const script: ClientScript = { elicit: (params) => (String(params.message).startsWith('This cannot') ? accept({ ok: true }) : accept({ ok: false })) };

let dir: string;
beforeAll(async () => {
  dir = await originalAndCopy('project-e2e-', FILES);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('migrates a server whose asking helper lives in another module, and it behaves as before on both eras', async () => {
  const migrated = path.join(dir, 'migrated');
  const result = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
  expect(result.errors).toEqual([]);
  expect(result.sites.map((s) => [s.file, s.status])).toEqual([['src/prompt.ts', 'migrated']]);
  expect(typecheck(Object.keys(FILES).map((f) => path.join(migrated, f)))).toEqual([]);

  const original = (await import(path.join(dir, 'original', 'src/server.ts'))) as { createServer(world: World): McpServer };
  const legacyWorld = createWorld();
  const legacy = await runCalls(() => original.createServer(legacyWorld), 'legacy', calls, script);
  expect(legacyWorld.log).toEqual(['count:logs', 'delete:logs=3', 'audit:truncate:users:false']);
  expect(legacy.questions.length).toBe(2);

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
