import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { countRows } from './tables.js';

/** Export jobs: one method serves the tool, and the nightly job calls it too. */
export class Exports {
  async handleExport({ table }: { table: string }, ctx: ServerContext) {
    // corpus-site: mark shared-handler
    const answer = await ctx.mcpReq.elicitInput({ message: `Export ${countRows(table)} rows of ${table}?`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }

  register(server: McpServer): void {
    server.registerTool('export_table', { inputSchema: z.object({ table: z.string() }) }, this.handleExport.bind(this));
  }
}

export function registerExports(server: McpServer): void {
  const exports = new Exports();
  exports.register(server);
  server.registerTool('export_nightly', { inputSchema: z.object({ table: z.string() }) }, (args, ctx) => exports.handleExport(args, ctx));
}
