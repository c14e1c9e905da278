// A server whose tools open a workspace through a helper that may answer without asking: it
// notes the opening, asks the client's roots when the client declares them (else takes a
// default), then awaits the load of the root's files and returns what it derives of them. A
// shared wrapper awaits the helper and then the root's owner; two tools in two modules call the
// wrapper, a third the helper through a local one that returns its call. Migrated by the
// engine, the helper's result half is async: what it awaited after the question runs there,
// once, on the round that receives the answer, and every caller awaits it. Run through the real
// client, the migrated server gives the original's results, asks its questions and does its
// work once each, on both eras.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { ClientScript, Era, ToolCall } from './support/harness.ts';
import { expectSameOnBothEras, runLogged, texts, type LoggedRecording } from './support/logged-run.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "shelf", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createStore } from './shared/store.js';
import { registerCatalogTools } from './tools/catalog.js';
import { registerReportTools } from './tools/report.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'shelf', version: '1.0.0' });
  const store = createStore(log);
  registerCatalogTools(server, store);
  registerReportTools(server, store);
  return server;
}
`,
  'src/shared/store.ts': `// The files under each root, and their owners: each effect is logged.
const FILES: Record<string, string[]> = {
  '/srv/app': ['index.ts', '.env', 'README.md'],
  '/srv/default': ['notes.txt'],
};

export interface Store {
  note(text: string): void;
  load(root: string): Promise<string[]>;
  owner(root: string): Promise<string>;
}

