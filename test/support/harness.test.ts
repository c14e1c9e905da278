/**
 * Tests for the harness itself: two tiny servers written inline (a legacy
 * push-style one and a hand-migrated MRTR one) must record identically on
 * every era they support, and the harness must notice when they do not.
 */
import { McpServer, acceptedContent, createRequestStateCodec, inputRequired, inputResponse, type CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';

import { connectManual, flipMac, normaliseQuestion, runCalls, type ClientScript, type Recording, type ToolCall } from './harness.js';

// ---------------------------------------------------------------------------
// The shared "world" both servers act on, and the side-effect log. Both live
// at module level (outside the factories) on purpose: serveStdio builds one
// server per connection, and the log must show what ran across all of them.
// ---------------------------------------------------------------------------

const TABLE_SIZES: Record<string, number> = { logs: 3, users: 5 };
let sideEffects: string[] = [];

function scanTable(table: string): number {
  sideEffects.push(`scan:${table}`);
  return TABLE_SIZES[table] ?? 0;
}

function deleteRecords(table: string, count: number): void {
  sideEffects.push(`delete:${table}=${count}`);
}

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, description: 'Confirm deletion' } },
  required: ['confirm'],
};

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** The text of a sampling result's content (a single block, or an array when tools are in play). */
function samplingText(content: unknown): string {
  const block = Array.isArray(content) ? content[0] : content;
  return block?.type === 'text' ? String(block.text) : '(no text)';
}

// ---------------------------------------------------------------------------
// Legacy server: push requests from inside the handler (2025 era only).
// ---------------------------------------------------------------------------

/**
 * `rawSend` asks through `ctx.mcpReq.send({ method: 'elicitation/create' })`
 * instead of `elicitInput`: that path puts no `mode` on the wire (measured),
 * like v1's `extra.sendRequest` (SDK-NOTES pitfall 6).
 */
function legacyServer({ rawSend = false }: { rawSend?: boolean } = {}): McpServer {
  const server = new McpServer({ name: 'legacy-probe', version: '1.0.0' }, { capabilities: { tools: {} } });

  server.registerTool('delete_records', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    const count = scanTable(table);
    const params = { message: `Delete ${count} records from ${table}?`, requestedSchema: CONFIRM_SCHEMA };
    const answer = rawSend ? await ctx.mcpReq.send({ method: 'elicitation/create', params }) : await ctx.mcpReq.elicitInput(params);
    if (answer.action !== 'accept' || answer.content?.confirm !== true) {
      return text(`Cancelled: nothing deleted from ${table}`);
    }
    deleteRecords(table, count);
    return text(`Deleted ${count} records from ${table}`);
  });

  server.registerTool('summarise_roots', { description: 'Summarise the client roots' }, async (ctx) => {
    const { roots } = await server.server.listRoots();
    const summary = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${roots.map((r) => r.uri).join(', ')}` } }],
      maxTokens: 64,
    });
    return text(samplingText(summary.content));
  });

  return server;
}

// ---------------------------------------------------------------------------
// The same tools migrated by hand to MRTR (both eras).
// ---------------------------------------------------------------------------

type State =
  | { tool: 'delete_records'; step: 'awaiting-confirm'; table: string; count: number }
  | { tool: 'summarise_roots'; step: 'awaiting-roots' }
  | { tool: 'summarise_roots'; step: 'awaiting-summary'; uris: string[] };

// Module level: every server instance must verify what another one minted.
const codec = createRequestStateCodec<State>({ key: 'harness-test-key-that-is-at-least-32-bytes-long', ttlSeconds: 600 });

/**
 * `naive` reproduces the classic migration mistake (SDK-NOTES pitfall 1):
 * the pre-input scan stays above the phase switch, so it runs on every round.
 * Results stay identical; only the side-effect log can catch it.
 */
function mrtrServer({ naive = false }: { naive?: boolean } = {}): McpServer {
  const server = new McpServer({ name: 'mrtr-probe', version: '2.0.0' }, { capabilities: { tools: {} }, requestState: { verify: codec.verify } });

  server.registerTool('delete_records', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    const naiveCount = naive ? scanTable(table) : undefined;
    const state = ctx.mcpReq.requestState<State>();
    if (state === undefined) {
      const count = naiveCount ?? scanTable(table);
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({ message: `Delete ${count} records from ${table}?`, requestedSchema: CONFIRM_SCHEMA }),
        },
        requestState: await codec.mint({ tool: 'delete_records', step: 'awaiting-confirm', table, count }),
      });
    }
    if (state.tool !== 'delete_records' || state.table !== table) {
      return { ...text('requestState does not belong to this call'), isError: true };
    }
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', z.object({ confirm: z.boolean() }));
    if (confirmed?.confirm !== true) {
      return text(`Cancelled: nothing deleted from ${table}`);
    }
    deleteRecords(table, state.count);
    return text(`Deleted ${state.count} records from ${table}`);
  });

  // Two rounds: roots first, then sampling; the URIs learned in round one ride in the state.
  server.registerTool('summarise_roots', { description: 'Summarise the client roots' }, async (ctx) => {
    const state = ctx.mcpReq.requestState<State>();
    if (state === undefined) {
      return inputRequired({
        inputRequests: { roots: inputRequired.listRoots() },
        requestState: await codec.mint({ tool: 'summarise_roots', step: 'awaiting-roots' }),
      });
    }
    if (state.tool !== 'summarise_roots') {
      return { ...text('requestState does not belong to this call'), isError: true };
    }
    if (state.step === 'awaiting-roots') {
      const roots = inputResponse(ctx.mcpReq.inputResponses, 'roots');
      const uris = roots.kind === 'roots' ? roots.roots.map((r) => r.uri) : [];
      return inputRequired({
        inputRequests: {
          summary: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${uris.join(', ')}` } }],
            maxTokens: 64,
          }),
        },
        requestState: await codec.mint({ tool: 'summarise_roots', step: 'awaiting-summary', uris }),
      });
    }
    const summary = inputResponse(ctx.mcpReq.inputResponses, 'summary');
    return text(samplingText(summary.kind === 'sampling' ? summary.result.content : undefined));
  });

  return server;
}

