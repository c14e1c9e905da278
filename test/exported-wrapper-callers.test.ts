// A helper that may ask the client's roots, taken with import() by an exported function of a
// second module that is no handler and works on after the answer; tools in two other modules
// call that function, and a third module's exported function calls it for a fourth module's
// tool. The helper stays whole (a split is not carried through another module's function), and
// each handler that reaches it through such functions is marked, naming the one it calls and
// what that one calls, so no handler that still pushes a request is left without a marker. The
// marked server typechecks, behaves as before on the legacy era, and a second run changes nothing.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCalls, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';
import { typecheck } from './support/typecheck.ts';

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

/** `file`'s original lines, with `marker` inserted above the line that holds `at`. */
async function markedAbove(file: string, at: string, marker: string): Promise<string> {
  const lines = (await read('original', file)).split('\n');
  const i = lines.findIndex((l) => l.includes(at));
  const indent = /^\s*/.exec(lines[i]!)![0];
  return [...lines.slice(0, i), `${indent}${marker}`, ...lines.slice(i)].join('\n');
}

describe('a helper reached through an exported function of another module that is no handler', () => {
  it('stays whole; each handler calling that function is marked, and the server typechecks and behaves as before', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/context/root.ts', 11, 'marked', 'in-helper'],
      ['src/tools/build.ts', 7, 'marked', 'via-helper'],
      ['src/tools/lint.ts', 7, 'marked', 'via-helper'],
      ['src/tools/ship.ts', 7, 'marked', 'via-helper'],
    ]);
    const handlerMarker = '// @mrtr-todo(via-helper): `prepareRun()` calls `findRoot()` at prepare.ts:10: no split across modules — ask here and pass it in';
    expect(await read('migrated', 'src/tools/build.ts')).toBe(await markedAbove('src/tools/build.ts', 'await prepareRun(', handlerMarker));
    expect(await read('migrated', 'src/tools/lint.ts')).toBe(await markedAbove('src/tools/lint.ts', 'await prepareRun(', handlerMarker));
    expect(await read('migrated', 'src/tools/ship.ts')).toBe(
      await markedAbove(
        'src/tools/ship.ts',
        'await shipRun(',
        '// @mrtr-todo(via-helper): `shipRun()` calls `prepareRun()` at ship.ts:5: no split across modules — ask here and pass it in',
      ),
    );
    expect(await read('migrated', 'src/flows/ship.ts')).toBe(await read('original', 'src/flows/ship.ts'));
    expect(await read('migrated', 'src/context/root.ts')).toBe(
      await markedAbove(
        'src/context/root.ts',
        'await server.server.listRoots()',
        '// @mrtr-todo(in-helper): caller `prepareRun()` (prepare.ts:10) is no handler — ask in its handlers and pass the answer in',
      ),
    );
    expect(await read('migrated', 'src/flows/prepare.ts')).toBe(await read('original', 'src/flows/prepare.ts'));
    const build = pair.result.sites.find((s) => s.file === 'src/tools/build.ts')!;
    expect(build.next).toBe(
      "call `findRoot()` in this handler and pass its result to `prepareRun()`, so that every call of the helper is a handler's; then run the codemod again.",
    );
    // The markers change no code: it typechecks, a second run changes nothing, and on the legacy era it serves as before.
    expect(typecheck(TS_FILES.map((f) => path.join(pair.root, 'migrated', f)))).toEqual([]);
    const { errors, changed } = await pair.settled([]);
    expect({ errors, changed }).toEqual({ errors: [], changed: [] });
    const roots = [{ uri: 'file:///srv/app', name: 'app' }];
    const runOn = async (server: ServerModule) => {
      const log: string[] = [];
      const recording = await runCalls(() => server.createServer(log), 'legacy', CALLS, { roots });
      return { results: recording.results, questions: recording.questions, log };
    };
    const original = await runOn(await load('original'));
    expect(original.log).toEqual(['prepare:/srv/app', 'prepare:/srv/given', 'prepare:/srv/app', 'lint:true', 'prepare:/srv/app', 'ship:true']);
    expect(original.questions.length).toBe(3);
    expect(await runOn(await load('migrated'))).toEqual(original);
  });
});

// The helper bound with import() in a function of a handler module that handlers reach: that
// call stays a call (marked), and the helper's marker names it, not "no handler calls it".
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
  it("stays whole, and its marker names that function's call", async () => {
    expect(wrapped.result.errors).toEqual([]);
    expect(wrapped.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/context/root.ts', 11, 'marked', 'in-helper'],
      ['src/tools/audit.ts', 6, 'marked', 'via-helper'],
      ['src/tools/audit.ts', 12, 'marked', 'via-helper'],
      ['src/tools/scan.ts', 7, 'marked', 'via-helper'],
    ]);
    const lines = (await wrapped.read('migrated', 'src/context/root.ts')).split('\n');
    expect(lines[10]).toBe('    // @mrtr-todo(in-helper): `findRoot()` stays whole: audit.ts:7 is refused (via-helper) — fix that first');
    // The line it names is the call's in the marked file.
    const audit = (await wrapped.read('migrated', 'src/tools/audit.ts')).split('\n');
    expect(audit.slice(5, 7)).toEqual([
      '  // @mrtr-todo(via-helper): `findRoot()` (root.ts:12) comes from import() here — import it statically, then run again',
      '  const found = await findRoot(server);',
    ]);
    const helper = wrapped.result.sites.find((s) => s.file === 'src/context/root.ts')!;
    expect(helper.reason).toBe(
      'this request is made in `findRoot()`, which this module exports and could split for its callers, but its call at src/tools/audit.ts:7 cannot migrate (via-helper): it is split only once every call of it can, so it stays whole.',
    );
  });
});
