import type { McpServer } from '@modelcontextprotocol/server';

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Confirm' } },
  required: ['confirm'],
};

/** Asks the user yes/no questions through the client. */
export class Prompter {
  constructor(private readonly server: McpServer) {}

  async confirm(message: string): Promise<boolean> {
    // corpus-site: migrate
    const result = await this.server.server.elicitInput({ message, requestedSchema: CONFIRM_SCHEMA });
    return result.action === 'accept' && result.content?.confirm === true;
  }
}
