// v1 servers end to end: the unchanged v1 server through the real v1 client, against the
// output of both passes (the official v1-to-v2 codemod, then MRTR) through the real v2 client
// on the 2026-07-28 era and on the 2025 era (the SDK's legacy shim).
import type { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { importFixture } from './support/fixtures.ts';
import { runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
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
