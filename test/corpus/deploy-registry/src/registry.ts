import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import type * as z from 'zod/v4';

export interface ToolDefinition<Shape extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  inputSchema: Shape;
  handler: (args: z.infer<Shape>, ctx: ServerContext) => Promise<CallToolResult>;
}

export function defineTool<Shape extends z.ZodObject>(definition: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return definition;
}

export function registerAll(server: McpServer, tools: ToolDefinition<any>[]): void {
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, tool.handler);
  }
}
