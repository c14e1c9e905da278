// A low-level server for the shutdown tool, kept apart from the main one.
import { Server, type ServerContext } from '@modelcontextprotocol/server';

class ShutdownServer extends Server {
  async confirmShutdown() {
    // corpus-site: mark in-helper
    return this.elicitInput({ message: 'Shut the console down?', requestedSchema: { type: 'object', properties: {} } });
  }
}

export class Gateway {
  private readonly low = new ShutdownServer({ name: 'ops-shutdown', version: '0.3.1' }, { capabilities: { tools: {} } });

  constructor() {
    this.low.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
      const answer = await this.low.confirmShutdown();
      return { content: [{ type: 'text' as const, text: `${request.params.name}: ${answer.action} (${String(ctx.mcpReq.id)})` }] };
    });
  }

  get server(): Server {
    return this.low;
  }
}
