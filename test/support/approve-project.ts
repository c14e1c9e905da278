// Two modules of a project whose markers name a line in another file: an exported helper that
// asks after other work (so it stays whole, marked in its own module), and a tool in another
// module that calls it (marked, naming the helper's line).

/** The helper, in `src/approve.ts`. */
export const ASKER = [
  "import type { ServerContext } from '@modelcontextprotocol/server';",
  'export async function approve(ctx: ServerContext, message: string): Promise<boolean> {',
  '  try {',
  "    const reply = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });",
  "    return reply.action === 'accept';",
  '  } finally {',
  "    console.error('asked');",
  '  }',
  '}',
  '',
].join('\n');

/** The tool calling it, in another module of `src/`. */
export const CALLER = [
  "import { McpServer } from '@modelcontextprotocol/server';",
  "import { approve } from './approve.js';",
  '',
  'export function register(server: McpServer): void {',
  "  server.registerTool('drop', { description: 'Drop after asking' }, async (ctx) => {",
  "    if (!(await approve(ctx, 'Drop?'))) return { content: [] };",
  "    return { content: [{ type: 'text', text: 'dropped' }] };",
  '  });',
  '}',
  '',
].join('\n');
