// A server whose tools resolve their target through one helper that takes a destructured
// object (`resolveTarget({ desk, server, workspacePath, project = 'web', options: { verbose =
// false } = {} })`), looks the workspace up first, and gates it on the client's roots with
// `if (!(await isAllowedPath(server, workspace)))` before it goes on; another helper gates only
// when asked to (`if (strict && !(await isAllowedPath(...)))`); a third takes a pattern and asks
// first of all. Called from tools in two modules, with and without the optional properties.
// Migrated by the engine, each helper is split with its pattern taken by each half that reads
// it (`xThen` takes the names it reads), and the awaited gate is lifted out of the if's test
// into the value `xThen` tests (under `if (strict)` in the request half); run through the real
// client, the migrated server gives the original's results, asks its questions and does its
// work once each, on both eras.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { migratedPair } from './support/migrated-pair.ts';
import type { ClientScript, Era, ToolCall } from './support/harness.ts';
import { expectSameOnBothEras, runLogged, texts, type LoggedRecording } from './support/logged-run.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "desk", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createDesk } from './shared/desk.js';
import { registerBuildTools } from './tools/build.js';
import { registerDeployTools } from './tools/deploy.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'desk', version: '1.0.0' });
  const desk = createDesk(log);
  registerBuildTools(server, desk);
  registerDeployTools(server, desk);
  return server;
}
`,
  'src/shared/desk.ts': `// The workspaces the tools work on: each effect is logged.
export interface Desk {
  workspaces: Map<string, string[]>;
  note(text: string): void;
}

