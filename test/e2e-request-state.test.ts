// The request-state contract of a migrated handler, driven by a real 2026-07-28 client in
// manual mode so each round is visible: what the state names, that a retry without the
// answer re-asks without redoing work, and that tampered, expired or misdirected state is
// refused before any side effect.
import type { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { importFixture } from './support/fixtures.ts';
import { connectAutoFulfilling, connectManual, connectManualOverHttp, flipMac, runCalls } from './support/harness.ts';

type ServerModule = { createServer(world: World): McpServer };
const deleteServer = (await import('../fixtures/elicit-confirm-delete/output.ts')) as ServerModule;
const formsServer = (await import('../fixtures/request-forms/output.ts')) as ServerModule;
const deleteInput = (await import('../fixtures/elicit-confirm-delete/input.ts')) as ServerModule;
const classesServer = (await import('../fixtures/registry-classes/output.ts')) as ServerModule;
const samplingServer = await importFixture<ServerModule>('sampling-summarise', 'output');
const samplingInput = await importFixture<ServerModule>('sampling-summarise', 'input');
const formsInput = await importFixture<ServerModule>('request-forms', 'input');
/** The request-state module the migrated fixtures import (its settings are process-wide). */
const stateModule = await import('../fixtures/_support/mrtr-request-state.ts');

const CONFIRMED = { answer: { action: 'accept', content: { confirm: true } } };

async function firstRound(module: ServerModule, name: string, args: Record<string, unknown>) {
  const world = createWorld();
  const connection = await connectManual(() => module.createServer(world));
  const first = await connection.callRaw({ name, arguments: args });
  expect(first.resultType).toBe('input_required');
  expect(typeof first.requestState).toBe('string');
  return { world, connection, first };
}

function payloadOf(state: string): { p: Record<string, unknown> } {
  return JSON.parse(Buffer.from(state.split('.')[1]!, 'base64url').toString('utf8'));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a migrated handler on the 2026-07-28 era', () => {
  it('asks first, then finishes on the retry that carries the answer and the state', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    expect(first.inputRequests).toEqual({
      answer: {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Delete 3 records from logs?', mode: 'form' }),
      },
    });
    const { p } = payloadOf(first.requestState);
    expect(p).toMatchObject({ handler: 'tool:delete_records', step: 'answer', locals: { count: 3 } });
    expect(p.args).toMatch(/^[A-Za-z0-9+/]{43}=$/); // a SHA-256 digest, not the arguments themselves

    const done = await connection.callRaw({
      name: 'delete_records',
      arguments: { table: 'logs' },
      inputResponses: CONFIRMED,
      requestState: first.requestState,
    });
    expect(done.content).toEqual([{ type: 'text', text: 'Deleted 3 records from logs.' }]);
    expect(world.log).toEqual(['count:logs', 'delete:logs=3']);
    await connection.close();
  });

  it('re-asks the same question when the retry lacks the answer, without redoing the work before it', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const again = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, requestState: first.requestState });
    expect(again.resultType).toBe('input_required');
    expect(again.inputRequests).toEqual(first.inputRequests);
    const wrongShape = await connection.callRaw({
      name: 'delete_records',
      arguments: { table: 'logs' },
      inputResponses: { answer: { nonsense: true } },
      requestState: again.requestState,
    });
    expect(wrongShape.inputRequests).toEqual(first.inputRequests);
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });

  it('refuses a tampered MAC and a forged payload with -32602, before the handler runs', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const tampered = await connection.callRaw({
      name: 'delete_records',
      arguments: { table: 'logs' },
      inputResponses: CONFIRMED,
      requestState: flipMac(first.requestState),
    });
    expect(tampered.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });

    const [version, body, mac] = first.requestState.split('.');
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    decoded.p.locals.count = 999;
    const forged = `${version}.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${mac}`;
    const forgedResult = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: forged });
    expect(forgedResult.error).toMatchObject({ code: -32602 });
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });

  it('refuses an expired state with -32602', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60_000); // the codec's default TTL is 600 s
    const late = await connection.callRaw({
      name: 'delete_records',
      arguments: { table: 'logs' },
      inputResponses: CONFIRMED,
      requestState: first.requestState,
    });
    expect(late.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });

  it('refuses state minted for the same tool with other arguments with -32602, before any side effect', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const auto = await connectAutoFulfilling(() => deleteServer.createServer(world));
    const replayed = await auto.callRaw({ name: 'delete_records', arguments: { table: 'users' }, inputResponses: CONFIRMED, requestState: first.requestState });
    expect(replayed).toEqual({ error: { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } } });
    expect(world.log).toEqual(['count:logs']);
    await Promise.all([auto.close(), connection.close()]);
  });

  it('refuses state minted for another tool with -32602: a manual client sees the state it must send back to learn so', async () => {
    const { world, connection, first } = await firstRound(formsServer, 'list_workspace', {});
    const misdirected = {
      name: 'notify_user',
      arguments: { note: 'x' },
      inputResponses: { answer: { action: 'accept', content: {} } },
      requestState: first.requestState,
    };
    const answered = await connection.callRaw(misdirected);
    expect(answered).toMatchObject({ resultType: 'input_required', requestState: 'mrtr-refused' });
    expect(answered.inputRequests ?? {}).toEqual({});
    const refused = await connection.callRaw({ name: 'notify_user', arguments: { note: 'x' }, requestState: answered.requestState });
    expect(refused.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });

    const { first: again } = await firstRound(formsServer, 'list_workspace', {});
    const auto = await connectAutoFulfilling(() => formsServer.createServer(world));
    expect(await auto.callRaw({ ...misdirected, requestState: again.requestState })).toMatchObject({ error: { code: -32602 } });
    expect(world.log).toEqual(['audit:roots:asked']);
    await Promise.all([auto.close(), connection.close()]);
  });

  it('names the state of one method serving several tools by the tool of its instance: state minted for one is refused on another', async () => {
    const { world, connection, first } = await firstRound(classesServer, 'vacuum', {});
    expect(payloadOf(first.requestState).p).toMatchObject({ handler: 'tool:vacuum', step: 'answer' });
    const answer = { answer: { action: 'accept', content: { ok: true } } };
    const misdirected = await connection.callRaw({ name: 'reindex', arguments: {}, inputResponses: answer, requestState: first.requestState });
    expect(misdirected).toMatchObject({ resultType: 'input_required', requestState: 'mrtr-refused' });
    expect(world.log).toEqual([]);
    await connection.close();
  });
});

