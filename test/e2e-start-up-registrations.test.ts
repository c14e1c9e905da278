// End to end through the real SDK: a server that registers its asking tools from oninitialized,
// each behind a client-capability read made while it registers them (the shape of the MCP
// reference "everything" server), before and after the codemod, served by serveStdio(factory)
// over an in-memory pair to a 2026-07-28 client and to a 2025 one. A 2026-07-28 connection
// never runs initialize, so before the migration those tools do not exist for it.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { importFixture } from './support/fixtures.ts';
import { link, runCalls, type Era } from './support/harness.ts';

type ServerModule = { createServer(world: World): McpServer };

const FIXTURE = 'conditional-tools-after-initialize';
const ERAS: Era[] = ['modern', 'legacy'];
const ALL_TOOLS = ['confirm_delete', 'echo', 'summarise'];
const CALL = [{ name: 'confirm_delete', arguments: { table: 'logs' } }];
const ACCEPT = { elicit: () => ({ action: 'accept' as const, content: { ok: true } }) };

/** The world's log without the 2025-only session note the hook still writes 350 ms after initialize. */
const effects = (world: World) => world.log.filter((entry) => !entry.startsWith('audit:session:'));

async function toolNames(module: ServerModule, era: Era): Promise<string[]> {
  const world = createWorld();
  const options = { capabilities: { elicitation: { form: {} }, sampling: {} }, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}) };
  const connection = await link(
    () => module.createServer(world),
    era,
    options,
    () => undefined,
  );
  try {
    expect(connection.client.getProtocolEra()).toBe(era);
    const { tools } = await connection.client.listTools();
    return tools.map((t) => t.name).sort();
  } finally {
    await connection.close();
  }
}

describe('tools registered after initialize, behind a capability read', () => {
  it.each(ERAS)('are listed by the migrated server on the %s era, as by the original on 2025 only', async (era) => {
    const legacy = await importFixture<ServerModule>(FIXTURE, 'input');
    expect(await toolNames(legacy, era)).toEqual(era === 'legacy' ? ALL_TOOLS : ['echo']);
    const migrated = await importFixture<ServerModule>(FIXTURE, 'output');
    expect(await toolNames(migrated, era)).toEqual(ALL_TOOLS);
  });

  it.each(ERAS)('answer a call that asks on the %s era as the original did on 2025', async (era) => {
    const legacyWorld = createWorld();
    const legacy = await importFixture<ServerModule>(FIXTURE, 'input');
    const before = await runCalls(() => legacy.createServer(legacyWorld), 'legacy', CALL, ACCEPT);
    expect(before.results).toEqual([{ content: [{ type: 'text', text: 'accept' }] }]);
    expect(effects(legacyWorld)).toEqual(['delete:logs=3']);

    const world = createWorld();
    const migrated = await importFixture<ServerModule>(FIXTURE, 'output');
    const after = await runCalls(() => migrated.createServer(world), era, CALL, ACCEPT);
    expect(after.era).toBe(era);
    expect(after.results).toEqual(before.results);
    expect(after.questions).toEqual(before.questions);
    expect(effects(world)).toEqual(['delete:logs=3']);
  });

  it.each(ERAS)('refuse a %s client that cannot answer, now that they are registered for every client', async (era) => {
    // The migrated ask checks the capabilities the request carries, as the SDK's push did.
    const migrated = await importFixture<ServerModule>(FIXTURE, 'output');
    const world = createWorld();
    const run = await runCalls(() => migrated.createServer(world), era, CALL, {}, {});
    expect(run.results).toEqual([{ content: [{ type: 'text', text: 'Client does not support form elicitation.' }], isError: true }]);
    expect(run.questions).toEqual([]);
    expect(effects(world)).toEqual([]);
  });
});
