import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** What the shop's tools share. */
export interface ShopContext {
  server: McpServer;
  currency: string;
}
