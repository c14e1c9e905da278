/**
 * The legacy side of an equivalence test for a v1 server (`@modelcontextprotocol/sdk` 1.x):
 * the unchanged server linked to the real v1 Client in process, with the same client script
 * and the same normalisation as harness.ts, so a Recording compares with a v2 one directly.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { normaliseQuestion, stripMeta, type ClientScript, type Question, type Recording, type ToolCall } from './harness.ts';

export async function runCallsV1(factory: () => McpServer, calls: ToolCall[], script: ClientScript): Promise<Recording> {
  const questions: Question[] = [];
  const ask = async <R>(method: string, params: unknown, respond: ((p: Record<string, unknown>) => R | Promise<R>) | undefined): Promise<R> => {
    const question = normaliseQuestion(method, params);
    questions.push(question);
    if (!respond) throw new Error(`harness-v1: the server asked ${method} but the ClientScript has no answer for it`);
    return respond(question.params as Record<string, unknown>);
  };
  const client = new Client(
    { name: 'mrtr-harness-v1', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => (await ask('elicitation/create', request.params, script.elicit)) as never);
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => (await ask('sampling/createMessage', request.params, script.sample)) as never);
  client.setRequestHandler(ListRootsRequestSchema, async (request) => ({
    roots: await ask('roots/list', request.params, script.roots && (() => script.roots!.map((r) => ({ ...r })))),
  }));

  const server = factory();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const results: unknown[] = [];
  try {
    for (const { kind, ...call } of calls) {
      if (kind !== undefined && kind !== 'tool' && kind !== 'prompt') throw new Error(`the v1 harness calls tools and prompts, not ${kind}s`);
      try {
        const result =
          kind === 'prompt' ? await client.getPrompt({ name: call.name, arguments: call.arguments as Record<string, string> }) : await client.callTool(call);
        results.push(stripMeta(result));
      } catch (error) {
        const e = error as Error & { code?: unknown };
        results.push({ thrown: { name: e.name, code: e.code, message: e.message } });
      }
    }
  } finally {
    await client.close();
    await server.close();
  }
  return { era: 'legacy', results, questions };
}
