// A server whose tools find their project through one helper that looks the name up first and
// asks the client for its roots only when none is given: two tool modules import it, a third
// takes it with import() inside its handler and keeps working after it (one await a step).
// Migrated by the engine, the helper is split once for all three: the handler that loads it
// with import() binds the halves by the same statement, which runs again on the retry. Through
// the real client, the migrated server gives the original's results, asks its questions and
// records each effect once, on both eras.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { migratedPair } from './support/migrated-pair.ts';
import type { ClientScript, Era, ToolCall } from './support/harness.ts';
import { expectSameOnBothEras, runLogged, texts, type LoggedRecording } from './support/logged-run.ts';

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "workbench", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createStore } from './shared/store.js';
import { registerBuildTools } from './tools/build.js';
import { registerMapTools } from './tools/map.js';
import { registerPlanTools } from './tools/plan.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'workbench', version: '1.0.0' });
  const store = createStore(log);
  registerBuildTools(server, store);
  registerMapTools(server, store);
  registerPlanTools(server, store);
  return server;
}
`,
  'src/shared/store.ts': `// Projects the tools know by name, and what they record: each effect is logged.
export interface Store {
  known: Map<string, string>;
  record(text: string): Promise<void>;
}

export function createStore(log: string[]): Store {
  return {
    known: new Map([['demo', '/srv/demo']]),
    async record(text) {
      log.push(text);
    },
  };
}
`,
  'src/shared/workspace.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Store } from './store.js';

export interface Workspace {
  root?: string;
  hint?: string;
}

export async function findWorkspace(server: McpServer, store: Store, name?: string): Promise<Workspace> {
  await store.record(\`lookup:\${name ?? '-'}\`);
  if (name) {
    const known = store.known.get(name);
    return known ? { root: known } : { hint: \`No project named \${name}.\` };
  }
  if (server.server.getClientCapabilities()?.roots) {
    const listed = await server.server.listRoots();
    const first = listed.roots.find((r) => r.uri.startsWith('file://'));
    if (first) return { root: new URL(first.uri).pathname };
  }
  return { hint: 'Pass a project name.' };
}
`,
  'src/tools/build.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Store } from '../shared/store.js';
import { findWorkspace } from '../shared/workspace.js';

