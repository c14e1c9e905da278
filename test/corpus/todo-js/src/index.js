#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { addTodo, todos } from './todos.js';

const server = new McpServer({ name: 'todo', version: '1.0.0' });

server.registerTool(
  'add_todo',
  { description: 'Add a todo, asking for details', inputSchema: { title: z.string() } },
  async ({ title }) => {
    const open = todos.filter((t) => !t.done).length;
    // corpus-site: migrate
    const details = await server.server.elicitInput({
      message: `Details for "${title}" (${open} open)?`,
      requestedSchema: { type: 'object', properties: { due: { type: 'string' } } },
    });
    const count = addTodo(details.action === 'accept' ? `${title} (due ${details.content?.due})` : title);
    return { content: [{ type: 'text', text: `${count} todos` }] };
  },
);

server.registerPrompt('plan_day', { description: 'Plan the day' }, async () => {
  // corpus-site: migrate
  const reply = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Order these: ${todos.map((t) => t.text).join('; ')}` } }],
    maxTokens: 200,
  });
  return { messages: [{ role: 'user', content: { type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' } }] };
});

await server.connect(new StdioServerTransport());
