import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { Ask, ELICIT } from '../methods.js';
import { countRows } from '../tables.js';

const PICK = { type: 'object' as const, properties: { format: { type: 'string' as const, enum: ['csv', 'json'] } }, required: ['format'] };

export function registerReportTools(server: McpServer): void {
  server.registerTool('export_report', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    // corpus-site: migrate
    const choice = await ctx.mcpReq[`elicit${'Input'}` as const]({ message: `Export ${table} as?`, requestedSchema: PICK });
    const format = choice.action === 'accept' ? String(choice.content?.format) : 'csv';
    return { content: [{ type: 'text', text: `${table}.${format}: ${countRows(table)}` }] };
  });

  server.registerTool('notify_owner', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    const { send } = ctx.mcpReq;
    // corpus-site: mark unknown-request
    const answer = await send({ method: ELICIT, params: { mode: 'form', message: `Notify the owner of ${table}?`, requestedSchema: PICK } });
    return { content: [{ type: 'text', text: answer.action }] };
  });

  server.registerTool('confirm_report', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    // corpus-site: mark unfollowed-reference
    const answer = await ctx.mcpReq[Ask.confirm]({ message: `Send the ${table} report?`, requestedSchema: PICK });
    return { content: [{ type: 'text', text: answer.action }] };
  });

  server.registerTool('sign_report', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, { mcpReq: { elicitInput } }) => {
    // corpus-site: mark unfollowed-reference
    const answer = await elicitInput({ message: `Sign the ${table} report?`, requestedSchema: PICK });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
