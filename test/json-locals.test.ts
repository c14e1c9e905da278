// JavaScript has no types to show a carried local holds JSON: its syntax must. A name
// destructured from the arguments holds JSON, and so does what is made of it and a UUID.
import { expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

it('carries a JavaScript local made of a destructured argument and randomUUID()', () => {
  const source = [
    "import { randomUUID } from 'node:crypto';",
    "import { McpServer } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    '',
    "const server = new McpServer({ name: 'tickets', version: '1.0.0' });",
    "server.registerTool('open_ticket', { inputSchema: z.object({ title: z.string(), id: z.string().optional() }) }, async (args, ctx) => {",
    '  const { title, id: requested } = args;',
    '  const ticket = requested ?? randomUUID();',
    "  const answer = await ctx.mcpReq.elicitInput({ message: `Open ${title}?`, requestedSchema: { type: 'object', properties: {} } });",
    "  return { content: [{ type: 'text', text: `${answer.action} ${ticket}` }] };",
    '});',
    '',
  ].join('\n');
  const { output } = transformSource(source, 'server.js');
  expect(output).not.toContain('@mrtr-todo');
  expect(output).toContain("return mrtr.ask('answer', { ticket }, {");
});
