// A helper that may ask the client's roots, taken with import() by an exported function of a
// second module that is no handler and works on after the answer; tools in two other modules
// call that function, and a third module's exported function calls it for a fourth module's
// tool. Each function on the way is split in turn (its request half binds the inner request half
// by the same import() statement, its result half loads the module again), and every handler
// asks through the halves of the function it calls: no marker is left, the migrated server
// typechecks, behaves as before on both eras, and a second run changes nothing.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCalls, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "rig", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerBuildTools } from './tools/build.js';
import { registerLintTools } from './tools/lint.js';
import { registerShipTools } from './tools/ship.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'rig', version: '1.0.0' });
  registerBuildTools(server, log);
  registerLintTools(server, log);
  registerShipTools(server, log);
  return server;
}
`,
  'src/context/root.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export interface FoundRoot {
  root?: string;
  hint?: string;
}

export async function findRoot(server: McpServer, explicit?: string): Promise<FoundRoot> {
  if (explicit) return { root: explicit };
  if (server.server.getClientCapabilities()?.roots) {
    const { roots } = await server.server.listRoots();
    const first = roots[0];
    if (first) return { root: new URL(first.uri).pathname };
  }
  return { hint: 'pass a root' };
}
`,
  'src/flows/prepare.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export interface Prepared {
  ok: boolean;
  text: string;
}

