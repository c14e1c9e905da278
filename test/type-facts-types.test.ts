// A project written for TypeScript 5 leaves `types` unset and gets every @types package (here
// @types/node, which types `randomUUID`); TypeScript 6, which reads its types here, takes none
// unless told. A local made with a Node API must still have its type when it is carried.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

// Before `npm install` a project has no @types/node: `randomUUID()` is `any` to the checker, and
// so is every value built with it. `types: []` leaves @types/node out here as its absence would.
describe('a checkout without @types/node', () => {
  const project = () =>
    putFile(
      dir,
      'bare/tsconfig.json',
      JSON.stringify({ compilerOptions: { strict: true, module: 'node16', moduleResolution: 'node16', target: 'es2022', types: [] } }),
    );
  const server = (body: string[], read = 'kept') =>
    [
      "import { randomUUID } from 'node:crypto';",
      "import { hostname, uptime } from 'os';",
      "import path from 'node:path';",
      "import { McpServer } from '@modelcontextprotocol/server';",
      "import * as z from 'zod/v4';",
      '',
      "const server = new McpServer({ name: 'links', version: '1.0.0' });",
      "server.registerTool('share', { inputSchema: z.object({ id: z.string().optional(), n: z.number(), raw: z.string() }) }, async (args, ctx) => {",
      '  const { id: requested, n } = args;',
      ...body.map((line) => `  ${line}`),
      "  const answer = await ctx.mcpReq.elicitInput({ message: 'Share?', requestedSchema: { type: 'object', properties: {} } });",
      `  return { content: [{ type: 'text', text: \`\${answer.action} \${JSON.stringify([${read}])}\` }] };`,
      '});',
      '',
    ].join('\n');
  const migrate = async (name: string, source: string) => {
    await project();
    const file = await putFile(dir, `bare/${name}`, source);
    return transformWithTypes(source, path.resolve(file), new TsTypeFactsProvider());
  };

  it('types a const built from typed operands and Node built-ins by its operators', async () => {
    const { output, plan } = await migrate(
      'share.ts',
      server(
        [
          'const id = requested ?? randomUUID();',
          'const host = n > 2 ? hostname() : `h-${n}`;',
          "const where = path.join('/links', id) + '/';",
          'const label = requested || randomUUID();',
          'const up = uptime() + n;',
          'const fresh = id !== requested;',
        ],
        'id, host, where, label, up, fresh',
      ),
    );
    expect(plan.sites.map((s) => [s.status, s.code, s.reason])).toEqual([['migrated', undefined, undefined]]);
    expect(output).toContain('mrtr.locals<{ id: string; host: string; where: string; label: string; up: number; fresh: boolean }>()');
  });

  it('leaves `any` what an untyped operand or an unknown call makes', async () => {
    for (const [line, name] of [
      ['const kept = JSON.parse(args.raw) ?? randomUUID();', 'kept'],
      ['const kept = requested ?? newId();', 'kept'],
      ['const kept = n > 1 ? randomUUID() : n;', 'kept'],
    ] as const) {
      const source = server([line]).replace("import path from 'node:path';", 'declare function newId(): any;');
      const { plan } = await migrate('share-any.ts', source);
      expect({ line, sites: plan.sites.map((s) => [s.status, s.code]) }).toEqual({ line, sites: [['marked', 'untyped-local']] });
      expect(plan.sites[0]!.reason).toContain(`\`${name}\``);
    }
  });
});
