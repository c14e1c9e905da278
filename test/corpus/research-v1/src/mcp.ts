// One place that names the SDK classes the rest of the server uses.
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
