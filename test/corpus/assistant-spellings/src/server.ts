import { McpServer, type ElicitResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { complete, yesNo } from './llm.js';

const events: string[] = [];

export function createServer(): McpServer {
  const server = new McpServer({ name: 'assistant', version: '3.1.0' });
  const elicit = server.server?.elicitInput?.bind(server.server);

  server.registerTool('remind', { description: 'Set a reminder', inputSchema: z.object({ what: z.string() }) }, async ({ what }) => {
    if (!elicit) return { content: [{ type: 'text', text: 'This client cannot answer questions.' }] };
    // corpus-site: migrate
    const when = await elicit({
      message: `When should I remind you to ${what}?`,
      requestedSchema: { type: 'object', properties: { when: { type: 'string' } }, required: ['when'] },
    });
    events.push(`remind:${what}:${when.action}`);
    return { content: [{ type: 'text', text: when.action === 'accept' ? `Reminder set for ${String(when.content?.when)}` : 'No reminder.' }] };
  });

  server.registerTool('poem', { description: 'Write a poem', inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
    // corpus-site: mark optional-call
    const result = await server.server.createMessage?.({
      messages: [{ role: 'user', content: { type: 'text', text: `A short poem about ${topic}` } }],
      maxTokens: 200,
    });
    return { content: [{ type: 'text', text: result?.content.type === 'text' ? result.content.text : '' }] };
  });

  server.registerTool('rsvp', { description: 'Answer an invitation', inputSchema: z.object({ event: z.string() }) }, async ({ event }, { mcpReq }) => {
    // corpus-site: migrate
    const answer: ElicitResult = await mcpReq.send({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: `Will you attend ${event}?`,
        requestedSchema: { type: 'object', properties: { attend: { type: 'boolean' } }, required: ['attend'] },
      },
    });
    events.push(`rsvp:${event}:${answer.action}`);
    return { content: [{ type: 'text', text: answer.action }] };
  });

  server.registerTool('vote', { description: 'Vote on a proposal', inputSchema: z.object({ proposal: z.string() }) }, async ({ proposal }) => {
    // corpus-site: migrate
    const ballot = await server.server.request({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: `Vote on: ${proposal}`,
        requestedSchema: { type: 'object', properties: { vote: { type: 'string', enum: ['yes', 'no', 'abstain'] } }, required: ['vote'] },
      },
    });
    events.push(`vote:${proposal}:${ballot.action}`);
    return { content: [{ type: 'text', text: ballot.action === 'accept' ? String(ballot.content?.vote) : 'abstain' }] };
  });

  server.registerTool('ask_model', { description: 'Ask the model', inputSchema: z.object({ prompt: z.string() }) }, async ({ prompt }) => {
    // corpus-site: mark closure
    const text = await complete((params) => server.server.createMessage(params), prompt);
    return { content: [{ type: 'text', text }] };
  });

  server.registerTool('confirm_plan', { description: 'Confirm a plan', inputSchema: z.object({ plan: z.string() }) }, async ({ plan }) => {
    const ok = await yesNo(server.server, `Go ahead with: ${plan}?`);
    return { content: [{ type: 'text', text: ok ? 'Going ahead.' : 'Stopped.' }] };
  });

  return server;
}