export function registerBuildTools(server: McpServer, store: Store): void {
  server.registerTool('build', { inputSchema: z.object({ project: z.string().optional() }) }, async ({ project }) => {
    const workspace = await findWorkspace(server, store, project);
    if (!workspace.root) return { content: [{ type: 'text', text: workspace.hint ?? '' }], isError: true };
    await store.record(\`build:\${workspace.root}\`);
    return { content: [{ type: 'text', text: \`built \${workspace.root}\` }] };
  });
}
`,
  'src/tools/map.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Store } from '../shared/store.js';
import { findWorkspace } from '../shared/workspace.js';

export function registerMapTools(server: McpServer, store: Store): void {
  server.registerTool('map', { inputSchema: z.object({ project: z.string().optional() }) }, async ({ project }) => {
    const workspace = await findWorkspace(server, store, project);
    await store.record(\`map:\${workspace.root ?? 'none'}\`);
    return { content: [{ type: 'text', text: workspace.root ? \`mapped \${workspace.root}\` : 'nothing to map' }] };
  });
}
`,
  'src/tools/plan.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Store } from '../shared/store.js';

export function registerPlanTools(server: McpServer, store: Store): void {
  server.registerTool('plan', { inputSchema: z.object({ project: z.string().optional(), steps: z.number() }) }, async ({ project, steps }) => {
    const { findWorkspace } = await import('../shared/workspace.js');
    const workspace = await findWorkspace(server, store, project);
    if (!workspace.root) return { content: [{ type: 'text', text: workspace.hint ?? '' }], isError: true };
    for (let step = 1; step <= steps; step++) await store.record(\`plan:\${workspace.root}:\${step}\`);
    return { content: [{ type: 'text', text: \`planned \${steps} steps in \${workspace.root}\` }] };
  });
}
`,
};

/** By name (no question), through the client's roots (asked), and a name nobody knows; each tool. */
const CALLS: ToolCall[] = [
  { name: 'build', arguments: { project: 'demo' } },
  { name: 'build', arguments: {} },
  { name: 'map', arguments: { project: 'nope' } },
  { name: 'map', arguments: {} },
  { name: 'plan', arguments: { project: 'demo', steps: 2 } },
  { name: 'plan', arguments: { steps: 3 } },
  { name: 'plan', arguments: { project: 'nope', steps: 1 } },
];

const ROOTS: ClientScript['roots'] = [{ uri: 'file:///srv/app', name: 'app' }];

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('dynamic-import-callers-', PROJECT);
const { read, load } = pair;

/** The calls run on one server; `declaresRoots: false` for a client that does not declare roots. */
const run = (server: ServerModule, era: Era, declaresRoots = true) => runLogged(server, era, CALLS, ROOTS, declaresRoots);

const expectSame = async (original: LoggedRecording, declaresRoots = true) =>
  expectSameOnBothEras(original, await load('migrated'), (server, era) => run(server, era, declaresRoots));

describe('a helper that may ask, taken with import() by one of its callers', () => {
  it('is split for every caller: the handler that loads it binds the halves instead', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/shared/workspace.ts', 'migrated', undefined]]);
    const plan = await read('migrated', 'src/tools/plan.ts');
    expect(plan).toContain(
      [
        "    const mrtr = await mrtrResume(ctx, 'tool:plan', ['workspace'], { project, steps }, server);",
        '    if (mrtr.refused) return mrtr.refused;',
        "    const { findWorkspaceRequest, findWorkspaceResult } = await import('../shared/workspace.js');",
        '    if (mrtr.step === undefined) {',
        '      // @mrtr-note: roots are deprecated in MCP 2026-07-28 (SEP-2577): prefer taking the paths as tool parameters.',
        '      const mrtrOutcome = await findWorkspaceRequest(server, store, project, ctx);',
        "      if ('ask' in mrtrOutcome) return mrtr.ask('workspace', {}, { workspace: mrtrOutcome.ask });",
        "      mrtr.decided('workspace', {}, { workspace: mrtrOutcome.value });",
        '    }',
        "    const mrtrAnswer = mrtr.value('workspace', 'roots', findWorkspaceResult);",
        '    if (mrtrAnswer === undefined) return mrtr.askAgain();',
        '    const workspace = mrtrAnswer.value;',
      ].join('\n'),
    );
    // Nothing else is imported for it: the halves come from the handler's own import().
    expect(plan).not.toMatch(/^import .*workspace\.js/m);
    for (const tool of ['build', 'map']) {
      const text = await read('migrated', `src/tools/${tool}.ts`);
      expect(text).toContain("import { findWorkspaceRequest, findWorkspaceResult } from '../shared/workspace.js';");
      expect(text).toContain('const mrtrOutcome = await findWorkspaceRequest(server, store, project, ctx);');
    }
    for (const file of ['src/shared/workspace.ts', 'src/tools/build.ts', 'src/tools/map.ts', 'src/tools/plan.ts'])
      expect(await read('migrated', file)).not.toMatch(/@mrtr-todo/);
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(Object.keys(PROJECT).filter((f) => f.endsWith('.ts')))).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did and records each thing once, on both eras', async () => {
    const original = await run(await load('original'), 'legacy');
    expect(texts(original)).toEqual([
      'built /srv/demo',
      'built /srv/app',
      'nothing to map',
      'mapped /srv/app',
      'planned 2 steps in /srv/demo',
      'planned 3 steps in /srv/app',
      'No project named nope.',
    ]);
    expect(original.questions).toEqual(Array.from({ length: 3 }, () => ({ method: 'roots/list', params: {} })));
    expect(original.log).toEqual([
      'lookup:demo',
      'build:/srv/demo',
      'lookup:-',
      'build:/srv/app',
      'lookup:nope',
      'map:none',
      'lookup:-',
      'map:/srv/app',
      'lookup:demo',
      'plan:/srv/demo:1',
      'plan:/srv/demo:2',
      'lookup:-',
      'plan:/srv/app:1',
      'plan:/srv/app:2',
      'plan:/srv/app:3',
      'lookup:nope',
    ]);
    await expectSame(original);
  });

  it('goes on without asking where the client declares no roots, on both eras', async () => {
    const original = await run(await load('original'), 'legacy', false);
    expect(original.questions).toEqual([]);
    expect(texts(original)[5]).toBe('Pass a project name.');
    await expectSame(original, false);
  });
});
