#!/usr/bin/env node
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type ReviewArgs = { code?: string; language?: string };

class CodeReviewServer {
  private readonly server: Server;
  private reviewed = 0;

  constructor() {
    this.server = new Server({ name: 'code-review', version: '0.6.0' }, { capabilities: { tools: {} } });
    this.setupHandlers();
  }

  private setupHandlers(): void {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'review_code', description: 'Review a snippet', inputSchema: { type: 'object', properties: { code: { type: 'string' } } } },
        { name: 'choose_style', description: 'Pick a review style', inputSchema: { type: 'object', properties: { code: { type: 'string' } } } },
      ],
    }));

    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      switch (name) {
        case 'review_code':
          return await this.reviewCode(args as ReviewArgs);
        case 'choose_style':
          return await this.chooseStyle(args as ReviewArgs);
        default:
          throw new Error(`Unknown tool: ${name}`);
      }
    });
  }

  private async reviewCode(args: ReviewArgs): Promise<CallToolResult> {
    if (!args.code) {
      return { content: [{ type: 'text', text: 'Nothing to review.' }], isError: true };
    }
    const language = args.language ?? 'typescript';
    // corpus-site: migrate
    const response = await this.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language} code:\n${args.code}` } }],
      maxTokens: 800,
    });
    this.reviewed++;
    const text = response.content.type === 'text' ? response.content.text : '';
    return { content: [{ type: 'text', text: `Review #${this.reviewed}:\n${text}` }] };
  }

  private async chooseStyle(args: ReviewArgs): Promise<CallToolResult> {
    // corpus-site: migrate
    const answer = await this.server.request(
      {
        method: 'elicitation/create',
        params: {
          message: 'Which review style?',
          requestedSchema: { type: 'object', properties: { style: { type: 'string', enum: ['strict', 'friendly'] } }, required: ['style'] },
        },
      },
      ElicitResultSchema,
    );
    const style = answer.action === 'accept' ? String(answer.content?.style) : 'friendly';
    return { content: [{ type: 'text', text: `${style} review of ${args.code?.length ?? 0} characters` }] };
  }

  async run(): Promise<void> {
    await this.server.connect(new StdioServerTransport());
  }
}

new CodeReviewServer().run().catch((error) => {
  console.error(error);
  process.exit(1);
});
