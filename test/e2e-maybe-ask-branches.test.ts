// A server whose tools resolve the folder they work in through a shared helper that takes it
// from the argument, a fallback or a search (logged: it runs once), and checks the argument and
// the folder found against the client's roots at two points, one in each branch, through a check
// that answers without asking when the client declares no roots; another tool asks the check
// itself, and a wrapper asks through the helper with a label of its own (logged: it runs once).
// Migrated, the helper's request half says which point asked (`carried.at`, beside the folder
// found) and its result half goes on from that point; the wrapper's label travels beside that.
// Run through the real client, the migrated server gives the original's results, asks its
// questions and does its work once each, on both eras: each branch asking, the fallback
// answering without asking, roots that deny the folder, and a client without roots.
import { describe, expect, it } from 'vitest';
import type { ClientScript, Era, ToolCall } from './support/harness.ts';
import { expectSameOnBothEras, runLogged, texts, type LoggingServer } from './support/logged-run.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "folders", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createStore } from './shared/store.js';
import { registerTools } from './tools.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'folders', version: '1.0.0' });
  registerTools(server, createStore(log));
  return server;
}
`,
  'src/shared/store.ts': `// The folders on disk: each effect is logged.
export interface Store {
  search(): string | undefined;
  label(text: string): string;
  note(text: string): void;
  list(folder: string): Promise<string[]>;
}