export async function prepareRun(server: McpServer, log: string[], explicit?: string): Promise<Prepared> {
  const { findRoot } = await import('../context/root.js');
  const found = await findRoot(server, explicit);
  if (!found.root) return { ok: false, text: found.hint ?? 'no root' };
  log.push(\`prepare:\${found.root}\`);
  return { ok: true, text: \`prepared \${found.root}\` };
}
`,
  'src/tools/build.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { prepareRun } from '../flows/prepare.js';

export function registerBuildTools(server: McpServer, log: string[]): void {
  server.registerTool('build', { inputSchema: z.object({ root: z.string().optional() }) }, async ({ root }) => {
    const prepared = await prepareRun(server, log, root);
    return { content: [{ type: 'text', text: prepared.text }] };
  });
}
`,
  'src/tools/lint.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { prepareRun } from '../flows/prepare.js';

export function registerLintTools(server: McpServer, log: string[]): void {
  server.registerTool('lint', { inputSchema: z.object({}) }, async () => {
    const prepared = await prepareRun(server, log);
    log.push(\`lint:\${prepared.ok}\`);
    return { content: [{ type: 'text', text: \`linted: \${prepared.text}\` }] };
  });
}
`,
  'src/flows/ship.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import { prepareRun } from './prepare.js';

export async function shipRun(server: McpServer, log: string[]): Promise<string> {
  const prepared = await prepareRun(server, log);
  log.push(\`ship:\${prepared.ok}\`);
  return prepared.ok ? 'shipped' : prepared.text;
}
`,
  'src/tools/ship.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { shipRun } from '../flows/ship.js';

export function registerShipTools(server: McpServer, log: string[]): void {
  server.registerTool('ship', { inputSchema: z.object({}) }, async () => {
    const text = await shipRun(server, log);
    return { content: [{ type: 'text', text }] };
  });
}
`,
};

const CALLS: ToolCall[] = [
  { name: 'build', arguments: {} },
  { name: 'build', arguments: { root: '/srv/given' } },
  { name: 'lint', arguments: {} },
  { name: 'ship', arguments: {} },
];

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('exported-wrapper-', PROJECT);
const { read, load } = pair;

const TS_FILES = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));

describe('a helper reached through an exported function of another module that is no handler', () => {
  it('is split with each function on the way; the server typechecks and behaves as before on both eras', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([['src/context/root.ts', 11, 'migrated', undefined]]);
    for (const file of TS_FILES) expect(await read('migrated', file), file).not.toContain('@mrtr-todo');
    const prepare = (await read('migrated', 'src/flows/prepare.ts')).split('\n');
    expect(prepare.filter((l) => l.includes("import('../context/root.js')"))).toEqual([
      "  const { findRootRequest } = await import('../context/root.js');",
      "  return prepareRunThen(await (await import('../context/root.js')).findRootResult(mrtrAnswer), log);",
      "export function prepareRunThen(found: Awaited<ReturnType<typeof import('../context/root.js').findRootResult>>, log: string[]): Prepared {",
    ]);
    expect(await read('migrated', 'src/flows/ship.ts')).toContain('export async function shipRunRequest(');
    const { errors, changed, migrated } = await pair.settled(TS_FILES);
    expect({ errors, changed, migrated }).toEqual({ errors: [], changed: [], migrated: [] });
    const roots = [{ uri: 'file:///srv/app', name: 'app' }];
    const runOn = async (server: ServerModule, era: 'legacy' | 'modern') => {
      const log: string[] = [];
      const recording = await runCalls(() => server.createServer(log), era, CALLS, { roots });
      return { results: recording.results, questions: recording.questions, log };
    };
    const original = await runOn(await load('original'), 'legacy');
    expect(original.log).toEqual(['prepare:/srv/app', 'prepare:/srv/given', 'prepare:/srv/app', 'lint:true', 'prepare:/srv/app', 'ship:true']);
    expect(original.questions.length).toBe(3);
    for (const era of ['modern', 'legacy'] as const) expect({ era, ...(await runOn(await load('migrated'), era)) }).toEqual({ era, ...original });
  });
});

// The helper bound with import() in a function of a handler module that handlers reach: that
// function is split too, its request half binding the helper's request half by the same
// statement and its result half loading the module again.
const WRAPPED: Record<string, string> = {
  'package.json': PROJECT['package.json']!,
  'src/context/root.ts': PROJECT['src/context/root.ts']!,
  'src/tools/scan.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { findRoot } from '../context/root.js';

export function registerScanTools(server: McpServer, log: string[]): void {
  server.registerTool('scan', { inputSchema: z.object({}) }, async () => {
    const found = await findRoot(server);
    log.push(\`scan:\${found.root}\`);
    return { content: [{ type: 'text', text: found.root ?? 'none' }] };
  });
}
`,
  'src/tools/audit.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

async function rootOf(server: McpServer): Promise<string> {
  const { findRoot } = await import('../context/root.js');
  const found = await findRoot(server);
  return found.root ?? 'none';
}

export function registerAuditTools(server: McpServer, log: string[]): void {
  server.registerTool('audit', { inputSchema: z.object({}) }, async () => {
    const root = await rootOf(server);
    log.push(\`audit:\${root}\`);
    return { content: [{ type: 'text', text: root }] };
  });
}
`,
};

const wrapped = migratedPair('import-wrapper-', WRAPPED);

describe('a helper bound with import() in a function its handlers reach', () => {
  it('is split with that function, which binds the halves by the same statement', async () => {
    expect(wrapped.result.errors).toEqual([]);
    // No module of this run builds the server: its wiring is the one marker left in each tool module.
    expect(wrapped.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/context/root.ts', 11, 'migrated', undefined],
      ['src/tools/audit.ts', 1, 'marked', 'server-elsewhere'],
      ['src/tools/scan.ts', 1, 'marked', 'server-elsewhere'],
    ]);
    const audit = (await wrapped.read('migrated', 'src/tools/audit.ts')).split('\n');
    expect(audit.filter((l) => l.includes("import('../context/root.js')"))).toEqual([
      "  const { findRootRequest } = await import('../context/root.js');",
      "  return rootOfThen(await (await import('../context/root.js')).findRootResult(mrtrAnswer));",
      "function rootOfThen(found: Awaited<ReturnType<typeof import('../context/root.js').findRootResult>>): string {",
    ]);
    expect(audit).toContain('      const mrtrOutcome = await rootOfRequest(server, ctx);');
  });
});
