#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';
import { Prompter } from './prompter.js';
import { NoteStore } from './store.js';

export class NotesServer {
  private readonly server: McpServer;
  private readonly prompter: Prompter;

  constructor(private readonly store: NoteStore) {
    this.server = new McpServer({ name: 'notes', version: '0.3.0' }, { capabilities: { tools: {} } });
    this.prompter = new Prompter(this.server);
    this.registerTools();
    this.watchRoots();
  }

  get mcp(): McpServer {
    return this.server;
  }

  private registerTools(): void {
    this.server.registerTool(
      'delete_note',
      { description: 'Delete a note after the user confirms', inputSchema: z.object({ id: z.string() }) },
      async ({ id }) => {
        const note = this.store.get(id);
        if (!note) {
          return { content: [{ type: 'text', text: `No note ${id}` }], isError: true };
        }
        // corpus-site: migrate
        const answer = await this.server.server.elicitInput({
          message: `Delete "${note.title}"?`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        });
        if (answer.action !== 'accept' || answer.content?.confirm !== true) {
          return { content: [{ type: 'text', text: 'Kept.' }] };
        }
        this.store.delete(id);
        return { content: [{ type: 'text', text: `Deleted "${note.title}".` }] };
      },
    );

    this.server.registerTool(
      'summarise_note',
      { description: 'Summarise a note with the client model', inputSchema: z.object({ id: z.string() }) },
      async ({ id }) => {
        const note = this.store.get(id);
        if (!note) {
          return { content: [{ type: 'text', text: `No note ${id}` }], isError: true };
        }
        // corpus-site: migrate
        const result = await this.server.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `Summarise in one line:\n\n${note.body}` } }],
          maxTokens: 120,
        });
        const text = result.content.type === 'text' ? result.content.text : '(no text)';
        return { content: [{ type: 'text', text }] };
      },
    );

    this.server.registerTool(
      'archive_note',
      { description: 'Archive a note', inputSchema: z.object({ id: z.string() }) },
      async ({ id }) => {
        if (!(await this.prompter.confirm(`Archive note ${id}?`))) {
          return { content: [{ type: 'text', text: 'Not archived.' }] };
        }
        this.store.archive(id);
        return { content: [{ type: 'text', text: `Archived ${id}.` }] };
      },
    );

    this.server.registerTool(
      'tag_note',
      { description: 'Add a tag to a note', inputSchema: z.object({ id: z.string() }) },
      async ({ id }) => {
        const note = this.store.get(id);
        if (!note) {
          return { content: [{ type: 'text', text: `No note ${id}` }], isError: true };
        }
        // corpus-site: mark mutated-local
        const answer = await this.server.server.elicitInput({
          message: `Tag for "${note.title}"?`,
          requestedSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
        });
        if (answer.action === 'accept' && typeof answer.content?.tag === 'string') {
          note.tags.push(answer.content.tag);
        }
        return { content: [{ type: 'text', text: note.tags.join(', ') }] };
      },
    );
  }

  private watchRoots(): void {
    this.server.server.oninitialized = async () => {
      // corpus-site: mark no-request-to-answer
      const { roots } = await this.server.server.listRoots();
      this.store.setRoots(roots.map((root) => root.uri));
    };
    this.server.server.setNotificationHandler('notifications/roots/list_changed', async () => {
      // corpus-site: mark no-request-to-answer
      const { roots } = await this.server.server.listRoots();
      this.store.setRoots(roots.map((root) => root.uri));
    });
  }
}

if (process.argv[1]?.endsWith('index.js')) {
  const notes = new NotesServer(new NoteStore());
  serveStdio(() => notes.mcp);
}
