import { McpServer } from '@modelcontextprotocol/server';

/** The server with the knowledge base's own bookkeeping. */
export interface KbServer extends McpServer {
  articlesServed?: number;
}

export function createMcp(): KbServer {
  return new McpServer({ name: 'kb', version: '0.1.0' }, { capabilities: { tools: {}, prompts: {} } });
}
