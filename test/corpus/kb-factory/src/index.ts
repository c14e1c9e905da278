import * as z from 'zod/v4';
import { registerArticleTools } from './articles.js';
import { createMcp } from './mcp.js';

class KnowledgeBase {
  readonly #server = createMcp();

  constructor() {
    registerArticleTools(this.#server);
    this.#server.registerPrompt('answer_ticket', { description: 'Draft an answer', argsSchema: z.object({ ticket: z.string() }) }, async ({ ticket }) => {
      // corpus-site: migrate
      const draft = await this.#server.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: `Draft a reply to: ${ticket}` } }],
        maxTokens: 300,
      });
      return { messages: [{ role: 'assistant', content: draft.content.type === 'text' ? draft.content : { type: 'text', text: '' } }] };
    });
  }

  get server() {
    return this.#server;
  }
}

export const kb = new KnowledgeBase();
