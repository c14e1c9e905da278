// An exported asking method no handler of the run is shown to call: where a call of its name is
// in the run on a receiver the run cannot tie to its class, its marker names that call and why;
// only where there is none does it say to run on its callers. Such a call is never migrated.
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('untied-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ASKER = [
  "import type { McpServer } from '@modelcontextprotocol/server';",
  '',
  'export class Asker {',
  "  constructor(private readonly server: McpServer['server']) {}",
  '',
  '  async confirm(message: string): Promise<boolean> {',
  "    const reply = await this.server.elicitInput({ mode: 'form', message, requestedSchema: { type: 'object', properties: {} } });",
  "    return reply.action === 'accept';",
  '  }',
  '}',
  '',
].join('\n');

/** A tool class that asks through `receiver`, declared by `declaration` (a field of the class). */
const toolClass = (imports: string, field: string, call: string) =>
  [
    "import { McpServer } from '@modelcontextprotocol/server';",
    imports,
    '',
    'export class DropTool {',
    field,
    '',
    '  register(server: McpServer): void {',
    "    server.registerTool('drop', { description: 'Drop after asking' }, async () => {",
    `      if (!(await ${call}('Drop?'))) return { content: [] };`,
    "      return { content: [{ type: 'text', text: 'dropped' }] };",
    '    });',
    '  }',
    '}',
    '',
  ].join('\n');

const markerOf = (output: string) =>
  output
    .split('\n')
    .find((l) => l.includes('@mrtr-todo(in-helper)'))
    ?.trim();

async function run(tools?: string) {
  await putFile(dir, 'src/asker.ts', ASKER);
  if (tools !== undefined) await putFile(dir, 'src/tools.ts', tools);
  const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false });
  expect(result.errors).toEqual([]);
  const asker = result.changed.find((c) => c.path === 'src/asker.ts')!;
  const site = result.sites.find((s) => s.file === 'src/asker.ts')!;
  return { marker: markerOf(asker.output), site, result };
}

