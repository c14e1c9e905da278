// An xmcp tool end to end, through the framework's own compiled stdio runtime (xmcp 1.1.3, the
// release of the API the codemod's table describes) and the real v2 client. As written, its
// extra.elicit() and extra.sample() answer a 2025 client only; the codemod's version, answered
// in place from extra.inputResponses, gives the same results and asks the same questions on
// both eras. The tool is fixtures/framework-tool-xmcp's, migrated here by the codemod.
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, type JSONRPCResultResponse } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';
import {
  connectManualOverStdio,
  runCallsOverStdio,
  stripMeta,
  type ClientScript,
  type Era,
  type Question,
  type Recording,
  type ToolCall,
} from './support/harness.ts';
import { checkoutScratch } from './support/scratch.ts';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/framework-tool-xmcp/input.ts');
const SERVER = ['--import', 'tsx', path.join(import.meta.dirname, 'support/xmcp-stdio-server.ts')];

const CALLS: ToolCall[] = [
  { name: 'release_gate', arguments: { step: 'approve', notes: 'v2.1\nfixes' } },
  { name: 'release_gate', arguments: { step: 'sign-in', notes: 'v2.1' } },
  { name: 'release_gate', arguments: { step: 'summary', notes: 'v2.1\nfixes' } },
  { name: 'release_gate', arguments: { step: 'skip', notes: 'v3' } },
];

const SCRIPT: ClientScript = {
  elicit: (params) => (params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { approver: 'ops@example.com' } }),
  sample: () => ({ role: 'assistant', content: { type: 'text', text: 'Fixes.' }, model: 'scripted' }),
};
const CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {} };

