// A URL elicitation thrown behind a one-shot retry marker (fixtures/url-throw-retry-marker): the
// 2025 client showed the URL, the user visited it, and the client re-sent the call, which found
// its key in the module's collection, cleared it and went on. The migrated server, on the
// 2026-07-28 era and on the 2025 era through the SDK's shim, must ask the same questions, give
// the same results and do the same things: the marker's key recorded when the URL is shown,
// cleared by the retry, so the collection ends empty and the same call asks again later.
import { ProtocolError, type ElicitRequestURLParams } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { importFixture } from './support/fixtures.ts';
import { link, normaliseQuestion, stripMeta, type Era, type Question, type ToolCall } from './support/harness.ts';

type ServerModule = { createServer(world: World): McpServer; pendingMarkers(): string[] };

const fixture = 'url-throw-retry-marker';
const capabilities = { elicitation: { form: {}, url: {} } };

const calls: ToolCall[] = [
  { name: 'open_vault', arguments: { vault: 'north', signIn: true } },
  // The same call again: the marker was cleared, so the sign-in is asked again.
  { name: 'open_vault', arguments: { vault: 'north', signIn: true } },
  { name: 'open_vault', arguments: { vault: 'south' } },
  { name: 'export_vault', arguments: { vault: 'north' } },
];

/** The user: visits each URL (logged with what the markers hold at that moment), approves the vault's north side only. */
function user(world: World, markers: () => string[]) {
  return (params: Record<string, unknown>) => {
    world.log.push(`visit:${String(params.url)} markers=${markers().join(',')}`);
    return { action: String(params.url).endsWith('/south') ? ('decline' as const) : ('accept' as const) };
  };
}

/**
 * The calls on one connection of `era`, the markers logged after each. `resend`: the 2025
 * client's flow, where a call that fails with -32042 has its URLs visited, then is made once
 * more (the migrated server must never need it).
 */
async function run(module: ServerModule, world: World, era: Era, resend: boolean) {
  const visit = user(world, module.pendingMarkers);
  const { client, close } = await link(
    () => module.createServer(world),
    era,
    { capabilities, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
    (c) => c.setRequestHandler('elicitation/create', (request) => visit(record(request.params))),
  );
  const questions: Question[] = [];
  const record = (params: unknown) => {
    const question = normaliseQuestion('elicitation/create', params);
    questions.push(question);
    return question.params as Record<string, unknown>;
  };
  const results: unknown[] = [];
  try {
    for (const call of calls) {
      for (let attempt = 1; ; attempt++) {
        try {
          results.push(stripMeta(await client.callTool(call)));
          break;
        } catch (error) {
          if (!resend || !(error instanceof ProtocolError) || error.code !== -32042 || attempt > 2) throw error;
          for (const params of (error.data as { elicitations: ElicitRequestURLParams[] }).elicitations) visit(record(params));
        }
      }
      world.log.push(`after:${call.name} markers=${module.pendingMarkers().join(',')}`);
    }
  } finally {
    await close();
  }
  return { results, questions };
}

/** Without its elicitationId: 2026-07-28 URL questions have none, and the SDK's 2025 shim makes one up. */
const withoutId = (questions: Question[]) => questions.map((q) => ({ ...q, params: { ...(q.params as object), elicitationId: undefined } }));

describe('a URL elicitation thrown behind a one-shot retry marker', () => {
  it('asks, answers and clears the marker as the 2025 server did, on both eras', async () => {
    const legacyWorld = createWorld();
    const legacyModule = await importFixture<ServerModule>(fixture, 'input');
    const legacy = await run(legacyModule, legacyWorld, 'legacy', true);
    const signIn = 'https://vault.example.com/login';
    // Pinned, so that the comparison below cannot pass vacuously.
    expect(legacy.results).toEqual([
      { content: [{ type: 'text', text: 'accept: north (t-3)' }] },
      { content: [{ type: 'text', text: 'accept: north (t-6)' }] },
      { content: [{ type: 'text', text: 'decline: south (t-7)' }] },
      { content: [{ type: 'text', text: 'Exported north.' }] },
    ]);
    expect(legacy.questions.map((q) => (q.params as { url: string }).url)).toEqual([
      signIn,
      'https://vault.example.com/approve/north',
      signIn,
      'https://vault.example.com/approve/north',
      'https://vault.example.com/approve/south',
      'https://vault.example.com/export/north',
    ]);
    expect(legacyWorld.log).toEqual([
      'audit:ticket:t-1',
      `visit:${signIn} markers=local|north|`,
      'audit:ticket:t-3',
      'visit:https://vault.example.com/approve/north markers=',
      'audit:opened:north:t-3:accept',
      'after:open_vault markers=',
      'audit:ticket:t-4',
      `visit:${signIn} markers=local|north|`,
      'audit:ticket:t-6',
      'visit:https://vault.example.com/approve/north markers=',
      'audit:opened:north:t-6:accept',
      'after:open_vault markers=',
      'audit:ticket:t-7',
      'visit:https://vault.example.com/approve/south markers=',
      'audit:opened:south:t-7:decline',
      'after:open_vault markers=',
      'audit:export-asked:north',
      'visit:https://vault.example.com/export/north markers=local/north',
      'audit:export-asked:north',
      'audit:exported:north',
      'after:export_vault markers=',
    ]);

    const migrated = await importFixture<ServerModule>(fixture, 'output');
    for (const era of ['modern', 'legacy'] as const) {
      const world = createWorld();
      const { results, questions } = await run(migrated, world, era, false);
      expect({ era, results }).toEqual({ era, results: legacy.results });
      expect({ era, questions: withoutId(questions) }).toEqual({ era, questions: withoutId(legacy.questions) });
      expect({ era, log: world.log }).toEqual({ era, log: legacyWorld.log });
    }
  });
});
