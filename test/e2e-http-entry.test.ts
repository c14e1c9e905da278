// HTTP entry points end to end: each HTTP fixture server, as written and as migrated,
// listening on a real port of 127.0.0.1 and driven by the real client over Streamable HTTP,
// on 2026-07-28 (versionNegotiation auto) and on 2025 (the default). As written a server
// answers a 2026-07-28 client on 2025 (the client falls back); migrated, createMcpHandler
// serves 2026-07-28, and the transport wiring serves 2025 as before. Results, the questions
// the client was asked and the side-effect log are compared with the original's.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { describe, expect, it } from 'vitest';
import { importFixture } from './support/fixtures.ts';
import { type ClientScript, type Era, type ToolCall, runCallsOverHttp } from './support/harness.ts';

/** What a fixture module exports: its tools' log, and the application to listen with. */
type HttpFixture = { log: string[]; app?: unknown; httpServer?: http.Server };

const CALLS: ToolCall[] = [{ name: 'ping' }, { name: 'delete_records', arguments: { table: 'logs' } }];
const SCRIPT: ClientScript = { elicit: () => ({ action: 'accept', content: { confirm: true } }) };

const PONG = { content: [{ type: 'text', text: 'pong' }] };
const QUESTION = {
  method: 'elicitation/create',
  params: {
    message: 'Delete the records of logs?',
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    mode: 'form',
  },
};
/** The tool that asks, answered. */
const ANSWERED = {
  results: [PONG, { content: [{ type: 'text', text: 'Deleted the records of logs.' }] }],
  questions: [QUESTION],
  log: ['count:logs', 'delete:logs'],
};

/** A node http server for the fixture's application (Express, Hono, or its own). */
function serverFor(name: string, fixture: HttpFixture): http.Server {
  if (fixture.httpServer) return fixture.httpServer;
  if (name === 'http-entry-hono') {
    const app = fixture.app as { fetch: (request: Request) => Response | Promise<Response> };
    const node = toNodeHandler({ fetch: async (request) => app.fetch(request) });
    return http.createServer((req, res) => void node(req, res));
  }
  return http.createServer(fixture.app as http.RequestListener);
}

/** Each era's calls against the fixture (input or output) listening on a port of its own. */
async function drive(name: string, which: 'input' | 'output'): Promise<Record<Era, { era: Era; results: unknown[]; questions: unknown[]; log: string[] }>> {
  const fixture = await importFixture<HttpFixture>(name, which);
  const server = serverFor(name, fixture);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  try {
    const run = async (era: Era) => {
      const recording = await runCallsOverHttp(url, era, CALLS, SCRIPT);
      return { ...recording, log: fixture.log.splice(0) };
    };
    return { modern: await run('modern'), legacy: await run('legacy') };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe.each(['http-entry-express', 'http-entry-hono'])('the sessionful %s server', (name) => {
  it('serves 2026-07-28 once migrated, asking and acting as the original does on 2025', async () => {
    const original = await drive(name, 'input');
    const migrated = await drive(name, 'output');
    expect(original.legacy).toEqual({ era: 'legacy', ...ANSWERED });
    // As written, a 2026-07-28 client falls back to 2025.
    expect(original.modern).toEqual({ era: 'legacy', ...ANSWERED });
    expect(migrated.modern).toEqual({ era: 'modern', ...ANSWERED });
    // 2025 clients keep the session, over which the SDK's shim asks.
    expect(migrated.legacy).toEqual({ era: 'legacy', ...ANSWERED });
  });
});

describe('the stateless node:http server', () => {
  const refused = (text: string) => ({ results: [PONG, { content: [{ type: 'text', text }], isError: true }], questions: [], log: ['count:logs'] });

  it('answers the tool that asks on 2026-07-28 once migrated; on 2025, with no session, it cannot ask, as before', async () => {
    const original = await drive('http-entry-node-stateless', 'input');
    const migrated = await drive('http-entry-node-stateless', 'output');
    const cannotAsk = refused('Client does not support form elicitation.');
    expect(original.legacy).toEqual({ era: 'legacy', ...cannotAsk });
    expect(original.modern).toEqual({ era: 'legacy', ...cannotAsk });
    expect(migrated.modern).toEqual({ era: 'modern', ...ANSWERED });
    // The same refusal, in the words of the SDK's shim: a request of its own has no client capabilities.
    expect(migrated.legacy).toEqual({
      era: 'legacy',
      ...refused(
        "Cannot request input 'answer' (elicitation/create): the client on this 2025-era connection did not declare the required capability (no client capabilities are available on this connection — per-request legacy serving cannot receive server-to-client requests)",
      ),
    });
  });
});
