// v1 servers end to end: the unchanged v1 server through the real v1 client, against the
// output of both passes (the official v1-to-v2 codemod, then MRTR) through the real v2 client
// on the 2026-07-28 era and on the 2025 era (the SDK's legacy shim).
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { importFixture } from './support/fixtures.ts';
import { link, runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
import { runCallsV1 } from './support/harness-v1.ts';

const accept = (content: Record<string, unknown>) => ({ action: 'accept' as const, content });

const scenarios: Array<{ name: string; fixture: string; calls: ToolCall[]; script: ClientScript; legacyLog: string[] }> = [
  {
    name: 'server.server.elicitInput in a v1 McpServer tool',
    fixture: 'v1-mcp-server-elicit',
    calls: [{ name: 'delete_records', arguments: { table: 'logs' } }],
    script: { elicit: () => accept({ confirm: true }) },
    legacyLog: ['count:logs', 'delete:logs=3'],
  },
  {
    name: 'extra.sendRequest in a v1 tool and a v1 prompt',
    fixture: 'v1-extra-send-request',
    calls: [
      { name: 'rename_table', arguments: { table: 'logs' } },
      { kind: 'prompt', name: 'greet', arguments: { name: 'Ada' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('New name') ? accept({ name: 'archive' }) : { action: 'decline' }) },
    legacyLog: ['audit:rename:logs', 'audit:renamed:logs->archive'],
  },
  {
    name: 'server.tool(...) under names read from a constant object, in each overload',
    fixture: 'v1-tool-names-from-constants',
    calls: [
      { name: 'records_delete', arguments: { table: 'logs' } },
      { name: 'records_count', arguments: { table: 'users' } },
      { name: 'records_list_tables' },
      { name: 'records_audit', arguments: { entry: 'checked' } },
    ],
    script: { elicit: () => accept({ confirm: true }) },
    legacyLog: ['count:logs', 'delete:logs=3', 'count:users', 'audit:checked'],
  },
];

describe.each(scenarios)('$name', (scenario) => {
  it('behaves through the v2 client on both eras as the v1 server did through the v1 client', async () => {
    const v1 = await importFixture<{ createServer(world: World): McpServerV1 }>(scenario.fixture, 'input');
    const legacyWorld = createWorld();
    const legacy = await runCallsV1(() => v1.createServer(legacyWorld), scenario.calls, scenario.script);
    expect(legacyWorld.log).toEqual(scenario.legacyLog);
    expect(legacy.questions.length).toBeGreaterThan(0);

    const migrated = await importFixture<{ createServer(world: World): McpServer }>(scenario.fixture, 'output');
    for (const era of ['modern', 'legacy'] as const) {
      const world = createWorld();
      const run = await runCalls(() => migrated.createServer(world), era, scenario.calls, scenario.script);
      expect({ era, results: run.results }).toEqual({ era, results: legacy.results });
      expect({ era, questions: run.questions }).toEqual({ era, questions: legacy.questions });
      expect({ era, log: world.log }).toEqual({ era, log: legacyWorld.log });
    }
  });
});

describe('a v1 server registering with server.tool(...)', () => {
  it('lists the same tools after the migration, on both eras', async () => {
    const v1 = await importFixture<{ createServer(world: World): McpServerV1 }>('v1-tool-names-from-constants', 'input');
    const legacy = await listToolsV1(v1.createServer(createWorld()));
    expect(legacy.map((t) => t.name)).toEqual(['records_delete', 'records_count', 'records_list_tables', 'records_audit']);
    const migrated = await importFixture<{ createServer(world: World): McpServer }>('v1-tool-names-from-constants', 'output');
    for (const era of ['modern', 'legacy'] as const) {
      const { client, close } = await link(
        () => migrated.createServer(createWorld()),
        era,
        era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
        () => undefined,
      );
      try {
        const { tools } = await client.listTools();
        expect({ era, tools: tools.map(described) }).toEqual({ era, tools: legacy.map(described) });
      } finally {
        await close();
      }
    }
  });
});

/** What a registration says of a tool: its name, description, arguments and annotations. */
function described(tool: { name: string; description?: string; inputSchema: { properties?: unknown; required?: unknown }; annotations?: unknown }) {
  return {
    name: tool.name,
    description: tool.description,
    properties: tool.inputSchema.properties,
    required: tool.inputSchema.required,
    annotations: tool.annotations,
  };
}

async function listToolsV1(server: McpServerV1) {
  const client = new ClientV1({ name: 'list-v1', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}