export function createStore(log: string[]): Store {
  return {
    search() {
      log.push('search');
      return '/srv/found';
    },
    label(text) {
      log.push(\`label:\${text}\`);
      return text.toUpperCase();
    },
    note(text) {
      log.push(\`note:\${text}\`);
    },
    async list(folder) {
      log.push(\`list:\${folder}\`);
      return folder === '/srv/found' ? ['found.txt'] : ['a.txt', 'b.txt'];
    },
  };
}
`,
  'src/shared/folders.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Store } from './store.js';

async function allowedRoots(server: McpServer): Promise<string[]> {
  let roots: string[];
  if (server.server.getClientCapabilities()?.roots) {
    const { roots: listed } = await server.server.listRoots();
    roots = listed.map((root) => new URL(root.uri).pathname);
  } else {
    roots = ['/srv'];
  }
  return roots.filter((root) => root !== '');
}

export async function isAllowedFolder(server: McpServer, folder: string): Promise<boolean> {
  const roots = await allowedRoots(server);
  const resolved = folder.endsWith('/') ? folder : \`\${folder}/\`;
  return roots.some((root) => resolved.startsWith(root.endsWith('/') ? root : \`\${root}/\`));
}

export async function resolveFolder(
  server: McpServer,
  store: Store,
  folder: string | undefined,
  fallback: string | undefined,
): Promise<{ folder: string; files: string[] }> {
  let chosen: string;
  let files: string[];

  if (folder) {
    if (!folder.startsWith('/')) {
      throw new Error(\`Not an absolute folder: \${folder}\`);
    }
    if (!(await isAllowedFolder(server, folder))) {
      throw new Error(\`Outside the allowed roots: \${folder}\`);
    }
    chosen = folder;
    store.note(\`argument:\${chosen}\`);
    files = await store.list(chosen);
  } else if (fallback) {
    chosen = fallback;
    files = [];
  } else {
    const found = store.search();

    if (!found) {
      throw new Error('No folder to work in.');
    }

    if (!(await isAllowedFolder(server, found))) {
      throw new Error(\`The folder found is outside the allowed roots: \${found}\`);
    }
    chosen = found;
    files = await store.list(chosen);
  }

  store.note(\`resolved:\${chosen}\`);
  return { folder: chosen, files };
}

export async function labelledFolder(server: McpServer, store: Store, label: string, folder: string | undefined): Promise<string> {
  const tag = store.label(label);
  const resolved = await resolveFolder(server, store, folder, undefined);
  return \`\${tag} \${resolved.folder}\`;
}
`,
  'src/tools.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { isAllowedFolder, labelledFolder, resolveFolder } from './shared/folders.js';
import type { Store } from './shared/store.js';

export function registerTools(server: McpServer, store: Store): void {
  server.registerTool(
    'list_folder',
    { inputSchema: z.object({ folder: z.string().optional(), fallback: z.string().optional() }) },
    async ({ folder, fallback }) => {
      const resolved = await resolveFolder(server, store, folder, fallback);
      store.note(\`listed:\${resolved.folder}\`);
      return { content: [{ type: 'text', text: \`\${resolved.folder}: \${resolved.files.join(', ')}\` }] };
    },
  );

  server.registerTool('label_folder', { inputSchema: z.object({ label: z.string(), folder: z.string().optional() }) }, async ({ label, folder }) => {
    return { content: [{ type: 'text', text: await labelledFolder(server, store, label, folder) }] };
  });

  server.registerTool('check_folder', { inputSchema: z.object({ folder: z.string() }) }, async ({ folder }) => {
    const allowed = await isAllowedFolder(server, folder);
    return { content: [{ type: 'text', text: allowed ? \`\${folder} is allowed\` : \`\${folder} is not allowed\` }] };
  });
}
`,
};

const CALLS: ToolCall[] = [
  { name: 'list_folder', arguments: { folder: '/srv/app' } },
  { name: 'list_folder', arguments: {} },
  { name: 'list_folder', arguments: { fallback: '/srv/fallback' } },
  { name: 'list_folder', arguments: { folder: 'app' } },
  { name: 'check_folder', arguments: { folder: '/srv/app' } },
  { name: 'label_folder', arguments: { label: 'app', folder: '/srv/app' } },
  { name: 'label_folder', arguments: { label: 'found' } },
];

const pair = migratedPair<LoggingServer>('maybe-ask-branches-', PROJECT);
const { read, load } = pair;

const TS_FILES = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));

/** The client's roots: the folders under /srv allowed, or only a home folder (which denies them). */
const ALLOWING: ClientScript['roots'] = [{ uri: 'file:///srv', name: 'srv' }];
const DENYING: ClientScript['roots'] = [{ uri: 'file:///home', name: 'home' }];

const run = (roots: ClientScript['roots'], declaresRoots: boolean) => (server: LoggingServer, era: Era) => runLogged(server, era, CALLS, roots, declaresRoots);

describe('a helper that may ask at one of two points, one in each branch of an if', () => {
  it('is split: the request half says which point asked, the result half goes on from it', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/shared/folders.ts', 'migrated', undefined]]);
    const folders = await read('migrated', 'src/shared/folders.ts');
    expect(folders).toContain(
      [
        'export async function resolveFolderRequest(',
        '  server: McpServer, store: Store, folder: string | undefined, fallback: string | undefined, mrtrCtx?: ServerContext,',
        '): Promise<{ ask: InputRequest; carried: { at: 1 } | { at: 2; found: string } } | { value: { folder: string; files: string[] } }> {',
        '  let chosen: string;',
        '  let files: string[];',
        '',
        '  if (folder) {',
        "    if (!folder.startsWith('/')) {",
        '      throw new Error(`Not an absolute folder: ${folder}`);',
        '    }',
        '    const mrtrOutcome = await isAllowedFolderRequest(server, folder, mrtrCtx);',
        "    return 'ask' in mrtrOutcome ? { ...mrtrOutcome, carried: { at: 1 } } : { value: await resolveFolderThen1(mrtrOutcome.value, store, folder) };",
        '  } else if (fallback) {',
        '    chosen = fallback;',
        '    files = [];',
        '  } else {',
        '    const found = store.search();',
        '',
        '    if (!found) {',
        "      throw new Error('No folder to work in.');",
        '    }',
        '',
        '    const mrtrOutcome = await isAllowedFolderRequest(server, found, mrtrCtx);',
        "    return 'ask' in mrtrOutcome ? { ...mrtrOutcome, carried: { at: 2, found } } : { value: await resolveFolderThen2(mrtrOutcome.value, store, { found }) };",
        '  }',
        '',
        '  store.note(`resolved:${chosen}`);',
        '  return { value: { folder: chosen, files } };',
        '}',
        '',
        'export async function resolveFolderResult(mrtrAnswer: ListRootsResult, store: Store, folder: string | undefined, mrtrCarried: { at: 1 } | { at: 2; found: string }): Promise<{ folder: string; files: string[] }> {',
        '  if (mrtrCarried.at === 1) return resolveFolderThen1(isAllowedFolderResult(mrtrAnswer, folder!), store, folder!);',
        '  const { found } = mrtrCarried;',
        '  return resolveFolderThen2(isAllowedFolderResult(mrtrAnswer, found), store, mrtrCarried);',
        '}',
        '',
        'export async function resolveFolderThen1(mrtrValue: ReturnType<typeof isAllowedFolderResult>, store: Store, folder: NonNullable<string | undefined>): Promise<{ folder: string; files: string[] }> {',
        '  if (!mrtrValue) {',
        '    throw new Error(`Outside the allowed roots: ${folder}`);',
        '  }',
        '  const chosen: string = folder;',
        '  store.note(`argument:${chosen}`);',
        '  const files: string[] = await store.list(chosen);',
        '',
        '  store.note(`resolved:${chosen}`);',
        '  return { folder: chosen, files };',
        '}',
        '',
        'export async function resolveFolderThen2(mrtrValue: ReturnType<typeof isAllowedFolderResult>, store: Store, { found }: { found: string }): Promise<{ folder: string; files: string[] }> {',
        '  if (!mrtrValue) {',
        '    throw new Error(`The folder found is outside the allowed roots: ${found}`);',
        '  }',
        '  const chosen: string = found;',
        '  const files: string[] = await store.list(chosen);',
        '',
        '  store.note(`resolved:${chosen}`);',
        '  return { folder: chosen, files };',
        '}',
      ].join('\n'),
    );
    const tools = await read('migrated', 'src/tools.ts');
    expect(tools).toContain(
      [
        '        const mrtrOutcome = await resolveFolderRequest(server, store, folder, fallback, ctx);',
        "        if ('ask' in mrtrOutcome) return mrtr.ask('resolved', { mrtrCarried: mrtrOutcome.carried }, { resolved: mrtrOutcome.ask });",
        "        mrtr.decided('resolved', {}, { resolved: mrtrOutcome.value });",
        '      }',
        "      const mrtrAnswer = mrtr.value('resolved', 'roots', (answer: ListRootsResult) => resolveFolderResult(answer, store, folder, mrtr.locals<{ mrtrCarried: { at: 1 } | { at: 2; found: string } }>().mrtrCarried));",
      ].join('\n'),
    );
    // A wrapper with a local of its own that runs once: it travels beside what the helper carries.
    expect(folders).toContain(
      [
        'export async function labelledFolderRequest(server: McpServer, store: Store, label: string, folder: string | undefined, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest; carried: { tag: string; mrtrCarried: { at: 1 } | { at: 2; found: string } } } | { value: string }> {',
        '  const tag = store.label(label);',
        '  const mrtrOutcome = await resolveFolderRequest(server, store, folder, undefined, mrtrCtx);',
        "  return 'ask' in mrtrOutcome ? { ...mrtrOutcome, carried: { tag, mrtrCarried: mrtrOutcome.carried } } : { value: labelledFolderThen(mrtrOutcome.value, { tag }) };",
        '}',
        '',
        'export async function labelledFolderResult(mrtrAnswer: ListRootsResult, store: Store, folder: string | undefined, mrtrCarried: { tag: string; mrtrCarried: { at: 1 } | { at: 2; found: string } }): Promise<string> {',
        '  return labelledFolderThen(await resolveFolderResult(mrtrAnswer, store, folder, mrtrCarried.mrtrCarried), mrtrCarried);',
        '}',
        '',
        'export function labelledFolderThen(resolved: Awaited<ReturnType<typeof resolveFolderResult>>, { tag }: { tag: string }): string {',
        '  return `${tag} ${resolved.folder}`;',
        '}',
      ].join('\n'),
    );
    for (const file of [folders, tools]) expect(file).not.toMatch(/@mrtr-todo/);
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(TS_FILES)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  const ROOTS_LIST = { method: 'roots/list', params: {} };

  it('asks at the argument branch and at the search branch, the search once, and a client without roots not at all, on both eras', async () => {
    const original = await run(ALLOWING, true)(await load('original'), 'legacy');
    expect(texts(original)).toEqual([
      '/srv/app: a.txt, b.txt',
      '/srv/found: found.txt',
      '/srv/fallback: ',
      'Not an absolute folder: app',
      '/srv/app is allowed',
      'APP /srv/app',
      'FOUND /srv/found',
    ]);
    // The fallback and the relative folder are decided without asking.
    expect(original.questions).toEqual(Array.from({ length: 5 }, () => ROOTS_LIST));
    expect(original.log).toEqual([
      ...['note:argument:/srv/app', 'list:/srv/app', 'note:resolved:/srv/app', 'note:listed:/srv/app'],
      ...['search', 'list:/srv/found', 'note:resolved:/srv/found', 'note:listed:/srv/found'],
      ...['note:resolved:/srv/fallback', 'note:listed:/srv/fallback'],
      ...['label:app', 'note:argument:/srv/app', 'list:/srv/app', 'note:resolved:/srv/app'],
      ...['label:found', 'search', 'list:/srv/found', 'note:resolved:/srv/found'],
    ]);
    await expectSameOnBothEras(original, await load('migrated'), run(ALLOWING, true));
    // A client that declares no roots is not asked: each point goes on with the default root.
    const unasked = await run(ALLOWING, false)(await load('original'), 'legacy');
    expect(texts(unasked)).toEqual(texts(original));
    expect(unasked.questions).toEqual([]);
    await expectSameOnBothEras(unasked, await load('migrated'), run(ALLOWING, false));
  });

  it('refuses the folder at either point when the roots deny it, on both eras', async () => {
    const original = await run(DENYING, true)(await load('original'), 'legacy');
    expect(texts(original)).toEqual([
      'Outside the allowed roots: /srv/app',
      'The folder found is outside the allowed roots: /srv/found',
      '/srv/fallback: ',
      'Not an absolute folder: app',
      '/srv/app is not allowed',
      'Outside the allowed roots: /srv/app',
      'The folder found is outside the allowed roots: /srv/found',
    ]);
    expect(original.questions).toEqual(Array.from({ length: 5 }, () => ROOTS_LIST));
    expect(original.log).toEqual(['search', 'note:resolved:/srv/fallback', 'note:listed:/srv/fallback', 'label:app', 'label:found', 'search']);
    await expectSameOnBothEras(original, await load('migrated'), run(DENYING, true));
  });
});
