#!/usr/bin/env node
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';

const FORECASTS: Record<string, string> = { paris: 'rain', lisbon: 'sun' };

class WeatherServer {
  private server: Server;
  private subscriptions: string[] = [];

  constructor() {
    this.server = new Server(
      { name: 'weather', version: '1.0.3' },
      { capabilities: { tools: {} } },
    );
    this.setupToolHandlers();
    this.server.onerror = (error) => console.error('[MCP Error]', error);
  }

  private setupToolHandlers() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'forecast', description: 'Forecast for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'subscribe', description: 'Subscribe to alerts', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
      ],
    }));

    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      switch (request.params.name) {
        case 'forecast':
          return await this.handleForecast(request.params.arguments);
        case 'subscribe': {
          // corpus-site: migrate
          const answer = await this.server.request(
            {
              method: 'elicitation/create',
              params: {
                message: 'Which city should alerts cover?',
                requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            },
            ElicitResultSchema,
          );
          if (answer.action !== 'accept') {
            return { content: [{ type: 'text', text: 'Not subscribed.' }] };
          }
          this.subscriptions.push(String(answer.content?.city));
          return { content: [{ type: 'text', text: `Subscribed: ${this.subscriptions.join(', ')}` }] };
        }
        default:
          throw new Error(`Unknown tool: ${request.params.name}`);
      }
    });
  }

  private async handleForecast(args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    let city = typeof args?.city === 'string' ? args.city : undefined;
    if (!city) {
      // corpus-site: migrate
      const answer = await this.server.elicitInput({
        message: 'Which city?',
        requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'No city given.' }] };
      city = String(answer.content?.city);
    }
    return { content: [{ type: 'text', text: FORECASTS[city.toLowerCase()] ?? 'unknown' }] };
  }

  async run() {
    const transport = new StdioServerTransport();
    await this.server.connect(transport);
    console.error('Weather MCP server running on stdio');
  }
}

new WeatherServer().run().catch(console.error);
