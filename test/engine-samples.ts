// Small legacy server sources (and an older request-state module) shared by the engine, CLI
// and safety tests. None of them
// lifts a local across a question, so the transform never needs type facts (and the temporary
// directories they are copied to need no node_modules).
import { createHash } from 'node:crypto';
import { stateModuleText } from '../src/rewrite/state-module.ts';

/** A v2 server whose one tool asks for confirmation: migrates cleanly. */
export const ELICIT_SERVER = `import { McpServer } from '@modelcontextprotocol/server';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;

/**
 * One request the codemod cannot move (made inside a nested function: marked \`closure\` on
 * line 6, column 29) and two sampling requests it migrates with the same deprecation note.
 */
export const MIXED_SERVER = `import { McpServer } from '@modelcontextprotocol/server';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'mixed', version: '1.0.0' });
  server.registerTool('later', { description: 'Ask later' }, async (ctx) => {
    const ask = async () => ctx.mcpReq.elicitInput({ message: 'Later?', requestedSchema: { type: 'object', properties: {} } });
    const answer = await ask();
    return { content: [{ type: 'text', text: answer.action }] };
  });
  server.registerTool('summarise', { description: 'Summarise' }, async (ctx) => {
    const reply = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 50 });
    return { content: [{ type: 'text', text: String(reply.model) }] };
  });
  server.registerTool('summarise_again', { description: 'Summarise again' }, async (ctx) => {
    const reply = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi again' } }], maxTokens: 50 });
    return { content: [{ type: 'text', text: String(reply.model) }] };
  });
  return server;
}
`;

/** Mentions a legacy call (so passes the prefilter) but does not parse: error at line 3. */
export const BROKEN_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
// uses ctx.mcpReq.elicitInput somewhere
export const broken = {;
`;

/** No legacy name at all, and not even valid syntax: the prefilter must keep it from the parser. */
export const UNRELATED_BROKEN = `export const util = (;
`;

export const PLAIN_MODULE = `export const answer = 42;
`;

/** A package.json of a project on the v1 SDK. */
export const V1_MANIFEST = '{\n  "name": "demo",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2",\n    "zod": "^4.2.0"\n  }\n}\n';

/** A server on the v1 SDK whose tool asks (the official codemod moves it to v2 first). */
export const V1_SERVER = [
  "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
  "import { z } from 'zod';",
  '',
  'export function createServer(): McpServer {',
  "  const server = new McpServer({ name: 'demo', version: '1.0.0' });",
  "  server.registerTool('go', { inputSchema: { target: z.string() } }, async ({ target }) => {",
  "    const answer = await server.server.elicitInput({ message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } });",
  "    return { content: [{ type: 'text', text: answer.action }] };",
  '  });',
  '  return server;',
  '}',
  '',
].join('\n');

/** A server built in one module and given its tools by another: the run wires the verifier into `server.ts`. */
export const SPLIT_SERVER = {
  'server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerTools } from './tools.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'split', version: '1.0.0' });
  registerTools(server);
  return server;
}
`,
  'tools.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export function registerTools(server: McpServer): void {
  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`,
};

/** The request-state module as an older codemod wrote it: a valid header over another body (a run refreshes it). */
export function olderStateModule(): string {
  const body = '// older\n';
  const header = stateModuleText('ts')
    .replace(/sha256:[0-9a-f]{16}/, `sha256:${createHash('sha256').update(body).digest('hex').slice(0, 16)}`)
    .split('\n')
    .slice(0, 4)
    .join('\n');
  return `${header}\n${body}`;
}
