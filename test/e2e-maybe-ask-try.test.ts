// A server whose tools, in two modules, find their workspace through a shared helper whose
// question (the client's roots) sits inside a try, behind a check of the client's capabilities:
// a root given as an argument needs no question, a catalog that cannot be opened (before the
// question) or a root it cannot resolve (after the answer) falls back through the catch. One
// module calls the helper through a local wrapper. Migrated by the engine, the helper is split
// into a request half that keeps the try up to the question and a result half that re-enters it;
// run through the real client, the migrated server gives the original's results, asks its
// questions and does its work once each, on both eras, on every path through the try.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import type { ClientScript, Era, ToolCall } from './support/harness.ts';
import { expectSameOnBothEras, runLogged, texts, type LoggedRecording } from './support/logged-run.ts';
import { typecheck } from './support/typecheck.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "linter", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createCatalog } from './shared/catalog.js';
import { registerLintTools } from './tools/lint.js';
import { registerAdminTools } from './tools/admin.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'linter', version: '1.0.0' });
  const catalog = createCatalog(log);
  registerLintTools(server, catalog);
  registerAdminTools(server, catalog);
  return server;
}
`,
  'src/shared/catalog.ts': `// The catalog of checkouts the tools read: each call is logged, so a test sees it made once.
export interface Catalog {
  open(): void;
  lock(): void;
  resolve(uri: string): string;
  lint(root: string): string[];
  note(text: string): void;
}