// ---------------------------------------------------------------------------
// The scenario: the scripted user confirms for `logs` and declines for `users`.
// ---------------------------------------------------------------------------

const CALLS: ToolCall[] = [
  { name: 'delete_records', arguments: { table: 'logs' } },
  { name: 'delete_records', arguments: { table: 'users' } },
  { name: 'summarise_roots' },
  { name: 'no_such_tool', arguments: {} },
];

const SCRIPT: ClientScript = {
  elicit: (params) => (String(params.message).includes('logs') ? { action: 'accept', content: { confirm: true } } : { action: 'decline' }),
  sample: (params) => ({
    role: 'assistant',
    content: { type: 'text', text: `summary of ${JSON.stringify((params.messages as unknown[]).length)} message(s)` },
    model: 'scripted-model',
  }),
  roots: [{ uri: 'file:///repo', name: 'repo' }, { uri: 'file:///tmp' }],
};

const elicitQuestion = (table: string, count: number) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message: `Delete ${count} records from ${table}?`, requestedSchema: CONFIRM_SCHEMA },
});

const EXPECTED_RESULTS = [
  { content: [{ type: 'text', text: 'Deleted 3 records from logs' }] },
  { content: [{ type: 'text', text: 'Cancelled: nothing deleted from users' }] },
  { content: [{ type: 'text', text: 'summary of 1 message(s)' }] },
  { thrown: { name: 'ProtocolError', code: -32602, message: 'Tool no_such_tool not found' } },
];

const EXPECTED_QUESTIONS = [
  elicitQuestion('logs', 3),
  elicitQuestion('users', 5),
  { method: 'roots/list', params: {} },
  {
    method: 'sampling/createMessage',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: file:///repo, file:///tmp' } }],
      maxTokens: 64,
    },
  },
];

const EXPECTED_SIDE_EFFECTS = ['scan:logs', 'delete:logs=3', 'scan:users'];

/** Runs the scenario with a fresh side-effect log and returns both. */
async function record(factory: () => McpServer, era: 'modern' | 'legacy', script: ClientScript = SCRIPT) {
  sideEffects = [];
  const recording = await runCalls(factory, era, CALLS, script);
  return { recording, sideEffects: [...sideEffects] };
}

const withoutEra = ({ era: _era, ...rest }: Recording) => rest;