describe('an exported asking method no handler is shown to call', () => {
  it('names a call through an interface of a package, and is not split', async () => {
    const { marker, site, result } = await run(
      toolClass("import type { IAsker } from '@acme/asking-types';", '  constructor(private readonly asker: IAsker) {}', 'this.asker.confirm'),
    );
    expect(marker).toBe('// @mrtr-todo(in-helper): `Asker.confirm()` is called at tools.ts:9 via `IAsker`, not its class — edit both by hand');
    expect(site.reason).toContain('its call at src/tools.ts:9 is made through `IAsker`, a type of @acme/asking-types (outside the run), not its class');
    expect(site.status).toBe('marked');
    expect(result.changed.find((c) => c.path === 'src/tools.ts')).toBeUndefined();
  });

  it('names a call on a receiver with no declared type, and says to declare it', async () => {
    const { marker } = await run(
      toolClass('', '  private readonly asker = makeAsker();', 'this.asker.confirm').replace(
        'export class',
        'declare function makeAsker(): any;\nexport class',
      ),
    );
    expect(marker).toBe('// @mrtr-todo(in-helper): `Asker.confirm()` may be called at tools.ts:10 on an untyped receiver — type it, then run again');
  });

  it('is split with its caller once that receiver is typed as its class, as the untyped marker says', async () => {
    const { site, result } = await run(
      toolClass("import { Asker } from './asker.js';", '  constructor(private readonly asker: Asker) {}', 'this.asker.confirm'),
    );
    expect(site.status).toBe('migrated');
    expect(result.changed.find((c) => c.path === 'src/tools.ts')!.output).toContain("answer: this.asker.confirmRequest('Drop?'),");
  });

  it('names, for each method, the first call on a typed receiver, read past the files that settle the others', async () => {
    const choose = [
      '',
      '  async choose(message: string): Promise<boolean> {',
      "    const reply = await this.server.elicitInput({ mode: 'form', message, requestedSchema: { type: 'object', properties: {} } });",
      "    return reply.action === 'accept';",
      '  }',
      '}',
    ].join('\n');
    await putFile(dir, 'src/asker.ts', ASKER.replace(/\n}\n$/, `${choose}\n`));
    const typed = (call: string) => toolClass("import type { IAsker } from '@acme/asking-types';", '  constructor(private readonly asker: IAsker) {}', call);
    const untyped = toolClass('', '  private readonly asker = makeAsker();', 'this.asker.confirm').replace(
      'export class',
      'declare function makeAsker(): any;\nexport class',
    );
    await putFile(dir, 'src/a-tools.ts', untyped);
    await putFile(dir, 'src/b-tools.ts', typed('this.asker.choose'));
    await putFile(dir, 'src/c-tools.ts', typed('this.asker.confirm'));
    await putFile(dir, 'src/d-tools.ts', typed('this.asker.confirm'));
    const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false });
    expect(result.errors).toEqual([]);
    const markers = result.changed
      .find((c) => c.path === 'src/asker.ts')!
      .output.split('\n')
      .filter((l) => l.includes('@mrtr-todo(in-helper)'))
      .map((l) => l.trim());
    expect(markers).toEqual([
      '// @mrtr-todo(in-helper): `Asker.confirm()` is called at c-tools.ts:9 via `IAsker`, not its class — edit both by hand',
      '// @mrtr-todo(in-helper): `Asker.choose()` is called at b-tools.ts:9 via `IAsker`, not its class — edit both by hand',
    ]);
  });

  it('says to run on its callers only where no call of its name is in the run', async () => {
    // A call of another name, on a receiver of a package's type, is no call of it.
    const { marker } = await run(
      toolClass("import type { IAsker } from '@acme/asking-types';", '  constructor(private readonly asker: IAsker) {}', 'this.asker.approve'),
    );
    expect(marker).toMatch(/found no handler calling it — run on its callers too$/);
  });

  it('stays whole where a module of the run imports its class (a `new`, a type) but calls none of its methods', async () => {
    const tools = [
      "import { McpServer } from '@modelcontextprotocol/server';",
      "import { Asker } from './asker.js';",
      '',
      'export function register(server: McpServer): Asker {',
      '  const asker: Asker = new Asker(server.server);',
      "  server.registerTool('list', { description: 'List' }, async () => ({ content: [{ type: 'text', text: 'none' }] }));",
      '  return asker;',
      '}',
      '',
    ].join('\n');
    const { marker, site, result } = await run(tools);
    expect(marker).toBe(
      '// @mrtr-todo(in-helper): exported `Asker.confirm()` would be split, but this run found no handler calling it — run on its callers too',
    );
    expect(site.status).toBe('marked');
    expect(result.changed.find((c) => c.path === 'src/asker.ts')!.output).toContain('  async confirm(message: string): Promise<boolean> {');
    expect(result.changed.find((c) => c.path === 'src/tools.ts')).toBeUndefined();
  });

  it('keeps an exported function whole where a module of the run imports it by name but never calls it', async () => {
    const pick = [
      "import type { McpServer } from '@modelcontextprotocol/server';",
      '',
      'export async function pickTeam(server: McpServer, preset?: string): Promise<string> {',
      '  if (preset) return preset;',
      "  const reply = await server.server.elicitInput({ mode: 'form', message: 'Team?', requestedSchema: { type: 'object', properties: {} } });",
      "  return reply.action === 'accept' ? 'core' : 'none';",
      '}',
      '',
    ].join('\n');
    const tools = [
      "import { McpServer } from '@modelcontextprotocol/server';",
      "import { pickTeam } from './pick.js';",
      '',
      'export const pickers = [pickTeam];',
      '',
      'export function register(server: McpServer): void {',
      "  server.registerTool('list', { description: 'List' }, async () => ({ content: [{ type: 'text', text: 'none' }] }));",
      '}',
      '',
    ].join('\n');
    await putFile(dir, 'src/pick.ts', pick);
    await putFile(dir, 'src/tools.ts', tools);
    const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false });
    expect(result.errors).toEqual([]);
    const site = result.sites.find((s) => s.file === 'src/pick.ts')!;
    expect([site.status, site.code]).toEqual(['marked', 'in-helper']);
    const output = result.changed.find((c) => c.path === 'src/pick.ts')!.output;
    expect(output).toContain('export async function pickTeam(server: McpServer, preset?: string): Promise<string> {');
    expect(output).not.toContain('pickTeamRequest');
    expect(result.changed.find((c) => c.path === 'src/tools.ts')).toBeUndefined();
  });
});