export function createStore(log: string[]): Store {
  return {
    note(text) {
      log.push(\`note:\${text}\`);
    },
    async load(root) {
      log.push(\`load:\${root}\`);
      return FILES[root] ?? [];
    },
    async owner(root) {
      log.push(\`owner:\${root}\`);
      return root === '/srv/app' ? 'app-team' : 'nobody';
    },
  };
}
`,
  'src/shared/workspace.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Store } from './store.js';

export interface Workspace {
  root: string;
  files: string[];
}

const DEFAULT_ROOT = '/srv/default';

export async function openWorkspace(server: McpServer, store: Store, label: string): Promise<Workspace> {
  store.note(\`open:\${label}\`);
  let root: string;
  if (server.server.getClientCapabilities()?.roots) {
    const { roots } = await server.server.listRoots();
    root = roots.map((r) => new URL(r.uri).pathname)[0] ?? DEFAULT_ROOT;
  } else {
    root = DEFAULT_ROOT;
  }
  const files = await store.load(root);
  return { root, files: files.filter((file) => !file.startsWith('.')) };
}

export async function workspaceSummary(server: McpServer, store: Store, label: string): Promise<string> {
  const workspace = await openWorkspace(server, store, label);
  const owner = await store.owner(workspace.root);
  return \`\${workspace.root} (\${owner}): \${workspace.files.join(', ')}\`;
}
`,
  'src/tools/catalog.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Store } from '../shared/store.js';
import { workspaceSummary } from '../shared/workspace.js';

export function registerCatalogTools(server: McpServer, store: Store): void {
  server.registerTool('catalog', { inputSchema: z.object({}) }, async () => {
    const summary = await workspaceSummary(server, store, 'catalog');
    return { content: [{ type: 'text', text: summary }] };
  });
}
`,
  'src/tools/report.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Store } from '../shared/store.js';
import { openWorkspace, workspaceSummary, type Workspace } from '../shared/workspace.js';

// The helper's outcome handed on as it is: its result half is the helper's, awaited.
async function countedWorkspace(server: McpServer, store: Store): Promise<Workspace> {
  return await openWorkspace(server, store, 'count');
}

export function registerReportTools(server: McpServer, store: Store): void {
  server.registerTool('report', { inputSchema: z.object({ title: z.string() }) }, async ({ title }) => {
    const summary = await workspaceSummary(server, store, 'report');
    store.note(\`report:\${title}\`);
    return { content: [{ type: 'text', text: \`\${title}: \${summary}\` }] };
  });

  server.registerTool('count_files', { inputSchema: z.object({}) }, async () => {
    const { root, files } = await countedWorkspace(server, store);
    return { content: [{ type: 'text', text: \`\${files.length} files in \${root}\` }] };
  });
}
`,
};

const CALLS: ToolCall[] = [
  { name: 'catalog', arguments: {} },
  { name: 'report', arguments: { title: 'Weekly' } },
  { name: 'count_files', arguments: {} },
];

const ROOTS: ClientScript['roots'] = [{ uri: 'file:///srv/app', name: 'app' }];

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('maybe-ask-async-', PROJECT);
const { read, load } = pair;

const TS_FILES = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));

/** The calls run on one server; `declaresRoots: false` for a client that does not declare roots. */
const run = (server: ServerModule, era: Era, declaresRoots = true) => runLogged(server, era, CALLS, ROOTS, declaresRoots);

const expectSame = async (original: LoggedRecording, declaresRoots = true) =>
  expectSameOnBothEras(original, await load('migrated'), (server, era) => run(server, era, declaresRoots));

describe('a helper that may ask and awaits more after its question', () => {
  it('is split with an async result half, which the wrapper and every handler await', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/shared/workspace.ts', 'migrated', undefined]]);
    const workspace = await read('migrated', 'src/shared/workspace.ts');
    expect(workspace).toContain(
      [
        'export async function openWorkspaceRequest(server: McpServer, store: Store, label: string, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest } | { value: Workspace }> {',
        '  store.note(`open:${label}`);',
        '  let root: string;',
        '  if (((mrtrCtx?.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities())?.roots) {',
        '    return { ask: inputRequired.listRoots() };',
        '  } else {',
        '    root = DEFAULT_ROOT;',
        '  }',
        '  const files = await store.load(root);',
        "  return { value: { root, files: files.filter((file) => !file.startsWith('.')) } };",
        '}',
        '',
        'export async function openWorkspaceResult({ roots }: ListRootsResult, store: Store): Promise<Workspace> {',
        '  const root: string = roots.map((r) => new URL(r.uri).pathname)[0] ?? DEFAULT_ROOT;',
        '  const files = await store.load(root);',
        "  return { root, files: files.filter((file) => !file.startsWith('.')) };",
        '}',
      ].join('\n'),
    );
    expect(workspace).toContain(
      [
        'export async function workspaceSummaryRequest(server: McpServer, store: Store, label: string, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest } | { value: string }> {',
        '  const mrtrOutcome = await openWorkspaceRequest(server, store, label, mrtrCtx);',
        "  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: await workspaceSummaryThen(mrtrOutcome.value, store) };",
        '}',
        '',
        'export async function workspaceSummaryResult(mrtrAnswer: ListRootsResult, store: Store): Promise<string> {',
        '  return workspaceSummaryThen(await openWorkspaceResult(mrtrAnswer, store), store);',
        '}',
        '',
        'export async function workspaceSummaryThen(workspace: Awaited<ReturnType<typeof openWorkspaceResult>>, store: Store): Promise<string> {',
        '  const owner = await store.owner(workspace.root);',
        "  return `${workspace.root} (${owner}): ${workspace.files.join(', ')}`;",
        '}',
      ].join('\n'),
    );
    const catalog = await read('migrated', 'src/tools/catalog.ts');
    expect(catalog).toContain(
      [
        "    const mrtrAnswer = mrtr.value('summary', 'roots', (answer: ListRootsResult) => workspaceSummaryResult(answer, store));",
        '    if (mrtrAnswer === undefined) return mrtr.askAgain();',
        '    const summary = await mrtrAnswer.value;',
        "    return { content: [{ type: 'text', text: summary }] };",
      ].join('\n'),
    );
    const report = await read('migrated', 'src/tools/report.ts');
    // A local helper that hands the outcome on as it is: its request half returns the helper's, its result half awaits the helper's.
    expect(report).toContain(
      [
        'function countedWorkspaceRequest(server: McpServer, store: Store, mrtrCtx?: ServerContext) {',
        "  return openWorkspaceRequest(server, store, 'count', mrtrCtx);",
        '}',
        '',
        'async function countedWorkspaceResult(mrtrAnswer: ListRootsResult, store: Store): Promise<Workspace> {',
        '  return await openWorkspaceResult(mrtrAnswer, store);',
        '}',
      ].join('\n'),
    );
    expect(report).toContain(['    const summary = await mrtrAnswer.value;', '    store.note(`report:${title}`);'].join('\n'));
    expect(report).toContain(
      [
        "    const mrtrAnswer = mrtr.value('root', 'roots', (answer: ListRootsResult) => countedWorkspaceResult(answer, store));",
        '    if (mrtrAnswer === undefined) return mrtr.askAgain();',
        '    const { root, files } = await mrtrAnswer.value;',
      ].join('\n'),
    );
    for (const file of [workspace, catalog, report]) expect(file).not.toMatch(/@mrtr-todo/);
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(TS_FILES)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did, loads once after each answer and notes each opening once, on both eras, with and without roots', async () => {
    const original = await run(await load('original'), 'legacy');
    expect(texts(original)).toEqual(['/srv/app (app-team): index.ts, README.md', 'Weekly: /srv/app (app-team): index.ts, README.md', '2 files in /srv/app']);
    expect(original.questions).toEqual(Array.from({ length: 3 }, () => ({ method: 'roots/list', params: {} })));
    expect(original.log).toEqual([
      'note:open:catalog',
      'load:/srv/app',
      'owner:/srv/app',
      'note:open:report',
      'load:/srv/app',
      'owner:/srv/app',
      'note:report:Weekly',
      'note:open:count',
      'load:/srv/app',
    ]);
    await expectSame(original);
    // A client that declares no roots is not asked: the request half loads the default root, as the helper did.
    const unasked = await run(await load('original'), 'legacy', false);
    expect(unasked.questions).toEqual([]);
    expect(texts(unasked)).toEqual(['/srv/default (nobody): notes.txt', 'Weekly: /srv/default (nobody): notes.txt', '1 files in /srv/default']);
    expect(unasked.log).toEqual([
      'note:open:catalog',
      'load:/srv/default',
      'owner:/srv/default',
      'note:open:report',
      'load:/srv/default',
      'owner:/srv/default',
      'note:report:Weekly',
      'note:open:count',
      'load:/srv/default',
    ]);
    await expectSame(unasked, false);
  });
});
