import * as z from 'zod/v4';
import type { ToolKit } from './kit.js';

const prices = new Map<string, number>([['A-100', 12.5]]);

export function registerPriceCheck(kit: ToolKit): void {
  kit.server.registerTool(
    'price_check',
    { description: 'Look up a price, asking before a guess', inputSchema: z.object({ sku: z.string() }) },
    async ({ sku }) => {
      const label = sku.trim().toUpperCase();
      const known = prices.get(label);
      if (known !== undefined) return { content: [{ type: 'text', text: `${label}: ${known}` }] };
      // corpus-site: migrate
      const answer = await kit.server.server.elicitInput({
        message: `No price for ${label}. Use an estimate?`,
        requestedSchema: { type: 'object', properties: { estimate: { type: 'number' } }, required: ['estimate'] },
      });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: `${label}: unknown` }] };
      return { content: [{ type: 'text', text: `${label}: about ${String(answer.content?.estimate)}` }] };
    },
  );
}
