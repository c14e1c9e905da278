// A server whose tools reach the client's roots through helpers that do more with the value of
// a helper that may answer without asking: `allowedRoots()` lists the client's roots when it
// declares them (else a default), `isAllowedPath()` turns them into a yes or no for a path, and
// a tool module's own `sessionRoot()` takes a session's root without asking, or gates the path
// it was given on that yes or no. Two tools gate on `isAllowedPath()` in the handler itself
// (`if (!(await isAllowedPath(...)))`), one through `sessionRoot()`. Migrated by the engine,
// each helper on the way is split frame by frame: its request half hands the question on or
// goes on with the value, its result half goes on with what the answer made; run through the
// real client, the migrated server gives the original's results, asks its questions and does
// its work once each, on both eras.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import type { ClientScript, Era, ToolCall } from './support/harness.ts';
import { expectSameOnBothEras, runLogged, texts, type LoggedRecording } from './support/logged-run.ts';
import { typecheck } from './support/typecheck.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "vault", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createVault } from './shared/vault.js';
import { registerFileTools } from './tools/files.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'vault', version: '1.0.0' });
  registerFileTools(server, createVault(log));
  return server;
}
`,
  'src/shared/vault.ts': `// The files the tools serve, and the sessions that remember a root: each effect is logged.
export interface Vault {
  sessions: Map<string, string>;
  note(text: string): void;
  read(file: string): string;
}

