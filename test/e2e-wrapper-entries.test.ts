// Legacy entries on the way to a request (see plan/push-template.ts): a workspace resolver that
// asks through `isAllowed()` at one of two points, taking a destructured, optional `server`; a
// tool function of another module that asks through the resolver and that no module of the run
// imports; a handler the codemod refuses (it holds a Date across the question); a test outside
// the handlers (the first call the resolver's marker names). Each helper is split for the handlers that can ask through its halves and kept
// under its name for the rest, pushing the innermost request from its own parameters
// (`server!.server.listRoots()`, `context.server.server.listRoots()`). Through the real client,
// the migrated server answers as the original did on both eras; a caller the run never saw calls
// the kept tool function; a second run changes nothing.
import { cpSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { runCalls, type Era, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';
import { putFile } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "workspaces", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerAuditTool } from './tools/audit.js';
import { registerOpenTool } from './tools/open.js';
import { registerOutsideTool } from '../outside/register.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'workspaces', version: '1.0.0' });
  registerOpenTool(server, log);
  registerAuditTool(server, log);
  registerOutsideTool(server, log);
  return server;
}
`,
  'src/lib/workspace.ts': `import type { McpServer } from '@modelcontextprotocol/server';

async function allowedRoots(server: McpServer): Promise<string[]> {
  let roots: string[];
  if (server.server.getClientCapabilities()?.roots) {
    const { roots: listed } = await server.server.listRoots();
    roots = listed.map((r) => r.uri.slice('file://'.length));
  } else {
    roots = ['/srv'];
  }
  return roots;
}

export async function isAllowed(server: McpServer, folder: string): Promise<boolean> {
  const roots = await allowedRoots(server);
  return roots.some((root) => folder.startsWith(root));
}

