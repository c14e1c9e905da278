// A project written for TypeScript 5 leaves `types` unset and gets every @types package (here
// @types/node, which types `randomUUID`); TypeScript 6, which reads its types here, takes none
// unless told. A local made with a Node API must still have its type when it is carried.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { transformWithTypes } from '../src/transform.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

const dir = checkoutScratch('types-unset-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('types a local made with a Node API in a project whose tsconfig leaves `types` unset', async () => {
  await putFile(dir, 'tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, module: 'node16', moduleResolution: 'node16', target: 'es2022' } }));
  const source = [
    "import { randomUUID } from 'node:crypto';",
    "import { McpServer } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    '',
    "const server = new McpServer({ name: 'tickets', version: '1.0.0' });",
    "server.registerTool('open_ticket', { inputSchema: z.object({ title: z.string() }) }, async ({ title }, ctx) => {",
    '  const ticket = randomUUID();',
    "  const answer = await ctx.mcpReq.elicitInput({ message: `Open ${title}?`, requestedSchema: { type: 'object', properties: {} } });",
    "  return { content: [{ type: 'text', text: `${answer.action} ${ticket}` }] };",
    '});',
    '',
  ].join('\n');
  const file = await putFile(dir, 'server.ts', source);
  const { output } = await transformWithTypes(source, path.resolve(file), new TsTypeFactsProvider());
  expect(output).not.toContain('@mrtr-todo');
  // @types/node types a UUID as a template of its groups.
  expect(output).toContain('const { ticket } = mrtr.locals<{ ticket: `${string}-${string}-${string}-${string}-${string}` }>();');
});
