import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { NoteStore } from '../store.js';

const TAG = { type: 'object' as const, properties: { tag: { type: 'string' as const, minLength: 1 } }, required: ['tag'] };

export function registerTagTools(server: McpServer, notes: NoteStore): void {
  server.registerTool(
    'tag_note',
    { description: 'Ask for a tag and add it to a note', inputSchema: z.object({ id: z.string() }) },
    async ({ id }, ctx) => {
      const note = notes.get(id);
      if (!note) {
        return { content: [{ type: 'text', text: `No note ${id}.` }], isError: true };
      }
      // corpus-site: migrate
      const answer = await ctx.mcpReq.elicitInput({ message: `Tag for "${note.title}"?`, requestedSchema: TAG });
      if (answer.action !== 'accept' || typeof answer.content?.tag !== 'string') {
        return { content: [{ type: 'text', text: 'No tag added.' }] };
      }
      note.tags.push(answer.content.tag);
      return { content: [{ type: 'text', text: `${note.title}: ${note.tags.join(', ')}` }] };
    },
  );
}
