#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerCheckout } from './tools/checkout.js';

const server = new McpServer({ name: 'shop', version: '0.2.0' });
registerCheckout({ server, currency: 'EUR' });

await server.connect(new StdioServerTransport());
