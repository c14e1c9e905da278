// A v1 server still on the experimental tasks API, which v2 removed: the migrated server does not
// build. `migrate` names each use as blocking the build, at its line of the file it writes (even
// when the request-state verifier is wired into that file after the rest of the run), exits 1,
// and `check` keeps reporting it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, git } from './support/cli.ts';
import { putFile } from './support/scratch.ts';

// The server module builds the server (the verifier is wired here, last) and keeps a task store.
const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { registerTools } from './tools.js';

export function createServer() {
  const taskStore = new InMemoryTaskStore();
  const server = new McpServer({ name: 'records', version: '1.0.0' }, { taskStore });
  registerTools(server);
  return server;
}
`;

// Another module registers the tool that asks: migrated, it imports the request-state module.
const TOOLS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function registerTools(server: McpServer) {
  server.registerTool('go', {}, async () => {
    const answer = await server.server.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-build-blockers-'));
  await putFile(dir, 'package.json', JSON.stringify({ name: 'records', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.32.2' } }));
  await putFile(dir, 'src/server.ts', SERVER);
  await putFile(dir, 'src/tools.ts', TOOLS);
  await git(dir, 'init', '-q');
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-qm', 'v1');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('code on the removed tasks API', () => {
  it('is flagged in the JSON summary', async () => {
    const run = await cli(dir, 'migrate', '--dry-run', '--json', 'src');
    const open = (JSON.parse(run.stdout) as { upgrades: { open: Array<{ file: string; code: string; blocksBuild: boolean }> } }).upgrades.open;
    expect(open.map((n) => [n.file, n.code, n.blocksBuild])).toEqual([
      ['src/server.ts', 'mcp-codemod-error', true],
      ['src/server.ts', 'tasks-api-left', true],
      ['src/server.ts', 'mcp-codemod-error', true],
    ]);
    expect(run.code).toBe(1);
  });

  it('is named as blocking the build at its line of the migrated file, and migrate exits 1', async () => {
    const run = await cli(dir, 'migrate', 'src');
    expect(run.stderr).toBe('');
    const lines = (await readFile(path.join(dir, 'src/server.ts'), 'utf8')).split('\n');
    const at = (text: string) => `src/server.ts:${lines.findIndex((l) => l.includes(text)) + 1}`;
    // The verifier was wired into this file after the rest of its rewrite: its import added a line above.
    expect(lines.some((l) => l.includes('mrtrVerify'))).toBe(true);
    const summary = run.stdout.split('\n');
    const blocking = summary.indexOf(
      'Blocking the build: 3 uses of the experimental tasks API, which the v2 SDK removed (SEP-2663); the server does not build until they go',
    );
    expect(blocking).toBeGreaterThan(-1);
    // The official codemod's markers are at their comment; ours at the statement below it.
    expect(summary.slice(blocking + 1, blocking + 4)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^  ${at('@mcp-codemod-error Unknown SDK import path')}:4  mcp-codemod-error  Unknown SDK import path: @modelcontextprotocol/sdk/experimental/tasks/`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^  ${at('const taskStore = new InMemoryTaskStore();')}:1  tasks-api-left  \`new InMemoryTaskStore\\(\\)\` is the v1 SDK's`),
      ),
      expect.stringMatching(new RegExp(`^  ${at("@mcp-codemod-error Remove 'taskStore'")}:6  mcp-codemod-error  Remove 'taskStore' from McpServer options`)),
    ]);
    // Said once: not again among the official codemod's other leftovers.
    expect(summary.filter((l) => l.includes('tasks-api-left'))).toHaveLength(1);
    expect(summary).toContain(
      '  2. Remove the code on the experimental tasks API (3 uses under "Blocking the build"), or move it to the tasks extension: the server does not build on the v2 SDK until it goes.',
    );
    expect(run.code).toBe(1);
  });

  it('is reported by check', async () => {
    const check = await cli(dir, 'check', 'src');
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^src\/server\.ts:\d+:\d+ {2}mrtr-todo\/tasks-api {2}`new InMemoryTaskStore\(\)`/m);
  });
});
