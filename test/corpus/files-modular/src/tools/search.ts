import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { TOOLS } from '../names.js';

export function register(server: McpServer): void {
  server.registerTool(
    TOOLS.search,
    { description: 'Search the workspace roots for a file name', inputSchema: z.object({ query: z.string() }) },
    async ({ query }) => {
      // corpus-site: migrate
      const { roots } = await server.server.listRoots();
      const matches = roots.filter((root) => root.uri.includes(query)).map((root) => root.uri);
      return { content: [{ type: 'text', text: matches.join('\n') || 'No match.' }] };
    },
  );

  server.registerTool(TOOLS.pick, { description: 'Pick one of the workspace roots' }, async () => {
    // corpus-site: migrate
    const { roots } = await server.server.listRoots();
    if (roots.length === 0) return { content: [{ type: 'text', text: 'No roots.' }] };
    // corpus-site: migrate
    const choice = await server.server.elicitInput({
      message: 'Which root?',
      requestedSchema: {
        type: 'object',
        properties: { root: { type: 'string', enum: roots.map((root) => root.uri) } },
        required: ['root'],
      },
    });
    return { content: [{ type: 'text', text: choice.action === 'accept' ? String(choice.content?.root) : 'None.' }] };
  });
}
