import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { NoteStore } from '../store.js';

export function registerNoteTools(server: McpServer, notes: NoteStore): void {
  server.registerTool(
    'rename_note',
    { description: 'Ask for a new title', inputSchema: z.object({ id: z.string() }) },
    async ({ id }, ctx) => {
      const note = notes.get(id);
      if (!note) {
        return { content: [{ type: 'text', text: `No note ${id}.` }], isError: true };
      }
      // corpus-site: migrate
      const answer = await ctx.mcpReq.elicitInput({
        message: `New title for "${note.title}"?`,
        requestedSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      });
      if (answer.action === 'accept' && typeof answer.content?.title === 'string') note.title = answer.content.title;
      return { content: [{ type: 'text', text: note.title }] };
    },
  );

  server.registerTool(
    'delete_note',
    { description: 'Delete a note once the user confirms', inputSchema: z.object({ id: z.string() }) },
    async ({ id }, ctx) => {
      const note = notes.get(id);
      if (!note) {
        return { content: [{ type: 'text', text: `No note ${id}.` }], isError: true };
      }
      // corpus-site: migrate
      const answer = await ctx.mcpReq.elicitInput({
        message: `Delete "${note.title}"?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: 'Kept.' }] };
      }
      notes.delete(id);
      return { content: [{ type: 'text', text: `Deleted "${note.title}".` }] };
    },
  );
}
