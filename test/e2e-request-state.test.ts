// The request-state contract of a migrated handler, driven by a real 2026-07-28 client in
// manual mode so each round is visible: what the state names, that a retry without the
// answer re-asks without redoing work, and that tampered, expired or misdirected state is
// refused before any side effect.
import type { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { connectManual, flipMac } from './support/harness.ts';

type ServerModule = { createServer(world: World): McpServer };
const deleteServer = (await import('../fixtures/elicit-confirm-delete/output.ts')) as ServerModule;
const formsServer = (await import('../fixtures/request-forms/output.ts')) as ServerModule;

const CONFIRMED = { answer: { action: 'accept', content: { confirm: true } } };
const REFUSED = { content: [{ type: 'text', text: 'Invalid or expired requestState' }], isError: true };

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

    const done = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: first.requestState });
    expect(done.content).toEqual([{ type: 'text', text: 'Deleted 3 records from logs.' }]);
    expect(world.log).toEqual(['count:logs', 'delete:logs=3']);
    await connection.close();
  });

  it('re-asks the same question when the retry lacks the answer, without redoing the work before it', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const again = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, requestState: first.requestState });
    expect(again.resultType).toBe('input_required');
    expect(again.inputRequests).toEqual(first.inputRequests);
    const wrongShape = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: { answer: { nonsense: true } }, requestState: again.requestState });
    expect(wrongShape.inputRequests).toEqual(first.inputRequests);
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });

  it('refuses a tampered MAC and a forged payload with -32602, before the handler runs', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const tampered = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: flipMac(first.requestState) });
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
    const late = await connection.callRaw({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: first.requestState });
    expect(late.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });

  it('refuses state minted for the same tool with other arguments', async () => {
    const { world, connection, first } = await firstRound(deleteServer, 'delete_records', { table: 'logs' });
    const replayed = await connection.callRaw({ name: 'delete_records', arguments: { table: 'users' }, inputResponses: CONFIRMED, requestState: first.requestState });
    expect(replayed).toMatchObject(REFUSED);
    expect(world.log).toEqual(['count:logs']);
    await connection.close();
  });

  it('refuses state minted for another tool, before that tool does anything', async () => {
    const { world, connection, first } = await firstRound(formsServer, 'list_workspace', {});
    const replayed = await connection.callRaw({ name: 'notify_user', arguments: { note: 'x' }, inputResponses: { answer: { action: 'accept', content: {} } }, requestState: first.requestState });
    expect(replayed).toMatchObject(REFUSED);
    expect(world.log).toEqual(['audit:roots:asked']);
    await connection.close();
  });
});

describe('principal binding over the real HTTP entry', () => {
  it('refuses state minted for one authenticated client when another presents it', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const { createMcpHandler } = await import('@modelcontextprotocol/server');
    const world = createWorld();
    const handler = createMcpHandler(() => deleteServer.createServer(world));
    let principal = 'alice';
    const transport = new StreamableHTTPClientTransport(new URL('http://probe.invalid/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init), { authInfo: { token: `token-${principal}`, clientId: principal, scopes: [] } }),
    });
    const client = new Client(
      { name: 'binding-probe', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' }, inputRequired: { autoFulfill: false } },
    );
    await client.connect(transport);
    const call = (params: Record<string, unknown>) =>
      client.request({ method: 'tools/call', params }, { allowInputRequired: true }).catch((error: { code: number; message: string }) => ({ error: { code: error.code, message: error.message } }));

    const first = (await call({ name: 'delete_records', arguments: { table: 'logs' } })) as unknown as { requestState: string };
    principal = 'bob';
    const stolen = await call({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: first.requestState });
    expect(stolen).toMatchObject({ error: { code: -32602, message: 'Invalid or expired requestState' } });
    expect(world.log).toEqual(['count:logs']);

    principal = 'alice';
    const own = await call({ name: 'delete_records', arguments: { table: 'logs' }, inputResponses: CONFIRMED, requestState: first.requestState });
    expect(own).toMatchObject({ content: [{ type: 'text', text: 'Deleted 3 records from logs.' }] });
    expect(world.log).toEqual(['count:logs', 'delete:logs=3']);
    await client.close();
  });
});
