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

const capabilities = { elicitation: { form: {}, url: {} } };

const vaultCalls: ToolCall[] = [
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
async function run(module: ServerModule, world: World, era: Era, resend: boolean, calls: ToolCall[]) {
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
    const legacyModule = await importFixture<ServerModule>('url-throw-retry-marker', 'input');
    const legacy = await run(legacyModule, legacyWorld, 'legacy', true, vaultCalls);
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

    const migrated = await importFixture<ServerModule>('url-throw-retry-marker', 'output');
    for (const era of ['modern', 'legacy'] as const) {
      const world = createWorld();
      const { results, questions } = await run(migrated, world, era, false, vaultCalls);
      expect({ era, results }).toEqual({ era, results: legacy.results });
      expect({ era, questions: withoutId(questions) }).toEqual({ era, questions: withoutId(legacy.questions) });
      expect({ era, log: world.log }).toEqual({ era, log: legacyWorld.log });
    }
  });
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Each random id as `<id N>`, N by first appearance over everything it is given: the same id stays the same name. */
function idNames() {
  const names = new Map<string, string>();
  const name = (id: string) => names.get(id) ?? names.set(id, `<id ${names.size + 1}>`).get(id)!;
  return <T>(value: T): T => JSON.parse(JSON.stringify(value).replace(UUID, name)) as T;
}

/** One connection's calls, its random ids named: the log first, where each id is made. */
async function runNamed(module: ServerModule, era: Era, resend: boolean, calls: ToolCall[]) {
  const world = createWorld();
  const { results, questions } = await run(module, world, era, resend, calls);
  const named = idNames();
  return { log: named(world.log), results: named(results), questions: withoutId(named(questions)) };
}

// fixtures/url-random-id-marker: the link id is the caller's or `randomUUID()` (typed with no
// @types/node), asked after a log-in behind a marker, and echoed in the result.
describe('a URL elicitation with a random id, behind a one-shot retry marker', () => {
  const pageCalls: ToolCall[] = [
    { name: 'publish_page', arguments: { page: 'north', login: true } },
    { name: 'publish_page', arguments: { page: 'north', login: true, linkId: 'L-1' } },
    { name: 'publish_page', arguments: { page: 'south' } },
    { name: 'share_page', arguments: { page: 'north' } },
    { name: 'share_page', arguments: { page: 'south', code: 'c7' } },
  ];

  it('makes the id once per call that asks and reads that one after the answer, on both eras', async () => {
    const legacy = await runNamed(await importFixture<ServerModule>('url-random-id-marker', 'input'), 'legacy', true, pageCalls);
    const login = 'https://pages.example.com/login';
    // Pinned: the re-sent call makes a new id (<id 2>), asks with it and answers with it.
    expect(legacy.results).toEqual([
      { content: [{ type: 'text', text: 'accept: north (link <id 2>)' }] },
      { content: [{ type: 'text', text: 'accept: north (link L-1)' }] },
      { content: [{ type: 'text', text: 'decline: south (link <id 3>)' }] },
      { content: [{ type: 'text', text: 'accept: north shared with <id 4>' }] },
      { content: [{ type: 'text', text: 'decline: south shared with inv-c7' }] },
    ]);
    expect(legacy.log).toEqual([
      'audit:link:<id 1>',
      `visit:${login} markers=local:north:`,
      'audit:link:<id 2>',
      'visit:https://pages.example.com/review/north markers=',
      'audit:published:north:<id 2>:accept',
      'after:publish_page markers=',
      'audit:link:L-1',
      `visit:${login} markers=local:north:L-1`,
      'audit:link:L-1',
      'visit:https://pages.example.com/review/north markers=',
      'audit:published:north:L-1:accept',
      'after:publish_page markers=',
      'audit:link:<id 3>',
      'visit:https://pages.example.com/review/south markers=',
      'audit:published:south:<id 3>:decline',
      'after:publish_page markers=',
      'audit:invite:<id 4>',
      'visit:https://pages.example.com/share/north markers=',
      'after:share_page markers=',
      'audit:invite:inv-c7',
      'visit:https://pages.example.com/share/south markers=',
      'after:share_page markers=',
    ]);
    expect(legacy.questions.map((q) => (q.params as Record<string, unknown>).url)).toEqual([
      login,
      'https://pages.example.com/review/north',
      login,
      'https://pages.example.com/review/north',
      'https://pages.example.com/review/south',
      'https://pages.example.com/share/north',
      'https://pages.example.com/share/south',
    ]);

    const migrated = await importFixture<ServerModule>('url-random-id-marker', 'output');
    for (const era of ['modern', 'legacy'] as const) {
      // A resumed call that made its id again would answer with an id its log never made.
      expect({ era, ...(await runNamed(migrated, era, false, pageCalls)) }).toEqual({ era, ...legacy });
    }
  });
});