export function createVault(log: string[]): Vault {
  return {
    sessions: new Map([['s1', '/srv/kept']]),
    note(text) {
      log.push(\`note:\${text}\`);
    },
    read(file) {
      log.push(\`read:\${file}\`);
      return \`contents of \${file}\`;
    },
  };
}
`,
  'src/shared/roots.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Vault } from './vault.js';

const FALLBACK_ROOT = '/srv/default';

async function allowedRoots(server: McpServer, vault: Vault): Promise<string[]> {
  let roots: string[];
  const capabilities = server.server.getClientCapabilities();
  if (capabilities?.roots) {
    const { roots: listed } = await server.server.listRoots();
    roots = listed.map((root) => new URL(root.uri).pathname);
  } else {
    roots = [FALLBACK_ROOT];
  }
  vault.note(\`roots:\${roots.length}\`);
  return roots;
}

export async function isAllowedPath(server: McpServer, vault: Vault, target: string): Promise<boolean> {
  const allowed = await allowedRoots(server, vault);
  const inside = allowed.some((root) => target === root || target.startsWith(\`\${root}/\`));
  vault.note(\`\${target}:\${inside ? 'inside' : 'outside'}\`);
  return inside;
}
`,
  'src/tools/files.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { isAllowedPath } from '../shared/roots.js';
import type { Vault } from '../shared/vault.js';

async function sessionRoot(
  server: McpServer,
  vault: Vault,
  sessionId?: string,
  root?: string,
): Promise<string | { error: string }> {
  if (sessionId) {
    const kept = vault.sessions.get(sessionId);
    if (kept) return kept;
  }
  if (!root) return { error: 'Pass root or a sessionId.' };
  const allowed = await isAllowedPath(server, vault, root);
  if (!allowed) return { error: \`\${root} is outside the allowed roots.\` };
  vault.note(\`session-root:\${root}\`);
  return root;
}

export function registerFileTools(server: McpServer, vault: Vault): void {
  server.registerTool(
    'read_file',
    { inputSchema: z.object({ file: z.string(), sessionId: z.string().optional(), root: z.string().optional() }) },
    async ({ file, sessionId, root }) => {
      const where = await sessionRoot(server, vault, sessionId, root);
      if (typeof where !== 'string') return { content: [{ type: 'text', text: where.error }], isError: true };
      return { content: [{ type: 'text', text: vault.read(\`\${where}/\${file}\`) }] };
    },
  );

  server.registerTool('stat', { inputSchema: z.object({ target: z.string() }) }, async ({ target }) => {
    if (!(await isAllowedPath(server, vault, target))) {
      return { content: [{ type: 'text', text: \`\${target} is outside the allowed roots.\` }], isError: true };
    }
    vault.note(\`stat:\${target}\`);
    return { content: [{ type: 'text', text: \`\${target}: a directory\` }] };
  });
}
`,
};

/** Through the session (no question), through the gate (asked), outside it, and the handler's own gate. */
const CALLS: ToolCall[] = [
  { name: 'read_file', arguments: { file: 'a.txt', sessionId: 's1' } },
  { name: 'read_file', arguments: { file: 'b.txt', root: '/srv/app' } },
  { name: 'read_file', arguments: { file: 'c.txt', root: '/etc' } },
  { name: 'read_file', arguments: { file: 'd.txt' } },
  { name: 'stat', arguments: { target: '/srv/app/src' } },
  { name: 'stat', arguments: { target: '/srv/default' } },
];

const ROOTS: ClientScript['roots'] = [{ uri: 'file:///srv/app', name: 'app' }, { uri: 'file:///srv/lib' }];

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('maybe-ask-callers-', PROJECT);
const { root, read, load } = pair;

/** The calls run on one server; `declaresRoots: false` for a client that does not declare roots. */
const run = (server: ServerModule, era: Era, declaresRoots = true) => runLogged(server, era, CALLS, ROOTS, declaresRoots);

const expectSame = async (original: LoggedRecording, declaresRoots = true) =>
  expectSameOnBothEras(original, await load('migrated'), (server, era) => run(server, era, declaresRoots));

describe('helpers that do more with the value of a helper that may answer without asking', () => {
  it('are split frame by frame: each request half hands the question on or goes on with the value', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/shared/roots.ts', 'migrated', undefined]]);
    const roots = await read('migrated', 'src/shared/roots.ts');
    expect(roots).toContain(
      [
        'export async function isAllowedPathRequest(server: McpServer, vault: Vault, target: string, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest } | { value: boolean }> {',
        '  const mrtrOutcome = await allowedRootsRequest(server, vault, mrtrCtx);',
        "  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: isAllowedPathThen(mrtrOutcome.value, vault, target) };",
        '}',
        '',
        'export function isAllowedPathResult(mrtrAnswer: ListRootsResult, vault: Vault, target: string): boolean {',
        '  return isAllowedPathThen(allowedRootsResult(mrtrAnswer, vault), vault, target);',
        '}',
        '',
        'export function isAllowedPathThen(allowed: ReturnType<typeof allowedRootsResult>, vault: Vault, target: string): boolean {',
        '  const inside = allowed.some((root) => target === root || target.startsWith(`${root}/`));',
        "  vault.note(`${target}:${inside ? 'inside' : 'outside'}`);",
        '  return inside;',
        '}',
      ].join('\n'),
    );
    const files = await read('migrated', 'src/tools/files.ts');
    expect(files).toContain('  const mrtrOutcome = await isAllowedPathRequest(server, vault, root, mrtrCtx);');
    expect(files).toContain("  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: sessionRootThen(mrtrOutcome.value, vault, root) };");
    // The guard before the call narrowed `root`: the code after it, in sessionRootThen(), reads it so typed.
    expect(files).toContain('  return sessionRootThen(isAllowedPathResult(mrtrAnswer, vault, root!), vault, root!);');
    expect(files).toContain(
      'function sessionRootThen(allowed: ReturnType<typeof isAllowedPathResult>, vault: Vault, root: string): string | { error: string } {',
    );
    for (const file of [roots, files]) expect(file).not.toMatch(/@mrtr-todo/);
    // Roots are deprecated: each handler that now asks for them says so.
    expect(files.match(/@mrtr-note: roots are deprecated/g)).toHaveLength(2);
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = (which: string) =>
      Object.keys(PROJECT)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(root, which, f));
    expect(typecheck(files('original'))).toEqual([]);
    expect(typecheck([...files('migrated'), path.join(root, 'migrated', 'src/mrtr-request-state.ts')])).toEqual([]);
    const again = await runCodemod({ paths: ['src'], write: false, cwd: path.join(root, 'migrated') });
    expect(again.errors).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('asks where it did and does each thing once, on both eras', async () => {
    const original = await run(await load('original'), 'legacy');
    expect(texts(original)).toEqual([
      'contents of /srv/kept/a.txt',
      'contents of /srv/app/b.txt',
      '/etc is outside the allowed roots.',
      'Pass root or a sessionId.',
      '/srv/app/src: a directory',
      '/srv/default is outside the allowed roots.',
    ]);
    expect(original.questions).toEqual(Array.from({ length: 4 }, () => ({ method: 'roots/list', params: {} })));
    expect(original.log).toEqual([
      'read:/srv/kept/a.txt',
      'note:roots:2',
      'note:/srv/app:inside',
      'note:session-root:/srv/app',
      'read:/srv/app/b.txt',
      'note:roots:2',
      'note:/etc:outside',
      'note:roots:2',
      'note:/srv/app/src:inside',
      'note:stat:/srv/app/src',
      'note:roots:2',
      'note:/srv/default:outside',
    ]);
    await expectSame(original);
  });

  it('goes on with the default where the client declares no roots, on both eras', async () => {
    const original = await run(await load('original'), 'legacy', false);
    expect(original.questions).toEqual([]);
    expect(texts(original).slice(4)).toEqual(['/srv/app/src is outside the allowed roots.', '/srv/default: a directory']);
    await expectSame(original, false);
  });
});