let dir: string;
let legacyTool: string;
let migratedTool: string;
beforeAll(async () => {
  // The framework's bundler compiles tools to CommonJS, which reads its named exports: so do these.
  dir = checkoutScratch('xmcp-tool-');
  await writeFile(path.join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  const legacy = readFileSync(FIXTURE, 'utf8');
  legacyTool = path.join(dir, 'legacy.ts');
  migratedTool = path.join(dir, 'migrated.ts');
  await writeFile(legacyTool, legacy);
  await writeFile(migratedTool, transformSource(legacy, migratedTool).output);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (tool: string, era: Era) => runCallsOverStdio(SERVER, { XMCP_TOOL: tool }, era, CALLS, SCRIPT, CAPABILITIES);

/** A 2026-07-28 URL elicitation has no elicitationId (the SDK's shim mints one for a 2025 client): compared without it. */
function withoutElicitationId(questions: Question[]): Question[] {
  return questions.map(({ method, params }) => {
    const { elicitationId: _id, ...rest } = params as Record<string, unknown>;
    return { method, params: rest };
  });
}

/**
 * A 2025 client that answers each sampling request with `result` as given, unchecked: the SDK's
 * client checks its own answers, so `result` replaces the checked one on the wire.
 */
async function callAnsweringSamplingWith(tool: string, call: ToolCall, result: unknown): Promise<unknown> {
  const client = new Client({ name: 'unchecked-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler('sampling/createMessage', () => SCRIPT.sample!({}));
  const transport = new StdioClientTransport({ command: process.execPath, args: SERVER, env: { ...(process.env as Record<string, string>), XMCP_TOOL: tool } });
  const sampling = new Set<unknown>();
  const send = transport.send.bind(transport);
  transport.send = (message) =>
    send('result' in message && sampling.has(message.id) ? { ...message, result: result as JSONRPCResultResponse['result'] } : message);
  await client.connect(transport);
  const receive = transport.onmessage!;
  transport.onmessage = (message) => {
    if ('method' in message && message.method === 'sampling/createMessage' && 'id' in message) sampling.add(message.id);
    receive(message);
  };
  try {
    return stripMeta(await client.callTool(call));
  } finally {
    await client.close();
  }
}

describe('an xmcp tool asking through extra', () => {
  let before: Recording;
  beforeAll(async () => {
    before = await run(legacyTool, 'legacy');
  }, 60_000);

  it('as written, answers a 2025 client and fails each question of a 2026-07-28 one', async () => {
    expect(before.era).toBe('legacy');
    expect(before.questions.map((q) => q.method)).toEqual(['elicitation/create', 'elicitation/create', 'sampling/createMessage']);
    const modern = await run(legacyTool, 'modern');
    expect(modern.era).toBe('modern');
    expect(modern.questions).toEqual([]);
    expect(modern.results.slice(0, 3)).toEqual([0, 1, 2].map(() => expect.objectContaining({ isError: true })));
  }, 60_000);

  it.each(['legacy', 'modern'] as const)(
    'migrated, gives the same results and asks the same questions on the %s era',
    async (era) => {
      const after = await run(migratedTool, era);
      expect(after.era).toBe(era);
      expect(after.results).toEqual(before.results);
      expect(withoutElicitationId(after.questions)).toEqual(withoutElicitationId(before.questions));
    },
    60_000,
  );

  it('migrated, asks again when a retry comes without the answer, and carries no requestState', async () => {
    const connection = await connectManualOverStdio(SERVER, { XMCP_TOOL: migratedTool });
    try {
      const call = { name: 'release_gate', arguments: { step: 'approve', notes: 'v2.1' } };
      const first = await connection.callRaw(call);
      expect(first.resultType).toBe('input_required');
      expect(first.requestState).toBeUndefined();
      expect(Object.keys(first.inputRequests)).toEqual(['answer']);
      expect(first.inputRequests.answer.method).toBe('elicitation/create');
      const again = await connection.callRaw({ ...call, inputResponses: {} });
      expect(again.inputRequests).toEqual(first.inputRequests);
      const answered = await connection.callRaw({ ...call, inputResponses: { answer: { action: 'decline' } } });
      expect(answered.content).toEqual([{ type: 'text', text: 'v2.1: {"action":"decline"}' }]);
    } finally {
      await connection.close();
    }
  }, 60_000);

  it('migrated, refuses accepted content that does not match the schema its question asked for', async () => {
    const connection = await connectManualOverStdio(SERVER, { XMCP_TOOL: migratedTool });
    try {
      const call = { name: 'release_gate', arguments: { step: 'approve', notes: 'v2.1' } };
      const answer = (content: Record<string, unknown>) => connection.callRaw({ ...call, inputResponses: { answer: { action: 'accept', content } } });
      const refused = await answer({ approver: 'nobody' });
      // As the push call refused it (a 2025 client answering the tool as written).
      const malformed: ClientScript = { elicit: () => ({ action: 'accept', content: { approver: 'nobody' } }) };
      const pushed = await runCallsOverStdio(SERVER, { XMCP_TOOL: legacyTool }, 'legacy', [call], malformed, CAPABILITIES);
      expect(pushed.results).toEqual([
        {
          content: [{ type: 'text', text: 'Elicitation response content does not match requested schema: data/approver must match format "email"' }],
          isError: true,
        },
      ]);
      expect({ content: refused.content, isError: refused.isError }).toEqual(pushed.results[0]);
      const accepted = await answer({ approver: 'ops@example.com' });
      expect(accepted.content).toEqual([{ type: 'text', text: 'v2.1: {"action":"accept","content":{"approver":"ops@example.com"}}' }]);
    } finally {
      await connection.close();
    }
  }, 60_000);

  // Not a sampling result at all (refused by the method's result schema), and a result with
  // tools' content to a question without tools (refused by the result without them).
  it.each([
    ['not a sampling result', { role: 'assistant', content: { type: 'text' }, model: 'scripted' }, 'Invalid result for sampling/createMessage: ['],
    ['a result with tools', { role: 'assistant', content: [{ type: 'text', text: 'Fixes.' }], model: 'scripted' }, 'Invalid sampling/createMessage result: ['],
  ])(
    'migrated, refuses a sampling answer that is %s, as the push call refused it',
    async (_, malformed, message) => {
      const call = { name: 'release_gate', arguments: { step: 'summary', notes: 'v2.1' } };
      const pushed = await callAnsweringSamplingWith(legacyTool, call, malformed);
      expect(pushed).toEqual({ content: [{ type: 'text', text: expect.any(String) }], isError: true });
      const text = (pushed as { content: Array<{ text: string }> }).content[0]!.text;
      expect(text.startsWith(message)).toBe(true);
      // On 2025 the SDK's shim asks by the push call, which refuses the answer before the tool reads it.
      expect(await callAnsweringSamplingWith(migratedTool, call, malformed)).toEqual({
        content: [{ type: 'text', text: `Fulfilling input required by 'tools/call' failed: ${text}` }],
        isError: true,
      });
      const connection = await connectManualOverStdio(SERVER, { XMCP_TOOL: migratedTool });
      try {
        const refused = await connection.callRaw({ ...call, inputResponses: { result: malformed } });
        expect({ content: refused.content, isError: refused.isError }).toEqual(pushed);
        const answered = await connection.callRaw({
          ...call,
          inputResponses: { result: { role: 'assistant', content: { type: 'text', text: 'Fixes.' }, model: 'm' } },
        });
        expect(answered.content).toEqual([{ type: 'text', text: 'v2.1: {"type":"text","text":"Fixes."}' }]);
      } finally {
        await connection.close();
      }
    },
    60_000,
  );
});
