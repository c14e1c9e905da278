import { McpServer } from '@modelcontextprotocol/server';
import { registerNoteTools } from './tools/notes.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'field-notes', version: '0.4.2' });
  registerNoteTools(server);
  return server;
}
