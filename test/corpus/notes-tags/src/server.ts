import { McpServer } from '@modelcontextprotocol/server';
import { seedNotes, type NoteStore } from './store.js';
import { registerNoteTools } from './tools/notes.js';
import { registerTagTools } from './tools/tags.js';

export function createServer(notes: NoteStore = seedNotes()): McpServer {
  const server = new McpServer({ name: 'notes-tags', version: '0.1.0' });
  registerNoteTools(server, notes);
  registerTagTools(server, notes);
  return server;
}
