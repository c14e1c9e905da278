import { z } from 'zod';
import type { McpServer } from '../mcp.js';
import { papers, reading } from '../library.js';

export function registerReadingTools(server: McpServer) {
  server.tool(
    'add_to_reading_list',
    'Add a paper to the reading list after confirmation',
    { id: z.string() },
    async ({ id }) => {
      const paper = papers.find((p) => p.id === id);
      if (!paper) return { content: [{ type: 'text', text: `Unknown paper ${id}` }], isError: true };
      // corpus-site: migrate
      const answer = await server.server.elicitInput({
        message: `Add "${paper.title}" to your reading list?`,
        requestedSchema: { type: 'object', properties: { add: { type: 'boolean' } }, required: ['add'] },
      });
      if (answer.action === 'accept' && answer.content?.add === true) reading.push(paper.id);
      return { content: [{ type: 'text', text: reading.join(', ') }] };
    },
  );
}
