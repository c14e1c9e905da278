import type { ServerContext } from '@modelcontextprotocol/server';

const YES_NO = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

/** Asks the operator to confirm; true only on an explicit yes. */
export async function confirm(ctx: ServerContext, message: string): Promise<boolean> {
  // corpus-site: mark in-helper
  const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: YES_NO });
  return answer.action === 'accept' && answer.content?.ok === true;
}