export function createCatalog(log: string[]): Catalog {
  let locked = false;
  return {
    open() {
      log.push('open');
      if (locked) throw new Error('the catalog is locked');
    },
    lock() {
      log.push('lock');
      locked = true;
    },
    resolve(uri) {
      log.push(\`resolve:\${uri}\`);
      if (!uri.startsWith('file:///srv/')) throw new Error(\`\${uri} is not a checkout\`);
      return new URL(uri).pathname;
    },
    lint(root) {
      log.push(\`lint:\${root}\`);
      return root.endsWith('app') ? ['unused import'] : [];
    },
    note(text) {
      log.push(\`note:\${text}\`);
    },
  };
}
`,
  'src/shared/workspace.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Catalog } from './catalog.js';

export interface Workspace {
  root?: string;
  via: 'argument' | 'roots' | 'none';
}

// Where a tool works: the root it was given, else the first file root the client lists.
export async function findWorkspace(server: McpServer, catalog: Catalog, root?: string): Promise<Workspace> {
  if (root) {
    return { root, via: 'argument' };
  }

  try {
    catalog.open();
    const capabilities = server.server.getClientCapabilities?.();
    if (capabilities?.roots) {
      const { roots } = await server.server.listRoots();
      const first = roots.find((r) => r.uri.startsWith('file://'));
      if (first) {
        return { root: catalog.resolve(first.uri), via: 'roots' };
      }
      catalog.note(\`no file root among \${roots.length}\`);
    }
  } catch (error) {
    // A workspace we cannot find is no reason to fail: the tool asks for a root instead.
    catalog.note(\`lookup failed: \${error instanceof Error ? error.message : String(error)}\`);
  }

  return { via: 'none' };
}
`,
  'src/tools/lint.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Catalog } from '../shared/catalog.js';
import { findWorkspace } from '../shared/workspace.js';

export function registerLintTools(server: McpServer, catalog: Catalog): void {
  server.registerTool('lint', { inputSchema: z.object({ root: z.string().optional() }) }, async ({ root }) => {
    const workspace = await findWorkspace(server, catalog, root);
    if (!workspace.root) return { content: [{ type: 'text', text: 'No workspace: pass root.' }], isError: true };
    const problems = catalog.lint(workspace.root);
    return { content: [{ type: 'text', text: \`\${workspace.root} (\${workspace.via}): \${problems.join(', ') || 'clean'}\` }] };
  });
}
`,
  'src/tools/admin.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Catalog } from '../shared/catalog.js';
import { findWorkspace } from '../shared/workspace.js';

const currentWorkspace = (server: McpServer, catalog: Catalog) => findWorkspace(server, catalog);

export function registerAdminTools(server: McpServer, catalog: Catalog): void {
  server.registerTool('where', { description: 'Where the tools work' }, async () => {
    const workspace = await currentWorkspace(server, catalog);
    return { content: [{ type: 'text', text: workspace.root ? \`\${workspace.root} (\${workspace.via})\` : 'nowhere' }] };
  });

  server.registerTool('lock_catalog', { description: 'Lock the catalog' }, async () => {
    catalog.lock();
    return { content: [{ type: 'text', text: 'Locked.' }] };
  });
}
`,
};

/** Asks, answers without asking (a root given), asks through the wrapper, then fails before the question (locked). */
const CALLS: ToolCall[] = [
  { name: 'lint', arguments: {} },
  { name: 'lint', arguments: { root: '/srv/lib' } },
  { name: 'where', arguments: {} },
  { name: 'lock_catalog', arguments: {} },
  { name: 'lint', arguments: {} },
  { name: 'where', arguments: {} },
];

const ROOTS: Record<string, ClientScript['roots']> = {
  // The first root is a checkout.
  checkout: [{ uri: 'file:///srv/app', name: 'app' }, { uri: 'file:///srv/lib' }],
  // The catalog cannot resolve it: the catch is taken after the answer.
  elsewhere: [{ uri: 'file:///home/me/app' }],
  // No root at all.
  none: [],
};

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('maybe-ask-try-', PROJECT);
const { root, read, load } = pair;

/** The calls run on one server; `declaresRoots: false` for a client that does not declare roots. */
const run = (server: ServerModule, era: Era, roots: ClientScript['roots'], declaresRoots = true) => runLogged(server, era, CALLS, roots, declaresRoots);

/** The migrated server on both eras gives what the original gave on the 2025 era. */
const expectSame = async (original: LoggedRecording, roots: ClientScript['roots'], declaresRoots = true) =>
  expectSameOnBothEras(original, await load('migrated'), (server, era) => run(server, era, roots, declaresRoots));

describe('a helper whose question is inside a try, called from tools in other modules', () => {
  it('is split into a request half that keeps the try up to the question and a result half that re-enters it', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/shared/workspace.ts', 'migrated', undefined]]);
    const workspace = await read('migrated', 'src/shared/workspace.ts');
    expect(workspace).toContain(
      'export async function findWorkspaceRequest(server: McpServer, catalog: Catalog, root: string | undefined, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest } | { value: Workspace }> {',
    );
    // The capability check before the question reads the capabilities the request carries.
    expect(workspace).toContain(
      '    const capabilities = (mrtrCtx?.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities?.();',
    );
    expect(workspace).toContain('    if (capabilities?.roots) {\n      return { ask: inputRequired.listRoots() };\n    }\n  } catch (error) {');
    expect(workspace).toContain(
      [
        'export function findWorkspaceResult({ roots }: ListRootsResult, catalog: Catalog): Workspace {',
        '  try {',
        "    const first = roots.find((r) => r.uri.startsWith('file://'));",
        '    if (first) {',
        "      return { root: catalog.resolve(first.uri), via: 'roots' };",
        '    }',
        '    catalog.note(`no file root among ${roots.length}`);',
        '  } catch (error) {',
        '    // A workspace we cannot find is no reason to fail: the tool asks for a root instead.',
        '    catalog.note(`lookup failed: ${error instanceof Error ? error.message : String(error)}`);',
        '  }',
        '',
        "  return { via: 'none' };",
        '}',
      ].join('\n'),
    );
    const admin = await read('migrated', 'src/tools/admin.ts');
    // The wrapper hands the handler's context on; the root it leaves out is passed as undefined.
    expect(admin).toContain('function currentWorkspaceRequest(server: McpServer, catalog: Catalog, mrtrCtx?: ServerContext) {');
    expect(admin).toContain('  return findWorkspaceRequest(server, catalog, undefined, mrtrCtx);');
    expect(admin).toContain('const mrtrOutcome = await currentWorkspaceRequest(server, catalog, ctx);');
    const lint = await read('migrated', 'src/tools/lint.ts');
    expect(lint).toContain('const mrtrOutcome = await findWorkspaceRequest(server, catalog, root, ctx);');
    for (const file of [workspace, admin, lint]) expect(file).not.toMatch(/@mrtr-todo/);
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

  it('asks where it did, and takes the catch before the question where it did, on both eras', async () => {
    const original = await run(await load('original'), 'legacy', ROOTS.checkout);
    expect(texts(original)).toEqual([
      '/srv/app (roots): unused import',
      '/srv/lib (argument): clean',
      '/srv/app (roots)',
      'Locked.',
      'No workspace: pass root.',
      'nowhere',
    ]);
    expect(original.questions).toEqual([
      { method: 'roots/list', params: {} },
      { method: 'roots/list', params: {} },
    ]);
    expect(original.log).toEqual([
      'open',
      'resolve:file:///srv/app',
      'lint:/srv/app',
      'lint:/srv/lib',
      'open',
      'resolve:file:///srv/app',
      'lock',
      'open',
      'note:lookup failed: the catalog is locked',
      'open',
      'note:lookup failed: the catalog is locked',
    ]);
    await expectSame(original, ROOTS.checkout);
  });

  it('takes the catch after the answer where it did, on both eras', async () => {
    const original = await run(await load('original'), 'legacy', ROOTS.elsewhere);
    expect(texts(original).slice(0, 3)).toEqual(['No workspace: pass root.', '/srv/lib (argument): clean', 'nowhere']);
    expect(original.log.slice(0, 3)).toEqual(['open', 'resolve:file:///home/me/app', 'note:lookup failed: file:///home/me/app is not a checkout']);
    await expectSame(original, ROOTS.elsewhere);
  });

  it('goes on after the try where the client lists no root or declares none, on both eras', async () => {
    const original = await run(await load('original'), 'legacy', ROOTS.none);
    expect(texts(original)[0]).toBe('No workspace: pass root.');
    expect(original.log.slice(0, 2)).toEqual(['open', 'note:no file root among 0']);
    await expectSame(original, ROOTS.none);
    // A client that does not declare roots is never asked: the capability check, in the request
    // half, reads what the request declares.
    const undeclared = await run(await load('original'), 'legacy', undefined, false);
    expect(undeclared.questions).toEqual([]);
    expect(texts(undeclared)[0]).toBe('No workspace: pass root.');
    expect(undeclared.log.slice(0, 2)).toEqual(['open', 'lint:/srv/lib']);
    await expectSame(undeclared, undefined, false);
  });
});
