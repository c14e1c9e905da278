// The engine's project-level steps, on temporary projects inside this checkout (so the SDK's
// types resolve): a v1 server through the official codemod and the MRTR pass with its
// package.json updated, and a helper module whose asking function other modules' handlers call.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { ROOT } from './support/fixtures.ts';

let dir: string;
beforeEach(async () => {
  await mkdir(path.join(ROOT, '.tmp'), { recursive: true });
  dir = await mkdtemp(path.join(ROOT, '.tmp', 'project-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const put = async (relative: string, text: string) => {
  await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
  await writeFile(path.join(dir, relative), text);
};

describe('a v1 project', () => {
  it('is upgraded by the official codemod, migrated, and its package.json moves to the v2 server package', async () => {
    await put('package.json', '{\n  "name": "demo",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2",\n    "zod": "^4.2.0"\n  }\n}\n');
    await put(
      'src/server.ts',
      [
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
      ].join('\n'),
    );
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.changed.map((c) => c.path).sort()).toEqual(['package.json', 'src/server.ts']);
    const server = await readFile(path.join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain("from \"@modelcontextprotocol/server\"");
    expect(server).not.toContain('@modelcontextprotocol/sdk');
    expect(server).toContain("await mrtrResume(ctx, 'tool:go', ['answer'], { target })");
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0', zod: '^4.2.0' });
    expect(result.sites).toMatchObject([{ file: 'src/server.ts', status: 'migrated', handler: 'tool:go' }]);

    // A second run changes nothing.
    const again = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(again.changed).toEqual([]);
  });
});

describe('a helper module that asks', () => {
  it('is marked, and so is every handler in another module that calls it', async () => {
    await put(
      'src/confirm.ts',
      [
        "import type { ServerContext } from '@modelcontextprotocol/server';",
        'export async function confirm(ctx: ServerContext, message: string): Promise<boolean> {',
        "  const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });",
        "  return answer.action === 'accept';",
        '}',
        '',
      ].join('\n'),
    );
    await put(
      'src/tools.ts',
      [
        "import { McpServer } from '@modelcontextprotocol/server';",
        "import { confirm as ask } from './confirm.js';",
        '',
        'export function register(server: McpServer): void {',
        "  server.registerTool('wipe', { description: 'Wipe after asking' }, async (ctx) => {",
        "    if (!(await ask(ctx, 'Wipe?'))) return { content: [] };",
        "    return { content: [{ type: 'text', text: 'wiped' }] };",
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.line, s.code])).toEqual([
      ['src/confirm.ts', 3, 'in-helper'],
      ['src/tools.ts', 6, 'via-helper'],
    ]);
    const tools = result.changed.find((c) => c.path === 'src/tools.ts')!;
    expect(tools.output).toContain('// @mrtr-todo(via-helper): this handler reaches a server→client request through `confirm()` (src/confirm.ts:3)');
  });

  it('writes a module that both passes change with what both make: its own migration and the marker for the helper it calls', async () => {
    await put(
      'src/confirm.ts',
      [
        "import type { ServerContext } from '@modelcontextprotocol/server';",
        'export async function confirm(ctx: ServerContext, message: string): Promise<boolean> {',
        "  const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });",
        "  return answer.action === 'accept';",
        '}',
        '',
      ].join('\n'),
    );
    await put(
      'src/tools.ts',
      [
        "import { McpServer } from '@modelcontextprotocol/server';",
        "import { confirm } from './confirm.js';",
        '',
        'export function register(server: McpServer): void {',
        "  server.registerTool('wipe', { description: 'Wipe after asking' }, async (ctx) => {",
        "    if (!(await confirm(ctx, 'Wipe?'))) return { content: [] };",
        "    return { content: [{ type: 'text', text: 'wiped' }] };",
        '  });',
        "  server.registerTool('ask', { description: 'Ask directly' }, async (ctx) => {",
        "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });",
        "    return { content: [{ type: 'text', text: answer.action }] };",
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    const dry = await runCodemod({ paths: [dir], write: false, cwd: dir });
    const written = await runCodemod({ paths: [dir], write: true, cwd: dir });
    // The first pass writes the module's own migration; the second (knowing the helper) must
    // not take that write for someone else's edit.
    expect(written.errors).toEqual([]);
    const tools = written.changed.find((c) => c.path === 'src/tools.ts')!;
    expect(tools.written).toBe(true);
    expect(tools.output).toBe(dry.changed.find((c) => c.path === 'src/tools.ts')!.output);
    expect(tools.output).toContain('// @mrtr-todo(via-helper)');
    expect(tools.output).toContain("return mrtr.ask('answer'");
    expect(await readFile(path.join(dir, 'src/tools.ts'), 'utf8')).toBe(tools.output);
  });
});
