'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const server = new McpServer({ name: 'legacy', version: '0.1.0' });

server.tool('greet', { name: z.string() }, async ({ name }) => {
  // corpus-site: mark legacy-sdk
  const answer = await server.server.elicitInput({
    message: `Greet ${name} formally?`,
    requestedSchema: { type: 'object', properties: { formal: { type: 'boolean' } } },
  });
  const formal = answer.action === 'accept' && answer.content && answer.content.formal === true;
  return { content: [{ type: 'text', text: formal ? `Good day, ${name}.` : `Hi ${name}!` }] };
});

server.connect(new StdioServerTransport());
