// A marker that names a line of another module names the line that statement is on in the text
// the run leaves there, not in the text it read: that module's own marker moves its lines.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { ASKER, CALLER } from './support/approve-project.ts';
import { cli } from './support/cli.ts';
import { checkoutScratch, noTypes, putFile } from './support/scratch.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('other-lines-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The line the via-helper marker of the caller names in approve.ts, and that line of the text `approveText`. */
function namedLine(marker: string, approveText: string): string {
  const line = /approve\.ts:(\d+)/.exec(marker)?.[1];
  expect(line, marker).toBeDefined();
  return approveText.split('\n')[Number(line) - 1]!.trim();
}

const ASKING = 'const reply = await ctx.mcpReq.elicitInput(';

describe('a marker naming a line of another module', () => {
  it('names the line of the text the run writes there (dry run: the diff, the report)', async () => {
    await putFile(dir, 'src/approve.ts', ASKER);
    await putFile(dir, 'src/tools.ts', CALLER);
    const result: RunResult = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([]);
    const approve = result.changed.find((c) => c.path === 'src/approve.ts')!;
    // Its own marker is above the request: the request moved down a line.
    expect(approve.output).toContain('// @mrtr-todo(in-helper)');
    const site = result.sites.find((s) => s.file === 'src/tools.ts' && s.code === 'via-helper')!;
    expect(namedLine(site.marker!, approve.output)).toMatch(new RegExp(`^${ASKING.replace(/[(.]/g, '\\$&')}`));
    // The report's reason names the same line.
    expect(site.reason).toContain(`(src/approve.ts:${/approve\.ts:(\d+)/.exec(site.marker!)![1]})`);
    const tools = result.changed.find((c) => c.path === 'src/tools.ts')!;
    const written = tools.output.split('\n').find((l) => l.includes('@mrtr-todo(via-helper)'))!;
    expect(namedLine(written, approve.output)).toContain(ASKING);
    expect(tools.output).not.toMatch(/[\uE000-\uE004]/);
  });

  it('is written so on disk', async () => {
    await putFile(dir, 'src/approve.ts', ASKER);
    await putFile(dir, 'src/tools.ts', CALLER);
    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([]);
    const [tools, approve] = await Promise.all(['tools.ts', 'approve.ts'].map((f) => readFile(path.join(dir, 'src', f), 'utf8')));
    expect(tools).toBe(result.changed.find((c) => c.path === 'src/tools.ts')!.output);
    const written = tools!.split('\n').find((l) => l.includes('@mrtr-todo(via-helper)'))!;
    expect(namedLine(written, approve!)).toContain(ASKING);
  });
});

// Three v1 modules: `findRoot()` asks for the client's roots; `prepare()` of another module awaits
// `load()`, then calls it; two handlers of a third call `prepare()`. The cross-module rounds make
// `prepare()` a helper that asks through `findRoot()`'s halves, and find it cannot be split: the
// reason quotes its `await load(name)`. That statement is on line 27 of the text planned (the
// official codemod merges the two SDK imports), line 28 on disk, and line 29 of the text written
// (the markers of two requests no handler makes are written above it).
const ROOTS = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Root } from '@modelcontextprotocol/sdk/types.js';

