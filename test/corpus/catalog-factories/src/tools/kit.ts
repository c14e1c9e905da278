import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/** What every tool of the catalog is built with. */
export interface ToolKit {
  server: McpServer;
  folders: string[];
}

export type ToolHandler = (args: Record<string, unknown>, ctx: ServerContext) => Promise<CallToolResult>;

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema?: z.ZodRawShape;
  build: (kit: ToolKit) => ToolHandler | Promise<ToolHandler>;
}

export function defineTool(spec: ToolSpec): ToolSpec {
  return spec;
}

export async function installTools(kit: ToolKit, specs: ToolSpec[]): Promise<void> {
  for (const { name, description, inputSchema, build } of specs) {
    const handler = await build(kit);
    kit.server.registerTool(name, { description, inputSchema: inputSchema ? z.object(inputSchema) : undefined }, handler as never);
  }
}
