import * as z from 'zod/v4';
import type { KbServer } from './mcp.js';

const articles = ['Resetting a password', 'Exporting data', 'Closing an account'];

export function registerArticleTools(server: KbServer): void {
  server.registerTool('find_article', { description: 'Find an article', inputSchema: z.object({ topic: z.string() }) }, async ({ topic }) => {
    const candidates = articles.filter((a) => a.toLowerCase().includes(topic.toLowerCase()));
    if (candidates.length <= 1) return { content: [{ type: 'text', text: candidates[0] ?? 'Nothing found.' }] };
    // corpus-site: migrate
    const choice = await server.server.elicitInput({
      message: 'Several articles match; which one?',
      requestedSchema: { type: 'object', properties: { title: { type: 'string', enum: candidates } }, required: ['title'] },
    });
    server.articlesServed = (server.articlesServed ?? 0) + 1;
    return { content: [{ type: 'text', text: choice.action === 'accept' ? String(choice.content?.title) : 'Cancelled.' }] };
  });
}
