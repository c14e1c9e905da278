#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { register as registerFiles } from './tools/files.js';
import { register as registerSearch } from './tools/search.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'files', version: '1.2.0' });
  registerFiles(server);
  registerSearch(server);
  return server;
}

serveStdio(createServer);
