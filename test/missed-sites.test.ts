// Requests made in a way nothing proves is the SDK's: never migrated, always marked, so that
// `check` never passes a file that still pushes a request.
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

const statusOf = (source: string, file: string) => transformSource(source, file).plan.sites.map((s) => [s.line, s.status, s.code]);

describe('requests the SDK surface does not name are marked', () => {
  it("marks a framework's push methods on a handler's context", () => {
    const source = `export default async function handler({ scenario }, extra) {
  switch (scenario) {
    case 'a':
      return show(scenario, await extra.elicit({ message: 'm', requestedSchema: { type: 'object', properties: {} } }));
    default:
      return show(scenario, await extra.sample({ messages: [], maxTokens: 5 }));
  }
}
`;
    expect(statusOf(source, 'tools/a.js')).toEqual([
      [4, 'marked', 'unknown-receiver'],
      [6, 'marked', 'unknown-receiver'],
    ]);
    expect(transformSource(source, 'tools/a.js').output).toContain('@mrtr-todo(unknown-receiver): `extra`');
  });

  it('marks a call through a parameter its callers hand a request', () => {
    const source = `async function askForKey(id, sender, done) {
  const result = await sender({ mode: 'url', message: 'key', elicitationId: id, url: 'https://example.com/k' });
  return done(result.action === 'accept');
}
export function mount(app, server) {
  app.post('/key', (req, res) => askForKey(req.body.id, (params) => server.server.elicitInput(params), (ok) => res.json({ ok })));
}
`;
    expect(statusOf(source, 'dist/key.js')).toEqual([
      [2, 'marked', 'unfollowed-reference'],
      [6, 'marked', 'unknown-receiver'],
    ]);
  });

  it('marks a call through a parameter handed a requesting function kept in an object and read back', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
const pending = {};
async function sendApiKey(id, sender) {
  const result = await sender({ mode: 'url', message: 'key', url: 'https://example.com/k', elicitationId: id });
  return result.action;
}
export function open(id) {
  pending[id] = { elicitationSender: (params) => server.server.elicitInput(params), done: () => undefined };
}
export async function later(id) {
  const { elicitationSender, done } = pending[id];
  await sendApiKey(id, elicitationSender);
  const notify = pending[id].done;
  await tell(notify);
  await tell(done);
}
async function tell(callback) {
  await callback();
}
`;
    expect(statusOf(source, 'sessions.js')).toEqual([
      [5, 'marked', 'unfollowed-reference'],
      [9, 'marked', 'no-request-to-answer'],
    ]);
  });

  it('marks a JSON-RPC request built by hand and sent', () => {
    const source = `export async function roots(session) {
  const request = createRequest(newId(), 'roots/list', {});
  const response = await session.transport.send(request);
  await session.transport.send({ jsonrpc: '2.0', id: 2, method: 'elicitation/create', params: { message: 'm' } });
  return response;
}
`;
    expect(statusOf(source, 'roots.js')).toEqual([
      [3, 'marked', 'unknown-request'],
      [4, 'marked', 'unknown-request'],
    ]);
  });
});