export async function resolveWorkspace({ server, folder, log }: { server?: McpServer; folder?: string; log: string[] }): Promise<string> {
  log.push(\`resolve:\${folder ?? '?'}\`);
  let chosen: string;
  if (folder) {
    if (server) {
      if (!(await isAllowed(server, folder))) throw new Error(\`\${folder} is outside the roots\`);
    }
    chosen = folder;
  } else {
    const found = '/home/ada/project/app';
    if (server && !(await isAllowed(server, found))) throw new Error(\`\${found} is outside the roots\`);
    chosen = found;
  }
  log.push(\`resolved:\${chosen}\`);
  return chosen;
}
`,
  'src/lib/workspace.test.ts': `import { resolveWorkspace } from './workspace.js';

declare const test: (name: string, run: () => Promise<void>) => void;

test('takes the folder it is given without a server', async () => {
  await resolveWorkspace({ folder: '/srv/given', log: [] });
});
`,
  'src/tools/open.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { resolveWorkspace } from '../lib/workspace.js';

export interface ToolContext {
  server: McpServer;
  log: string[];
}

export async function openWorkspace(input: { folder?: string }, context: ToolContext): Promise<string> {
  const workspace = await resolveWorkspace({ server: context.server, folder: input.folder, log: context.log });
  context.log.push(\`open:\${workspace}\`);
  return \`opened \${workspace}\`;
}

export function registerOpenTool(server: McpServer, log: string[]): void {
  server.registerTool('open', { inputSchema: z.object({ folder: z.string().optional() }) }, async (input) => {
    const text = await openWorkspace(input, { server, log });
    return { content: [{ type: 'text', text }] };
  });
}
`,
  'src/tools/audit.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { resolveWorkspace } from '../lib/workspace.js';

export function registerAuditTool(server: McpServer, log: string[]): void {
  server.registerTool('audit', { inputSchema: z.object({ folder: z.string().optional() }) }, async ({ folder }) => {
    const started = new Date();
    const workspace = await resolveWorkspace({ server, folder, log });
    log.push(\`audit:\${workspace}\`);
    return { content: [{ type: 'text', text: \`audited \${workspace}\${started.getTime() > 0 ? '' : ' before 1970'}\` }] };
  });
}
`,
  // Outside the paths the codemod is given: it calls the tool function the run sees no import of.
  'outside/register.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { openWorkspace } from '../src/tools/open.js';

export function registerOutsideTool(server: McpServer, log: string[]): void {
  server.registerTool('open_outside', { inputSchema: z.object({ folder: z.string().optional() }) }, async (input) => {
    return { content: [{ type: 'text', text: await openWorkspace(input, { server, log }) }] };
  });
}
`,
};

const MIGRATED_RESOLVE_ENTRY = `// @mrtr-todo(legacy-entry): \`resolveWorkspace()\` kept for workspace.test.ts:6, which cannot use its halves — migrate it, then drop this
export async function resolveWorkspace({ server, folder, log }: { server?: McpServer; folder?: string; log: string[] }): Promise<string> {
  const mrtrOutcome = await resolveWorkspaceRequest({ server, folder, log });
  if ('value' in mrtrOutcome) return mrtrOutcome.value;
  return resolveWorkspaceResult(await server!.server.listRoots(), { server, folder, log }, mrtrOutcome.carried);
}
`;

const MIGRATED_OPEN_ENTRY = `// @mrtr-todo(legacy-entry): \`openWorkspace()\` kept for callers outside this run (no module of it imports it) — drop it once none calls it
export async function openWorkspace(input: { folder?: string }, context: ToolContext): Promise<string> {
  const mrtrOutcome = await openWorkspaceRequest(input, context);
  if ('value' in mrtrOutcome) return mrtrOutcome.value;
  return openWorkspaceResult(await context.server.server.listRoots(), input, context, mrtrOutcome.carried);
}
`;

const pair = migratedPair<{ createServer(log: string[]): McpServer }>('wrapper-entries-', PROJECT);

const ask = (name: string, folder?: string): ToolCall => ({ name, arguments: folder === undefined ? {} : { folder } });
/** Each tool: found by itself, given one inside the roots, given one outside them (refused with an error). */
const CALLS: ToolCall[] = ['open', 'audit', 'open_outside'].flatMap((name) => [ask(name), ask(name, '/home/ada/project/web'), ask(name, '/etc')]);

const run = async (tree: 'original' | 'migrated', era: Era, calls = CALLS) => {
  const log: string[] = [];
  const server = await pair.load(tree);
  const recording = await runCalls(() => server.createServer(log), era, calls, { roots: [{ uri: 'file:///home/ada/project' }] });
  return { results: recording.results, questions: recording.questions, log };
};

const texts = (results: unknown[]) => results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text);

describe('helpers on the way to a request, kept under their names for the calls that cannot ask through them', () => {
  it('splits the resolver and the tool function, each kept as an entry, marked, and migrates the handler that can', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/lib/workspace.ts', 19, 'marked', 'legacy-entry'],
      ['src/lib/workspace.ts', 6, 'migrated', undefined],
      ['src/tools/audit.ts', 8, 'marked', 'unserialisable-local'],
      ['src/tools/open.ts', 10, 'marked', 'legacy-entry'],
    ]);
    const workspace = await pair.read('migrated', 'src/lib/workspace.ts');
    expect(workspace).toContain(MIGRATED_RESOLVE_ENTRY);
    // Every request half takes the context as an optional last parameter: an entry has none to hand on.
    expect(workspace).toContain('async function allowedRootsRequest(server: McpServer, mrtrCtx?: ServerContext)');
    expect(workspace).toContain('export async function isAllowedRequest(server: McpServer, folder: string, mrtrCtx?: ServerContext)');
    const open = await pair.read('migrated', 'src/tools/open.ts');
    expect(open).toContain(MIGRATED_OPEN_ENTRY);
    expect(open).toContain('const mrtrOutcome = await openWorkspaceRequest(input, { server, log }, ctx);');
    expect(await pair.read('migrated', 'src/lib/workspace.test.ts')).toBe(PROJECT['src/lib/workspace.test.ts']);
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = Object.keys(PROJECT).filter((f) => f.startsWith('src/') && f.endsWith('.ts'));
    expect(await pair.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
    // Both entries still push their request: the next run (and `check`) reports them.
    const again = await runCodemod({ paths: ['src'], write: false, cwd: path.join(pair.root, 'migrated') });
    expect(again.sites.filter((s) => s.status !== 'migrated').map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/lib/workspace.ts', 'marked', 'legacy-entry'],
      ['src/tools/audit.ts', 'marked', 'unserialisable-local'],
      ['src/tools/open.ts', 'marked', 'legacy-entry'],
    ]);
  });

  it('answers as the original on a 2025 connection: results, questions and effects', async () => {
    const original = await run('original', 'legacy');
    expect(texts(original.results)).toEqual([
      'opened /home/ada/project/app',
      'opened /home/ada/project/web',
      '/etc is outside the roots',
      'audited /home/ada/project/app',
      'audited /home/ada/project/web',
      '/etc is outside the roots',
      'opened /home/ada/project/app',
      'opened /home/ada/project/web',
      '/etc is outside the roots',
    ]);
    expect(original.questions).toHaveLength(9);
    expect(await run('migrated', 'legacy')).toEqual(original);
  });

  it('answers the migrated handler on a 2026-07-28 connection as the original did on 2025, and the entries as the original did there', async () => {
    const opens = CALLS.slice(0, 3);
    expect(await run('migrated', 'modern', opens)).toEqual(await run('original', 'legacy', opens));
    const kept = CALLS.slice(3);
    expect(await run('migrated', 'modern', kept)).toEqual(await run('original', 'modern', kept));
  });

  it('lets a handler fixed after the first run ask through the kept resolver on the next one, handing it the object', async () => {
    const next = path.join(pair.root, 'next');
    cpSync(path.join(pair.root, 'migrated'), next, { recursive: true });
    await putFile(
      next,
      'src/tools/audit.ts',
      PROJECT['src/tools/audit.ts']!.replace(/ {4}const started = new Date\(\);\n/, '').replace("${started.getTime() > 0 ? '' : ' before 1970'}", ''),
    );
    const again = await runCodemod({ paths: ['src'], write: true, cwd: next });
    expect(again.errors).toEqual([]);
    // It asks through the resolver's halves, so it has no site of its own: it is counted where it is.
    expect(again.askingThrough).toEqual([{ file: 'src/tools/audit.ts', handler: 'tool:audit', line: 6 }]);
    const audit = await readFile(path.join(next, 'src/tools/audit.ts'), 'utf8');
    expect(audit).toContain('const mrtrOutcome = await resolveWorkspaceRequest({ server, folder, log }, ctx);');
    expect(audit).toContain('resolveWorkspaceResult(answer, { server, folder, log }, ');
    expect(typecheck(['src/tools/audit.ts', 'src/lib/workspace.ts', 'src/mrtr-request-state.ts'].map((f) => path.join(next, f)))).toEqual([]);
  });
});
