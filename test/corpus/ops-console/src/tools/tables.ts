import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { confirm, formatRows } from '../lib/index.js';
import { countRows, dropTable } from '../tables.js';

export function registerTableTools(server: McpServer): void {
  server.registerTool('drop_table', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    if (!(await confirm(ctx, `Drop ${table} (${formatRows(countRows(table))})?`))) return { content: [{ type: 'text', text: 'Kept.' }] };
    dropTable(table);
    return { content: [{ type: 'text', text: `Dropped ${table}.` }] };
  });

  server.registerTool('show_roots', { description: 'Show the folders the client shares' }, async () => {
    // corpus-site: migrate
    return { content: [{ type: 'text', text: JSON.stringify(await server.server.listRoots()) }] };
  });

  server.registerTool('purge_table', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    const count = countRows(table);
    // corpus-site: migrate
    const answer = await (ctx as ServerContext).mcpReq.elicitInput({
      message: `Purge ${formatRows(count)} from ${table}?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Kept.' }] };
    dropTable(table);
    return { content: [{ type: 'text', text: `Purged ${count}.` }] };
  });

  server.registerTool('archive_table', { inputSchema: z.object({ table: z.string(), force: z.boolean() }) }, async ({ table, force }, ctx) => {
    const answer = force
      ? undefined
      : // corpus-site: mark nested-site
        await ctx.mcpReq.elicitInput({ message: `Archive ${table}?`, requestedSchema: { type: 'object', properties: {} } });
    if (answer && answer.action !== 'accept') return { content: [{ type: 'text', text: 'Kept.' }] };
    return { content: [{ type: 'text', text: `Archived ${table}.` }] };
  });
}
