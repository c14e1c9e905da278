import type { McpServer } from '@modelcontextprotocol/server';
import { log } from './fs-ops.js';

/** Asks the user to confirm an action; true only on an explicit yes. */
export async function confirm(server: McpServer, message: string): Promise<boolean> {
  // corpus-site: migrate
  const result = await server.server.elicitInput({
    message,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  return result.action === 'accept' && result.content?.confirm === true;
}

/** Like confirm, for destructive actions: the prompt says so. */
export async function confirmDestructive(server: McpServer, what: string): Promise<boolean> {
  return confirm(server, `This cannot be undone: ${what}. Continue?`);
}

/** Asks for a new name; logs the question first (the audit trail wants every prompt, once). */
export async function askName(server: McpServer, current: string): Promise<string | undefined> {
  log(`prompt: rename ${current}`);
  // corpus-site: migrate
  const result = await server.server.elicitInput({
    message: `New name for ${current}?`,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  return result.action === 'accept' ? String(result.content?.name) : undefined;
}