describe('principal binding over the real HTTP entry', () => {
  it('refuses state minted for one authenticated client when another presents it', async () => {
    const world = createWorld();
    let principal = 'alice';
    const connection = await connectManualOverHttp(
      () => deleteServer.createServer(world),
      () => ({ token: `token-${principal}`, clientId: principal, scopes: [] }),
    );
    const retry = { name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED };

    const first = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' } });
    principal = 'bob';
    const stolen = await connection.callRaw({ ...retry, requestState: first.requestState });
    expect(stolen).toMatchObject({ error: { code: -32602, message: 'Invalid or expired requestState' } });
    expect(world.log).toEqual(['count:logs']);

    principal = 'alice';
    const own = await connection.callRaw({ ...retry, requestState: first.requestState });
    expect(own).toMatchObject({ content: [{ type: 'text', text: 'Deleted 3 records from logs.' }] });
    expect(world.log).toEqual(['count:logs', 'delete:logs=3']);
    await connection.close();
  });
});

describe('the promises kept against an untrusted client', () => {
  it('resumes each round once: a completed round replayed with its answers is refused, and its side effect runs once', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const retry = { name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: first.requestState };
    expect((await connection.callRaw(retry)).content).toEqual([{ type: 'text', text: 'Deleted 3 records from logs.' }]);
    for (let i = 0; i < 2; i++) expect((await connection.callRaw(retry)).error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(world.log).toEqual(['count:logs', 'delete:logs=3']);
    await connection.close();
  });

  it('records resumed rounds where mrtrConfigure says (a store several instances share)', async () => {
    const claims: string[] = [];
    const shared = new Set<string>();
    stateModule.mrtrConfigure({ rounds: { claim: async (round) => (claims.push(round), shared.has(round) ? false : (shared.add(round), true)) } });
    try {
      const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
      const retry = { name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: first.requestState };
      // Another instance (another server, same key and store) gets the replay.
      const other = await connectManual(() => deleteServer.createServer(world));
      await connection.callRaw(retry);
      expect((await other.callRaw(retry)).error).toMatchObject({ code: -32602 });
      expect(claims).toEqual([payloadOf(first.requestState).p.round, payloadOf(first.requestState).p.round]);
      await Promise.all([other.close(), connection.close()]);
    } finally {
      stateModule.mrtrConfigure({ rounds: undefined });
    }
  });

  it('bounds the whole flow: re-asking mints fresh state, but the flow ends MCP_REQUEST_STATE_TTL_SECONDS after its first question', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const born = payloadOf(first.requestState).p.born as number;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 500_000);
    const again = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, requestState: first.requestState });
    expect(again.resultType).toBe('input_required');
    expect(payloadOf(again.requestState).p.born).toBe(born); // the first question's time travels
    vi.setSystemTime((born + 601) * 1000);
    const late = await connection.callRaw({
      name: 'delete_records',
      arguments: { table: 'logs' },
      inputResponses: CONFIRMED,
      requestState: again.requestState,
    });
    expect(late.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });

  it('refuses to mint a state over MCP_REQUEST_STATE_MAX_BYTES, with an error that says why', async () => {
    stateModule.mrtrConfigure({ maxStateBytes: 300 });
    try {
      const world = createWorld();
      const connection = await connectManual(() => deleteServer.createServer(world));
      const result = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' } });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(
        /^tool:delete_records: its requestState would be \d+ bytes, over the limit of 300 \(MCP_REQUEST_STATE_MAX_BYTES\)/,
      );
      await connection.close();
    } finally {
      stateModule.mrtrConfigure({ maxStateBytes: undefined });
    }
  });

  it('refuses to carry a local that JSON would not give back (a Date, a Map, NaN), naming it, before the question is asked', async () => {
    const { McpServer, inputRequired } = await import('@modelcontextprotocol/server');
    const held: Array<[string, Record<string, unknown>, RegExp]> = [
      ['a Date', { started: new Date(0) }, /locals\.started is a Date/],
      ['a Map in an object', { cache: { hits: new Map() } }, /locals\.cache\.hits is a Map/],
      ['NaN in an array', { ratios: [1, Number.NaN] }, /locals\.ratios\[1\] is NaN/],
    ];
    for (const [what, locals, message] of held) {
      const server = new McpServer({ name: 'held', version: '1.0.0' }, { requestState: { verify: stateModule.mrtrVerify() } });
      server.registerTool('hold', {}, async (ctx) => {
        const mrtr = await stateModule.mrtrResume(ctx, 'tool:hold', ['answer'], {}, server);
        return mrtr.ask('answer', locals, { answer: inputRequired.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }) });
      });
      const connection = await connectManual(() => server);
      const result = await connection.callRaw({ name: 'hold', arguments: {} });
      expect(result.isError, what).toBe(true);
      expect(result.content[0].text, what).toMatch(message);
      expect(result.content[0].text, what).toMatch(/^tool:hold: .*which requestState \(JSON\) cannot carry/);
      await connection.close();
    }
    // Plain JSON, undefined properties included, is carried.
    const server = new McpServer({ name: 'held', version: '1.0.0' }, { requestState: { verify: stateModule.mrtrVerify() } });
    server.registerTool('hold', {}, async (ctx) => {
      const mrtr = await stateModule.mrtrResume(ctx, 'tool:hold', ['answer'], {}, server);
      return mrtr.ask(
        'answer',
        { n: 1, list: ['a', { b: null }], gone: undefined },
        { answer: inputRequired.elicit({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }) },
      );
    });
    const connection = await connectManual(() => server);
    expect((await connection.callRaw({ name: 'hold', arguments: {} })).resultType).toBe('input_required');
    await connection.close();
  });

  // Accepted content that does not match the question's schema: the push API refused it before
  // the handler went on (isError), and so does the migrated handler, on both eras.
  describe.each([
    ['a number too large for a boolean', { confirm: 1000000 }],
    ['a string', { confirm: 'lots' }],
    ['a missing value', {}],
  ])('accepted content with %s', (_name, content) => {
    it('is refused as the push API refused it, before the side effect', async () => {
      const call = [{ name: 'delete_records', arguments: { table: 'logs' } }];
      const script = { elicit: () => ({ action: 'accept' as const, content }) };
      const legacyWorld = createWorld();
      const legacy = await runCalls(() => deleteInput.createServer(legacyWorld), 'legacy', call, script);
      expect(legacy.results[0]).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^Elicitation response content does not match requested schema: data/) }],
      });
      for (const era of ['modern', 'legacy'] as const) {
        const world = createWorld();
        const migrated = await runCalls(() => deleteServer.createServer(world), era, call, script);
        expect(migrated.results, era).toEqual(legacy.results);
        expect(world.log, era).toEqual(legacyWorld.log);
      }
      expect(legacyWorld.log).toEqual(['count:logs']);
    });
  });
});

