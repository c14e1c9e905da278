import { z } from 'zod';
import type { ShopContext } from '../context.js';

export function registerCheckout(shop: ShopContext): void {
  shop.server.registerTool(
    'checkout',
    { description: 'Pay for the basket after confirmation', inputSchema: z.object({ items: z.array(z.string()) }) },
    async ({ items }) => {
      const total = items.length * 3;
      // corpus-site: migrate
      const answer = await shop.server.server.elicitInput({
        message: `Pay ${total} ${shop.currency} for ${items.length} items?`,
        requestedSchema: { type: 'object', properties: { pay: { type: 'boolean' } }, required: ['pay'] },
      });
      if (answer.action !== 'accept' || answer.content?.pay !== true) return { content: [{ type: 'text', text: 'Not paid.' }] };
      return { content: [{ type: 'text', text: `Paid ${total} ${shop.currency}.` }] };
    },
  );
}
