// Maintenance tools, kept as a table: the server registers each entry in a loop.
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { countRows, dropTable } from './tables.js';

type Maintenance = { description: string; run: (ctx: ServerContext) => Promise<CallToolResult> };

export const maintenance: Record<string, Maintenance> = {
  vacuum: {
    description: 'Reclaim space',
    async run(ctx) {
      // corpus-site: mark unregistered-handler
      const answer = await ctx.mcpReq.elicitInput({ message: 'Vacuum now?', requestedSchema: { type: 'object', properties: {} } });
      return { content: [{ type: 'text', text: answer.action }] };
    },
  },
  reset_sessions: {
    description: 'Drop every session',
    run: async (ctx) => {
      const count = countRows('sessions');
      // corpus-site: mark unregistered-handler
      const answer = await ctx.mcpReq.elicitInput({ message: `Drop ${count} sessions?`, requestedSchema: { type: 'object', properties: {} } });
      if (answer.action === 'accept') dropTable('sessions');
      return { content: [{ type: 'text', text: answer.action }] };
    },
  },
};

/** Logs each call of a tool before running it. */
export function withAudit<A>(run: (args: A, ctx: ServerContext) => Promise<CallToolResult>) {
  return async (args: A, ctx: ServerContext): Promise<CallToolResult> => {
    console.error(`audit: ${String(ctx.mcpReq.id)}`);
    return run(args, ctx);
  };
}
