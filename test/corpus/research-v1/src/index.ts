#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { papers } from './library.js';
import { registerReadingTools } from './tools/reading.js';

const server = new McpServer({ name: 'research-assistant', version: '0.4.2' });

server.tool('summarise_paper', 'Summarise a paper', { id: z.string() }, async ({ id }, extra) => {
  const paper = papers.find((p) => p.id === id);
  if (!paper) return { content: [{ type: 'text', text: `Unknown paper ${id}` }], isError: true };
  // corpus-site: migrate
  const result = await extra.sendRequest(
    {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${paper.abstract}` } }],
        maxTokens: 200,
      },
    },
    CreateMessageResultSchema,
  );
  return { content: [{ type: 'text', text: result.content.type === 'text' ? result.content.text : '' }] };
});

server.tool('workspace_papers', 'List papers under the workspace roots', {}, async () => {
  // corpus-site: migrate
  const roots = await server.server.listRoots();
  return { content: [{ type: 'text', text: `${papers.length} papers, ${roots.roots.length} roots` }] };
});

server.server.oninitialized = () => {
  // corpus-site: mark no-request-to-answer
  server.server.listRoots().then((r) => console.error(`roots: ${r.roots.length}`), () => undefined);
};

registerReadingTools(server);

const transport = new StdioServerTransport();
await server.connect(transport);