describe('runCalls', () => {
  it('records the legacy push server on the legacy era exactly', async () => {
    const { recording, sideEffects: log } = await record(() => legacyServer(), 'legacy');
    expect(recording).toStrictEqual({ era: 'legacy', results: EXPECTED_RESULTS, questions: EXPECTED_QUESTIONS });
    expect(log).toStrictEqual(EXPECTED_SIDE_EFFECTS);
  });

  it('normalises a push elicitation sent without mode to the form the other paths use', async () => {
    expect(normaliseQuestion('elicitation/create', { message: 'm', requestedSchema: CONFIRM_SCHEMA })).toStrictEqual({
      method: 'elicitation/create',
      params: { mode: 'form', message: 'm', requestedSchema: CONFIRM_SCHEMA },
    });
    const { recording, sideEffects: log } = await record(() => legacyServer({ rawSend: true }), 'legacy');
    expect(recording).toStrictEqual({ era: 'legacy', results: EXPECTED_RESULTS, questions: EXPECTED_QUESTIONS });
    expect(log).toStrictEqual(EXPECTED_SIDE_EFFECTS);
  });

  it.each(['legacy', 'modern'] as const)('records the MRTR server on the %s era the same as the legacy baseline', async (era) => {
    const baseline = await record(() => legacyServer(), 'legacy');
    const migrated = await record(() => mrtrServer(), era);
    expect(migrated.recording.era).toBe(era);
    expect(withoutEra(migrated.recording)).toStrictEqual(withoutEra(baseline.recording));
    expect(migrated.sideEffects).toStrictEqual(baseline.sideEffects);
    expect(migrated.sideEffects).toStrictEqual(EXPECTED_SIDE_EFFECTS);
  });

  it('shows that the un-migrated push server does not behave the same on the modern era (pitfall 9)', async () => {
    const { recording, sideEffects: log } = await record(() => legacyServer(), 'modern');
    expect(recording.era).toBe('modern');
    // The push calls do not throw: each tool call comes back as an isError result.
    const refused = (method: string) => ({
      content: [
        {
          type: 'text',
          text: expect.stringMatching(new RegExp(`^Server-to-client requests are not available on protocol revision 2026-07-28: '${method}' cannot be sent`)),
        },
      ],
      isError: true,
    });
    expect(recording.results).toStrictEqual([refused('elicitation/create'), refused('elicitation/create'), refused('roots/list'), EXPECTED_RESULTS[3]]);
    expect(recording.questions).toStrictEqual([]);
    // The pre-input work ran, nothing was deleted.
    expect(log).toStrictEqual(['scan:logs', 'scan:users']);
  });

  it('catches a naive migration through the side-effect log, not the results (pitfall 1)', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const { recording, sideEffects: log } = await record(() => mrtrServer({ naive: true }), era);
      expect(withoutEra(recording)).toStrictEqual({ results: EXPECTED_RESULTS, questions: EXPECTED_QUESTIONS });
      // The scan above the phase switch runs once per round.
      expect(log).toStrictEqual(['scan:logs', 'scan:logs', 'delete:logs=3', 'scan:users', 'scan:users']);
    }
  });

  it.each(['legacy', 'modern'] as const)('fails loudly on the %s era when the script cannot answer a question', async (era) => {
    const { sample: _sample, ...noSampling } = SCRIPT;
    await expect(record(() => mrtrServer(), era, noSampling)).rejects.toThrow(
      /the server asked sampling\/createMessage but the ClientScript has no answer for it/,
    );
  });
});

describe('connectManual', () => {
  it('returns the raw input_required result, completes on an echoed retry, and reports a tampered requestState as -32602', async () => {
    sideEffects = [];
    const manual = await connectManual(() => mrtrServer());
    try {
      expect(manual.client.getProtocolEra()).toBe('modern');
      const call = { name: 'delete_records', arguments: { table: 'logs' } };

      const first = await manual.callRaw(call);
      expect(first).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'Delete 3 records from logs?', requestedSchema: CONFIRM_SCHEMA },
          },
        },
      });
      expect(first.requestState).toEqual(expect.stringMatching(/^v1\.[\w-]+\.[\w-]+$/));
      expect(sideEffects).toStrictEqual(['scan:logs']);

      // Tamper with the MAC: the handler is never entered.
      const state: string = first.requestState;
      const tampered = flipMac(state);
      const inputResponses = { confirm: { action: 'accept', content: { confirm: true } } };
      expect(await manual.callRaw({ ...call, inputResponses, requestState: tampered })).toStrictEqual({
        error: { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } },
      });
      expect(sideEffects).toStrictEqual(['scan:logs']);

      // The honest retry: same call, the bare response, the state echoed byte for byte.
      const final = await manual.callRaw({ ...call, inputResponses, requestState: state });
      expect(final.resultType).toBeUndefined(); // the SDK strips resultType: 'complete'
      expect(final.content).toStrictEqual([{ type: 'text', text: 'Deleted 3 records from logs' }]);
      expect(sideEffects).toStrictEqual(['scan:logs', 'delete:logs=3']);
    } finally {
      await manual.close();
    }
  });
});
