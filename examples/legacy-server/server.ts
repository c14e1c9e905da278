// A small legacy MCP server in the 2025 style: its tools pause mid-call to ask the client
// (elicitation), to borrow the client's model (sampling) and to list the client's roots.
// `npm run example` shows what mrtr-codemod makes of it (a dry run: nothing is written).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const tables = new Map<string, string[]>([['logs', ['a', 'b', 'c']]]);

export function createServer(): McpServer {
  const server = new McpServer({ name: 'example-records', version: '1.0.0' }, { capabilities: { tools: {} } });

  server.registerTool(
    'delete_records',
    { description: 'Delete all records of a table, after confirmation', inputSchema: z.object({ table: z.string() }) },
    async ({ table }, ctx) => {
      const rows = tables.get(table) ?? [];
      const count = rows.length;
      const answer = await ctx.mcpReq.elicitInput({
        message: `Delete ${count} records from ${table}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: 'Nothing deleted.' }] };
      }
      tables.set(table, []);
      return { content: [{ type: 'text', text: `Deleted ${count} records from ${table}.` }] };
    },
  );

  server.registerTool(
    'summarise_table',
    { description: "Summarise a table with the client's model", inputSchema: z.object({ table: z.string() }) },
    async ({ table }) => {
      const rows = tables.get(table) ?? [];
      const completion = await server.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${rows.join(', ')}` } }],
        maxTokens: 100,
      });
      return { content: [completion.content.type === 'text' ? completion.content : { type: 'text', text: '(no summary)' }] };
    },
  );

  server.registerTool('workspace', { description: 'Show the client roots' }, async () => {
    const listing = await server.server.listRoots();
    return { content: [{ type: 'text', text: listing.roots.map((root) => root.uri).join('\n') }] };
  });

  // Runs when a client connects: there is no request to answer here, so this one is marked.
  server.server.oninitialized = async () => {
    const listing = await server.server.listRoots();
    console.error(`client has ${listing.roots.length} roots`);
  };

  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) serveStdio(createServer);
