import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { registerExports } from './exports.js';
import { maintenance, withAudit } from './handlers.js';
import { registerReportTools } from './tools/reports.js';
import { registerTableTools } from './tools/tables.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'ops-console', version: '0.3.1' }, { capabilities: { tools: {} } });
  registerTableTools(server);
  registerReportTools(server);
  registerExports(server);
  for (const [name, tool] of Object.entries(maintenance)) {
    server.registerTool(name, { description: tool.description, inputSchema: z.object({}) }, withAudit((_args, ctx) => tool.run(ctx)));
  }
  return server;
}