// Answers that are results of the method asked, but not the ones the question allows: the push
// API refused them, and so does the migrated handler, through the real client on both eras.
describe('answers of the wrong shape for their question', () => {
  it('a sampling answer whose content is a tool_use list, for a question that offered no tools, is refused as the push API refused it', async () => {
    const call = [{ name: 'summarise', arguments: { text: 'tides' } }];
    const script = {
      sample: () => ({ role: 'assistant' as const, model: 'm', content: [{ type: 'tool_use' as const, id: 'u1', name: 'rm', input: { path: '/' } }] }),
    };
    const legacyWorld = createWorld();
    const legacy = await runCalls(() => samplingInput.createServer(legacyWorld), 'legacy', call, script as never);
    expect(legacy.results).toEqual([
      { isError: true, content: [{ type: 'text', text: expect.stringMatching(/^Invalid sampling result: .*expected object, received array/s) }] },
    ]);
    expect(legacyWorld.log).toEqual(['audit:summarise:5']);
    // 2026-07-28: the client takes the answer, and the migrated handler refuses it. On a 2025
    // connection the client refuses it as it did, and the SDK says which call it was fulfilling.
    const prefix = { modern: '', legacy: "Fulfilling input required by 'tools/call' failed: " };
    for (const era of ['modern', 'legacy'] as const) {
      const world = createWorld();
      const migrated = await runCalls(() => samplingServer.createServer(world), era, call, script as never);
      expect(migrated.results, era).toEqual([
        { isError: true, content: [{ type: 'text', text: prefix[era] + (legacy.results[0] as { content: [{ text: string }] }).content[0].text }] },
      ]);
      expect(world.log, era).toEqual(legacyWorld.log);
    }
  });

  it('a roots answer with a root that is not a file:// URI is not taken: the question is asked again', async () => {
    const { world, connection, first } = await firstRound(formsServer, 'list_workspace', {});
    const retry = {
      name: 'list_workspace',
      arguments: {},
      inputResponses: { listing: { roots: [{ uri: 'https://example.com/' }] } },
      requestState: first.requestState,
    };
    const again = await connection.callRaw(retry);
    expect(again.resultType).toBe('input_required');
    expect(again.inputRequests).toEqual(first.inputRequests);
    const listed = await connection.callRaw({ ...retry, inputResponses: { listing: { roots: [{ uri: 'file:///work' }] } }, requestState: again.requestState });
    expect(listed.content).toEqual([{ type: 'text', text: 'file:///work' }]);
    expect(world.log).toEqual(['audit:roots:asked']);
    await connection.close();
    // The push API refused it too.
    const legacy = await runCalls(() => formsInput.createServer(createWorld()), 'legacy', [{ name: 'list_workspace' }], {
      roots: [{ uri: 'https://example.com/' }],
    });
    expect(legacy.results).toEqual([
      { isError: true, content: [{ type: 'text', text: expect.stringMatching(/^Invalid result for roots\/list: .*must start with \\"file:\/\/\\"/s) }] },
    ]);
  });
});

