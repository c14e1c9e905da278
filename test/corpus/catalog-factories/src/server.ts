import { McpServer } from '@modelcontextprotocol/server';
import { LIST_FOLDERS } from './tools/folders.js';
import { installTools, type ToolKit } from './tools/kit.js';
import { registerPriceCheck } from './tools/price.js';

export async function createServer(folders: string[]): Promise<McpServer> {
  const server = new McpServer({ name: 'catalog', version: '1.3.0' });
  const kit: ToolKit = { server, folders };
  await installTools(kit, [LIST_FOLDERS]);
  registerPriceCheck(kit);
  return server;
}
