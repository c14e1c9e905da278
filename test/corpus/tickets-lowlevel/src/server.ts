#!/usr/bin/env node
import { Server, type CallToolResult } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { closeTicket, findTicket, tickets } from './tickets.js';

const server = new Server(
  { name: 'tickets', version: '2.0.0' },
  { capabilities: { tools: {} } },
);

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

async function workspaceSummary(): Promise<CallToolResult> {
  // corpus-site: migrate
  const { roots } = await server.listRoots();
  return text(`Workspace roots: ${roots.map((root) => root.uri).join(', ')}`);
}

server.setRequestHandler('tools/list', async () => ({
  tools: [
    { name: 'close_ticket', description: 'Close a ticket', inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] } },
    { name: 'triage', description: 'Suggest labels for open tickets', inputSchema: { type: 'object' as const } },
    { name: 'workspace', description: 'Show workspace roots', inputSchema: { type: 'object' as const } },
  ],
}));

server.setRequestHandler('tools/call', async (request) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case 'close_ticket': {
      const id = Number(args.id);
      const ticket = findTicket(id);
      if (!ticket) return text(`No ticket #${id}`);
      // corpus-site: migrate
      const answer = await server.elicitInput({
        message: `Close #${id} "${ticket.title}"?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) return text('Left open.');
      closeTicket(id);
      return text(`Closed #${id}.`);
    }
    case 'triage': {
      const open = [...tickets.values()].filter((t) => t.status === 'open').map((t) => `#${t.id} ${t.title}`);
      // corpus-site: migrate
      const response = await server.request({
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: `Suggest labels:\n${open.join('\n')}` } }],
          maxTokens: 300,
        },
      });
      const block = Array.isArray(response.content) ? response.content[0] : response.content;
      return text(block?.type === 'text' ? block.text : '');
    }
    case 'workspace':
      return await workspaceSummary();
    default:
      throw new Error(`Unknown tool: ${request.params.name}`);
  }
});

serveStdio(() => server);