/** The first root the client offers, or the working folder when it has none to offer. */
export async function findRoot(server: McpServer): Promise<string> {
  if (!server.server.getClientCapabilities()?.roots) return process.cwd();
  const { roots } = await server.server.listRoots();
  const first: Root | undefined = roots[0];
  return first ? new URL(first.uri).pathname : process.cwd();
}
`;
const PREPARE = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findRoot } from './roots.js';

/** Logs the client's roots where the server starts: no tool call asks, so nothing can answer. */
export function logRoots(server: McpServer): void {
  server.server.oninitialized = async () => {
    const { roots } = await server.server.listRoots();
    console.error(roots.map((r) => r.uri).join(', '));
  };
}

/** Asks the client to name the project where the server starts: nothing can answer that either. */
export function nameProject(server: McpServer): void {
  server.server.oninitialized = async () => {
    const answer = await server.server.elicitInput({ message: 'Project?', requestedSchema: { type: 'object', properties: {} } });
    console.error(answer.action);
  };
}

async function load(name: string): Promise<string> {
  return \`config of \${name}\`;
}

/** What a tool works on: its config and the root the client gives. */
export async function prepare(server: McpServer, name: string): Promise<CallToolResult> {
  // @mrtr-idempotent
  const config = await load(name);
  const root = await findRoot(server);
  return { content: [{ type: 'text', text: \`\${config} in \${root}\` }] };
}
`;
const TOOLS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { prepare } from './prepare.js';

export function register(server: McpServer): void {
  server.registerTool('build', { inputSchema: { name: z.string() } }, async ({ name }): Promise<CallToolResult> => {
    return prepare(server, name);
  });
  server.registerTool('test', { inputSchema: { name: z.string() } }, async ({ name }): Promise<CallToolResult> => {
    const result = await prepare(server, name);
    return result;
  });
}
`;

describe('a reason quoting a statement of another module, across rounds', () => {
  const AWAITED = 'const config = await load(name);';
  const put = () => Promise.all([putFile(dir, 'src/roots.ts', ROOTS), putFile(dir, 'src/prepare.ts', PREPARE), putFile(dir, 'src/tools.ts', TOOLS)]);

  it('names its line in the text migrate writes, in the JSON summary and in every marker', async () => {
    await put();
    const run = await cli(dir, 'migrate', '--json', 'src');
    expect(run.code).toBe(1); // markers left
    const summary = JSON.parse(run.stdout) as { markers: Array<{ file: string; code: string; reason: string; marker: string }> };
    const prepare = (await readFile(path.join(dir, 'src/prepare.ts'), 'utf8')).split('\n');
    expect(prepare[28]).toBe(`  ${AWAITED}`);
    const quoting = summary.markers.filter((m) => m.reason.includes(AWAITED));
    expect(quoting.map((m) => [m.file, m.code])).toEqual([
      ['src/roots.ts', 'in-helper'],
      ['src/tools.ts', 'via-helper'],
      ['src/tools.ts', 'via-helper'],
    ]);
    for (const m of quoting) {
      expect(m.reason).toContain(
        `it is a helper whose line 29 awaits what the code after its request reads: its result half would await it again (\`${AWAITED}\` (line 29))`,
      );
      expect(m.marker).toBe('`prepare()` (prepare.ts:30): its line 29 awaits what the code after its reques… — fix that');
    }
    expect(prepare[29]).toBe('  const root = await findRoot(server);');
    // The markers written say the same.
    for (const file of ['src/roots.ts', 'src/tools.ts']) {
      const written = (await readFile(path.join(dir, file), 'utf8')).split('\n').filter((l) => l.includes('@mrtr-todo'));
      expect(written.length, file).toBeGreaterThan(0);
      for (const line of written) expect(line).toContain('`prepare()` (prepare.ts:30): its line 29 awaits');
    }
  });

  it('names its line in the file as it is in what check says', async () => {
    await put();
    expect(PREPARE.split('\n')[27]).toBe(`  ${AWAITED}`);
    expect(PREPARE.split('\n')[28]).toBe('  const root = await findRoot(server);');
    const run = await cli(dir, 'check', '--format', 'text', 'src');
    const quoting = run.stdout.split('\n').filter((l) => l.includes(AWAITED));
    expect(quoting).toHaveLength(3);
    for (const line of quoting) {
      expect(line).toContain(
        `it is a helper whose line 28 awaits what the code after its request reads: its result half would await it again (\`${AWAITED}\` (line 28))`,
      );
      expect(line).toMatch(/calls (it|`findRoot\(\)`) at src\/prepare\.ts:29 /);
    }
  });
});