export function createDesk(log: string[]): Desk {
  return {
    workspaces: new Map([
      ['/srv/app', ['web', 'api']],
      ['/srv/app/nested', ['web', 'tool']],
      ['/etc', ['conf']],
    ]),
    note(text) {
      log.push(\`note:\${text}\`);
    },
  };
}
`,
  'src/shared/workspace.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Desk } from './desk.js';

const DEFAULT_WORKSPACE = '/srv/app';

async function allowedRoots(server: McpServer): Promise<string[]> {
  let roots: string[];
  const capabilities = server.server.getClientCapabilities();
  if (capabilities?.roots) {
    const { roots: listed } = await server.server.listRoots();
    roots = listed.map((root) => new URL(root.uri).pathname);
  } else {
    roots = ['/srv/default'];
  }
  return roots;
}

export async function isAllowedPath(server: McpServer, target: string): Promise<boolean> {
  const allowed = await allowedRoots(server);
  return allowed.some((root) => target === root || target.startsWith(\`\${root}/\`));
}

export async function resolveTarget({
  desk,
  server,
  workspacePath,
  project = 'web',
  options: { verbose = false } = {},
}: {
  desk: Desk;
  server: McpServer;
  workspacePath?: string;
  project?: string;
  options?: { verbose?: boolean };
}): Promise<{ workspace: string; project: string }> {
  const workspace = workspacePath ?? DEFAULT_WORKSPACE;
  const projects = desk.workspaces.get(workspace) ?? [];
  if (projects.length === 0) throw new Error(\`No workspace at \${workspace}.\`);
  if (!(await isAllowedPath(server, workspace))) {
    throw new Error(\`\${workspace} is outside the allowed roots.\`);
  }
  if (!projects.includes(project)) throw new Error(\`No project \${project} in \${workspace}.\`);
  desk.note(verbose ? \`resolved:\${workspace}:\${project} of \${projects.join(',')}\` : \`resolved:\${project}\`);
  return { workspace, project };
}
`,
  'src/tools/build.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Desk } from '../shared/desk.js';
import { resolveTarget } from '../shared/workspace.js';

async function rootNames({ server, scheme = 'file:' }: { server: McpServer; scheme?: string }): Promise<string[]> {
  const { roots } = await server.server.listRoots();
  return roots.filter((root) => root.uri.startsWith(scheme)).map((root) => root.name ?? root.uri);
}

export function registerBuildTools(server: McpServer, desk: Desk): void {
  server.registerTool('roots', { inputSchema: z.object({ scheme: z.string().optional() }) }, async ({ scheme }) => {
    const names = await rootNames({ server, scheme });
    desk.note(\`roots:\${names.length}\`);
    return { content: [{ type: 'text', text: names.join(', ') }] };
  });

  server.registerTool(
    'build',
    { inputSchema: z.object({ workspace: z.string().optional(), project: z.string().optional(), verbose: z.boolean().optional() }) },
    async ({ workspace, project, verbose }) => {
      const target = await resolveTarget({ desk, server, workspacePath: workspace, project, options: { verbose } });
      desk.note(\`build:\${target.project}\`);
      return { content: [{ type: 'text', text: \`Built \${target.project} in \${target.workspace}.\` }] };
    },
  );

  server.registerTool('test', { inputSchema: z.object({ workspace: z.string().optional() }) }, async ({ workspace }) => {
    const { project } = await resolveTarget({ desk, server, workspacePath: workspace });
    desk.note(\`test:\${project}\`);
    return { content: [{ type: 'text', text: \`Tested \${project}.\` }] };
  });
}
`,
  'src/tools/deploy.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Desk } from '../shared/desk.js';
import { isAllowedPath, resolveTarget } from '../shared/workspace.js';

async function releaseNotes({ desk, server, workspace, strict }: { desk: Desk; server: McpServer; workspace: string; strict?: boolean }): Promise<string> {
  const projects = desk.workspaces.get(workspace) ?? [];
  if (strict && !(await isAllowedPath(server, workspace))) {
    return \`\${workspace} is outside the allowed roots.\`;
  }
  desk.note(\`release:\${workspace}\`);
  return \`Released \${projects.join(', ')} of \${workspace}.\`;
}

export function registerDeployTools(server: McpServer, desk: Desk): void {
  server.registerTool('deploy', { inputSchema: z.object({ workspace: z.string(), project: z.string() }) }, async ({ workspace, project }) => {
    try {
      const target = await resolveTarget({ desk, server, workspacePath: workspace, project });
      desk.note(\`deploy:\${target.workspace}/\${target.project}\`);
      return { content: [{ type: 'text', text: \`Deployed \${target.project}.\` }] };
    } catch (error) {
      return { content: [{ type: 'text', text: (error as Error).message }], isError: true };
    }
  });

  server.registerTool('release', { inputSchema: z.object({ workspace: z.string(), strict: z.boolean().optional() }) }, async ({ workspace, strict }) => {
    const notes = await releaseNotes({ desk, server, workspace, strict });
    return { content: [{ type: 'text', text: notes }] };
  });
}
`,
};

/** The default workspace and project, a nested workspace, one outside the roots, an unknown project, one not found. */
const CALLS: ToolCall[] = [
  { name: 'build', arguments: {} },
  { name: 'build', arguments: { workspace: '/srv/app', project: 'api', verbose: true } },
  { name: 'test', arguments: { workspace: '/srv/app/nested' } },
  { name: 'deploy', arguments: { workspace: '/srv/app', project: 'api' } },
  { name: 'deploy', arguments: { workspace: '/etc', project: 'conf' } },
  { name: 'deploy', arguments: { workspace: '/srv/app', project: 'docs' } },
  { name: 'deploy', arguments: { workspace: '/srv/none', project: 'web' } },
  { name: 'release', arguments: { workspace: '/srv/app', strict: true } },
  { name: 'release', arguments: { workspace: '/etc', strict: true } },
  { name: 'release', arguments: { workspace: '/etc' } },
  { name: 'roots', arguments: {} },
];

const ROOTS: ClientScript['roots'] = [{ uri: 'file:///srv/app', name: 'app' }, { uri: 'file:///srv/lib' }];

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('maybe-ask-patterns-', PROJECT);
const { read, load } = pair;

/** The calls run on one server; `declaresRoots: false` for a client that does not declare roots. */
function run(server: ServerModule, era: Era, declaresRoots = true): Promise<LoggedRecording> {
  // `roots` asks without checking: only a client that declares roots is sent it.
  const calls = declaresRoots ? CALLS : CALLS.filter((c) => c.name !== 'roots');
  return runLogged(server, era, calls, ROOTS, declaresRoots);
}

const expectSame = async (original: LoggedRecording, declaresRoots = true) =>
  expectSameOnBothEras(original, await load('migrated'), (server, era) => run(server, era, declaresRoots));

describe('a helper that takes a destructured object and gates on an awaited call in an if', () => {
  it('is split with its pattern, the gate lifted out of the if', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/shared/workspace.ts', 'migrated', undefined],
      ['src/tools/build.ts', 'migrated', undefined],
    ]);
    const workspace = await read('migrated', 'src/shared/workspace.ts');
    expect(workspace).toContain(
      [
        '}, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest } | { value: { workspace: string; project: string } }> {',
        '  const workspace = workspacePath ?? DEFAULT_WORKSPACE;',
        '  const projects = desk.workspaces.get(workspace) ?? [];',
        '  if (projects.length === 0) throw new Error(`No workspace at ${workspace}.`);',
        '  const mrtrOutcome = await isAllowedPathRequest(server, workspace, mrtrCtx);',
        "  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: resolveTargetThen(mrtrOutcome.value, desk, workspacePath, project, verbose) };",
        '}',
        '',
        "export function resolveTargetResult(mrtrAnswer: ListRootsResult, { desk, workspacePath, project = 'web', options: { verbose = false } = {} }: {",
        '  desk: Desk;',
        '  server: McpServer;',
        '  workspacePath?: string;',
        '  project?: string;',
        '  options?: { verbose?: boolean };',
        '}): { workspace: string; project: string } {',
        '  const workspace = workspacePath ?? DEFAULT_WORKSPACE;',
        '  return resolveTargetThen(isAllowedPathResult(mrtrAnswer, workspace), desk, workspacePath, project, verbose);',
        '}',
        '',
        'export function resolveTargetThen(mrtrValue: ReturnType<typeof isAllowedPathResult>, desk: Desk, workspacePath: string | undefined, project: string, verbose: boolean): { workspace: string; project: string } {',
        '  const workspace = workspacePath ?? DEFAULT_WORKSPACE;',
        '  const projects = desk.workspaces.get(workspace) ?? [];',
        '  if (!mrtrValue) {',
        '    throw new Error(`${workspace} is outside the allowed roots.`);',
        '  }',
        '  if (!projects.includes(project)) throw new Error(`No project ${project} in ${workspace}.`);',
      ].join('\n'),
    );
    // The request half keeps the pattern as written: it is the helper's own declaration.
    expect(workspace).toContain(
      "export async function resolveTargetRequest({\n  desk,\n  server,\n  workspacePath,\n  project = 'web',\n  options: { verbose = false } = {},\n}: {",
    );
    const build = await read('migrated', 'src/tools/build.ts');
    // A helper that asks first: its request half reads none of the pattern; its result half only `scheme`.
    expect(build).toContain(
      [
        'function rootNamesRequest() {',
        '  return inputRequired.listRoots();',
        '}',
        '',
        "function rootNamesResult({ roots }: ListRootsResult, { scheme = 'file:' }: { server: McpServer; scheme?: string }): string[] {",
        '  return roots.filter((root) => root.uri.startsWith(scheme)).map((root) => root.name ?? root.uri);',
        '}',
      ].join('\n'),
    );
    expect(build).toContain('    const names = rootNamesResult(mrtrAnswer, { server, scheme });');
    expect(build).toContain('const mrtrOutcome = await resolveTargetRequest({ desk, server, workspacePath: workspace, project, options: { verbose } }, ctx);');
    expect(build).toContain(
      "const mrtrAnswer = mrtr.value('target', 'roots', (answer: ListRootsResult) => resolveTargetResult(answer, { desk, server, workspacePath: workspace, project, options: { verbose } }));",
    );
    expect(build).toContain('const mrtrOutcome = await resolveTargetRequest({ desk, server, workspacePath: workspace }, ctx);');
    const deploy = await read('migrated', 'src/tools/deploy.ts');
    expect(deploy).toContain('const mrtrOutcome = await resolveTargetRequest({ desk, server, workspacePath: workspace, project }, ctx);');
    // `strict && !(await ...)`: the request half asks under `if (strict)`, and goes on after it when strict is not set.
    expect(deploy).toContain(
      [
        '  const projects = desk.workspaces.get(workspace) ?? [];',
        '  if (strict) {',
        '    const mrtrOutcome = await isAllowedPathRequest(server, workspace, mrtrCtx);',
        "    return 'ask' in mrtrOutcome ? mrtrOutcome : { value: releaseNotesThen(mrtrOutcome.value, desk, workspace) };",
        '  }',
        '  desk.note(`release:${workspace}`);',
        "  return { value: `Released ${projects.join(', ')} of ${workspace}.` };",
        '}',
        '',
        'function releaseNotesResult(mrtrAnswer: ListRootsResult, { desk, workspace }: { desk: Desk; server: McpServer; workspace: string; strict?: boolean }): string {',
        '  return releaseNotesThen(isAllowedPathResult(mrtrAnswer, workspace), desk, workspace);',
        '}',
        '',
        'function releaseNotesThen(mrtrValue: ReturnType<typeof isAllowedPathResult>, desk: Desk, workspace: string): string {',
        '  const projects = desk.workspaces.get(workspace) ?? [];',
        '  if (!mrtrValue) {',
        '    return `${workspace} is outside the allowed roots.`;',
        '  }',
        '  desk.note(`release:${workspace}`);',
        "  return `Released ${projects.join(', ')} of ${workspace}.`;",
        '}',
      ].join('\n'),
    );
    for (const file of [workspace, build, deploy]) expect(file).not.toMatch(/@mrtr-todo/);
    // Roots are deprecated: each handler that now asks for them says so.
    expect([build, deploy].join('').match(/@mrtr-note: roots are deprecated/g)).toHaveLength(5);
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(Object.keys(PROJECT).filter((f) => f.endsWith('.ts')))).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did and does each thing once, on both eras', async () => {
    const original = await run(await load('original'), 'legacy');
    expect(texts(original)).toEqual([
      'Built web in /srv/app.',
      'Built api in /srv/app.',
      'Tested web.',
      'Deployed api.',
      '/etc is outside the allowed roots.',
      'No project docs in /srv/app.',
      'No workspace at /srv/none.',
      'Released web, api of /srv/app.',
      '/etc is outside the allowed roots.',
      'Released conf of /etc.',
      'app, file:///srv/lib',
    ]);
    // The unknown workspace is refused before the helper asks; a release that is not strict does not ask.
    expect(original.questions).toEqual(Array.from({ length: 9 }, () => ({ method: 'roots/list', params: {} })));
    expect(original.log).toEqual([
      'note:resolved:web',
      'note:build:web',
      'note:resolved:/srv/app:api of web,api',
      'note:build:api',
      'note:resolved:web',
      'note:test:web',
      'note:resolved:api',
      'note:deploy:/srv/app/api',
      'note:release:/srv/app',
      'note:release:/etc',
      'note:roots:2',
    ]);
    await expectSame(original);
  });

  it('goes on without asking where the client declares no roots, on both eras', async () => {
    const original = await run(await load('original'), 'legacy', false);
    expect(original.questions).toEqual([]);
    expect(texts(original)[0]).toBe('/srv/app is outside the allowed roots.');
    await expectSame(original, false);
  });
});
