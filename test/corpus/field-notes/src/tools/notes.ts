import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

// Request names kept in one place, as this project likes them.
const METHODS = { roots: 'roots/list', sampling: 'sampling/createMessage' } as const;
const ASK = 'elicitInput';

const notes = new Map<string, string>();

/** Gives up on a slow client after `ms`. */
async function withTimeout<P, T>(ask: (params: P) => Promise<T>, params: P, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The client did not answer in time.')), ms);
  });
  try {
    return await Promise.race([ask(params), expired]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerNoteTools(server: McpServer): void {
  server.registerTool('add_note', { description: 'Add a note', inputSchema: z.object({ title: z.string() }) }, async ({ title }, ctx) => {
    const req = ctx.mcpReq;
    if (notes.has(title)) return { content: [{ type: 'text', text: `A note called ${title} exists already.` }], isError: true };
    // corpus-site: migrate
    const answer = await req.elicitInput({
      message: `What should the note "${title}" say?`,
      requestedSchema: { type: 'object', properties: { body: { type: 'string' } }, required: ['body'] },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Nothing saved.' }] };
    notes.set(title, String(answer.content?.body ?? ''));
    return { content: [{ type: 'text', text: `Saved ${title}.` }] };
  });

  server.registerTool('tag_note', { description: 'Tag a note', inputSchema: z.object({ title: z.string() }) }, async ({ title }, ctx) => {
    const { mcpReq } = ctx;
    // corpus-site: migrate
    const answer = await mcpReq[ASK]({
      message: `Tags for "${title}"?`,
      requestedSchema: { type: 'object', properties: { tags: { type: 'string' } }, required: ['tags'] },
    });
    const tags = answer.action === 'accept' ? String(answer.content?.tags ?? '') : '';
    return { content: [{ type: 'text', text: tags ? `Tagged ${title}: ${tags}` : 'No tags.' }] };
  });

  server.registerTool('list_folders', { description: 'List the folders notes may link to' }, async () => {
    // corpus-site: migrate
    const listed = await server.server.request({ method: METHODS.roots });
    return { content: [{ type: 'text', text: listed.roots.map((root) => root.uri).join('\n') }] };
  });

  server.registerTool('summarise_notes', { description: 'Summarise every note' }, async () => {
    const text = [...notes.entries()].map(([title, body]) => `${title}: ${body}`).join('\n');
    // corpus-site: mark unfollowed-reference
    const reply = await withTimeout(server.server.createMessage.bind(server.server), { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 300 }, 5000);
    const first = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return { content: [{ type: 'text', text: first?.type === 'text' ? first.text : '' }] };
  });
}