// A requestState the request-state module did not mint reaches a migrated handler when the
// verifier leaves it as it came (no other verifier claims it): refused, and said so.
describe('a requestState this module did not mint', () => {
  it.each([
    ['an unprefixed state', 'eyJub3QiOiJvdXJzIn0'],
    ['the state of another codec', 'v1.e30.AAAA'],
  ])('%s is answered as a refusal that names it, before any side effect', async (_what, foreign) => {
    const world = createWorld();
    const errors: string[] = [];
    const connection = await connectManual(() => {
      const server = deleteServer.createServer(world);
      server.server.onerror = (error) => void errors.push(error.message);
      return server;
    });
    const answered = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: foreign });
    expect(answered).toMatchObject({ resultType: 'input_required', requestState: 'mrtr-foreign' });
    expect(answered.inputRequests ?? {}).toEqual({});
    const refused = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, requestState: answered.requestState });
    expect(refused.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(errors).toEqual([expect.stringContaining('state this module did not mint')]);
    expect(world.log).toEqual([]);
    await connection.close();
  });
});

describe('end-user binding over the real HTTP entry', () => {
  it('refuses state minted for one user of an OAuth client when another user of the same client presents it', async () => {
    const world = createWorld();
    let user = 'alice';
    const connection = await connectManualOverHttp(
      () => deleteServer.createServer(world),
      () => ({ token: `token-${user}`, clientId: 'one-app', scopes: [], extra: { sub: user } }),
    );
    const first = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' } });
    user = 'bob';
    const stolen = await connection.callRaw({
      name: 'delete_records',
      arguments: { table: 'logs' },
      inputResponses: CONFIRMED,
      requestState: first.requestState,
    });
    expect(stolen).toMatchObject({ error: { code: -32602, message: 'Invalid or expired requestState' } });
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });
});
