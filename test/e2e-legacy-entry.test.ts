// A helper that may ask (it takes the root it is given, or the client's first root when the
// client can list them) called by two handlers of another module: one that can ask through its
// halves, and one that cannot (it holds a Date across the question). The helper is split for the
// first and kept under its name, built from its halves, for the second: a legacy entry, marked.
// Through the real client, the migrated server gives the original's results, questions and
// effects on a 2025 connection, the migrated handler on a 2026-07-28 one too, and the handler left
// on the entry answers there as the original did. A second run changes nothing, and `check`
// still reports the entry.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { formatSummary } from '../src/report/summary.ts';
import { runCalls, type ClientScript, type Era, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "rootfinder", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerFileTools } from './tools/files.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'rootfinder', version: '1.0.0' });
  registerFileTools(server, log);
  return server;
}
`,
  'src/lib/root.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export async function pickRoot(server: McpServer, log: string[], given?: string): Promise<string> {
  log.push(\`pick:\${given ?? '?'}\`);
  if (given) return given;
  if (!server.server.getClientCapabilities()?.roots) return '/srv/default';
  const { roots } = await server.server.listRoots();
  const first = roots.find((r) => r.uri.startsWith('file://'));
  return first ? first.uri.slice('file://'.length) : '/srv/none';
}
`,
  'src/tools/files.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickRoot } from '../lib/root.js';

export function registerFileTools(server: McpServer, log: string[]): void {
  server.registerTool('list_root', { inputSchema: z.object({ root: z.string().optional() }) }, async ({ root }) => {
    const picked = await pickRoot(server, log, root);
    log.push(\`list:\${picked}\`);
    return { content: [{ type: 'text', text: \`listing \${picked}\` }] };
  });

  server.registerTool('audit_root', { inputSchema: z.object({ root: z.string().optional() }) }, async ({ root }) => {
    const started = new Date();
    const picked = await pickRoot(server, log, root);
    log.push(\`audit:\${picked}\`);
    return { content: [{ type: 'text', text: \`audited \${picked}\${started.getTime() > 0 ? '' : ' before 1970'}\` }] };
  });
}
`,
};

// The line it names is the call's in the file as written (the marker above it moved it down).
const ENTRY_MARKER = '// @mrtr-todo(legacy-entry): `pickRoot()` kept for files.ts:26, which cannot use its halves — migrate it, then drop this';

const MIGRATED_ROOT = `import type { McpServer } from '@modelcontextprotocol/server';
import {
  inputRequired,
  type ListRootsResult,
  type InputRequest,
  type ServerContext,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
} from '@modelcontextprotocol/server';

${ENTRY_MARKER}
export async function pickRoot(server: McpServer, log: string[], given?: string): Promise<string> {
  const mrtrOutcome = await pickRootRequest(server, log, given);
  if ('value' in mrtrOutcome) return mrtrOutcome.value;
  return pickRootResult(await server.server.listRoots());
}

// pickRoot() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler calls pickRootRequest(), which resolves to what pickRoot() returned without asking
// ({ value }) or to the question to ask ({ ask }); once answered, pickRootResult() computes the value.
export async function pickRootRequest(server: McpServer, log: string[], given: string | undefined, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest } | { value: string }> {
  log.push(\`pick:\${given ?? '?'}\`);
  if (given) return { value: given };
  if (!((mrtrCtx?.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities())?.roots) return { value: '/srv/default' };
  return { ask: inputRequired.listRoots() };
}

export function pickRootResult({ roots }: ListRootsResult): string {
  const first = roots.find((r) => r.uri.startsWith('file://'));
  return first ? first.uri.slice('file://'.length) : '/srv/none';
}
`;

/** Given a root (no question), and asked for one; each tool once. */
const CALLS: ToolCall[] = [
  { name: 'list_root', arguments: { root: '/srv/given' } },
  { name: 'list_root', arguments: {} },
  { name: 'audit_root', arguments: { root: '/srv/given' } },
  { name: 'audit_root', arguments: {} },
];

const script = (): ClientScript => ({ roots: [{ uri: 'file:///home/ada/project', name: 'project' }] });

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('legacy-entry-', PROJECT);

const run = async (server: ServerModule, era: Era, calls = CALLS) => {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, calls, script());
  return { results: recording.results, questions: recording.questions, log };
};

const texts = (results: unknown[]) => results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text);

describe('a helper one handler can ask through and another cannot', () => {
  it('is split for the one, and kept under its name for the other, marked', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/lib/root.ts', 3, 'marked', 'legacy-entry'],
      ['src/lib/root.ts', 7, 'migrated', undefined],
      ['src/tools/files.ts', 14, 'marked', 'unserialisable-local'],
    ]);
    expect(await pair.read('migrated', 'src/lib/root.ts')).toBe(MIGRATED_ROOT);
    const files = await pair.read('migrated', 'src/tools/files.ts');
    // The migrated handler asks through the halves; the other still calls pickRoot(), which the import keeps.
    expect(files).toContain("import { pickRoot, pickRootRequest, pickRootResult } from '../lib/root.js';");
    expect(files).toContain('const mrtrOutcome = await pickRootRequest(server, log, root, ctx);');
    expect(files).toContain('    const started = new Date();\n    // @mrtr-todo(unserialisable-local): ');
    // The migrated handler has no site of its own (its question is the helper's): it is counted all the same.
    expect(pair.result.askingThrough).toEqual([{ file: 'src/tools/files.ts', handler: 'tool:list_root', line: 6 }]);
    expect(formatSummary(pair.result, { dryRun: false }).split('\n')).toContain(
      'migrated 1/2 handlers; 1 needs manual work: tool:audit_root (src/tools/files.ts:14, unserialisable-local); 1 site outside any handler needs manual work: src/lib/root.ts:3 (legacy-entry)',
    );
    expect(files).toContain('    const picked = await pickRoot(server, log, root);\n    log.push(`audit:${picked}`);');
  });

  it('typechecks, a second run changes nothing, and check still reports the entry', async () => {
    const files = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));
    expect(await pair.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
    const checked = await runCodemod({ paths: ['src'], write: false, cwd: path.join(pair.root, 'migrated') });
    expect(checked.sites.filter((s) => s.file === 'src/lib/root.ts').map((s) => [s.line, s.status, s.code])).toEqual([[12, 'marked', 'legacy-entry']]);
  });

  it('gives the original results on a 2025 connection, and the migrated handler on a 2026-07-28 one', async () => {
    const original = await run(await pair.load('original'), 'legacy');
    expect(texts(original.results)).toEqual(['listing /srv/given', 'listing /home/ada/project', 'audited /srv/given', 'audited /home/ada/project']);
    expect(original.questions).toEqual([
      { method: 'roots/list', params: {} },
      { method: 'roots/list', params: {} },
    ]);
    expect(original.log).toEqual([
      'pick:/srv/given',
      'list:/srv/given',
      'pick:?',
      'list:/home/ada/project',
      'pick:/srv/given',
      'audit:/srv/given',
      'pick:?',
      'audit:/home/ada/project',
    ]);
    const migrated = await pair.load('migrated');
    expect(await run(migrated, 'legacy')).toEqual(original);
    const listing = CALLS.slice(0, 2);
    expect(await run(migrated, 'modern', listing)).toEqual(await run(await pair.load('original'), 'legacy', listing));
  });

  it('answers the handler left on the entry as the original did on a 2026-07-28 connection, which declares no roots of its own', async () => {
    const asking = [CALLS[3]!];
    const original = await run(await pair.load('original'), 'modern', asking);
    expect(original).toEqual({
      results: [{ content: [{ type: 'text', text: 'audited /srv/default' }] }],
      questions: [],
      log: ['pick:?', 'audit:/srv/default'],
    });
    expect(await run(await pair.load('migrated'), 'modern', asking)).toEqual(original);
  });
});

// The same, for a helper whose request is its first statement: the entry only pushes it and hands
// the answer to the result half. What the result half does after the question (the log) happens
// once, on the answer, on either path.
const ASKED_FIRST: Record<string, string> = {
  'package.json': PROJECT['package.json']!,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerWipeTools } from './tools/wipe.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'wiper', version: '1.0.0' });
  registerWipeTools(server, log);
  return server;
}
`,
  'src/lib/confirm.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export async function confirmWipe(server: McpServer, log: string[], table: string): Promise<boolean> {
  const answer = await server.server.elicitInput({
    mode: 'form',
    message: \`Wipe \${table}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  log.push(\`answered:\${answer.action}\`);
  return answer.action === 'accept' && answer.content?.ok === true;
}
`,
  'src/tools/wipe.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { confirmWipe } from '../lib/confirm.js';

export function registerWipeTools(server: McpServer, log: string[]): void {
  server.registerTool('wipe', { inputSchema: z.object({ table: z.string() }) }, async ({ table }) => {
    const wiped = await confirmWipe(server, log, table);
    log.push(\`wipe:\${table}:\${wiped}\`);
    return { content: [{ type: 'text', text: wiped ? \`wiped \${table}\` : 'kept' }] };
  });

  server.registerTool('wipe_timed', { inputSchema: z.object({ table: z.string() }) }, async ({ table }) => {
    const started = new Date();
    const wiped = await confirmWipe(server, log, table);
    log.push(\`timed:\${table}:\${wiped}\`);
    return { content: [{ type: 'text', text: \`\${wiped ? 'wiped' : 'kept'}\${started.getTime() > 0 ? '' : ' before 1970'}\` }] };
  });
}
`,
};

const MIGRATED_CONFIRM = `import type { McpServer } from '@modelcontextprotocol/server';
import { inputRequired, type ElicitResult } from '@modelcontextprotocol/server';

// @mrtr-todo(legacy-entry): \`confirmWipe()\` kept for wipe.ts:26, which cannot use its halves — migrate it, then drop this
export async function confirmWipe(server: McpServer, log: string[], table: string): Promise<boolean> {
  return confirmWipeResult(await server.server.elicitInput({
    mode: 'form',
    message: \`Wipe \${table}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  }), log);
}

// confirmWipe() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler asks with confirmWipeRequest() and, once answered, computes confirmWipeResult().
export function confirmWipeRequest(table: string) {
  return inputRequired.elicit({
    mode: 'form',
    message: \`Wipe \${table}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
}

export function confirmWipeResult(answer: ElicitResult, log: string[]): boolean {
  log.push(\`answered:\${answer.action}\`);
  return answer.action === 'accept' && answer.content?.ok === true;
}
`;

/** Accepts the first wipe of each tool, declines the rest. */
const wipeScript = (): ClientScript => {
  let asked = 0;
  return { elicit: () => (++asked % 2 === 1 ? { action: 'accept', content: { ok: true } } : { action: 'decline' }) };
};

const WIPES: ToolCall[] = [
  { name: 'wipe', arguments: { table: 'logs' } },
  { name: 'wipe', arguments: { table: 'users' } },
  { name: 'wipe_timed', arguments: { table: 'logs' } },
  { name: 'wipe_timed', arguments: { table: 'users' } },
];

const firstPair = migratedPair<ServerModule>('legacy-entry-first-', ASKED_FIRST);

const runWipes = async (server: ServerModule, era: Era, calls = WIPES) => {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, calls, wipeScript());
  return { results: recording.results, questions: recording.questions, log };
};

describe('a helper whose request comes first, one handler can ask through and another cannot', () => {
  it('keeps an entry that pushes the request and hands the answer on; it typechecks and a second run changes nothing', async () => {
    expect(firstPair.result.errors).toEqual([]);
    expect(firstPair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/lib/confirm.ts', 3, 'marked', 'legacy-entry'],
      ['src/lib/confirm.ts', 4, 'migrated', undefined],
      ['src/tools/wipe.ts', 14, 'marked', 'unserialisable-local'],
    ]);
    expect(await firstPair.read('migrated', 'src/lib/confirm.ts')).toBe(MIGRATED_CONFIRM);
    // The entry names the refused call's line as the migrated file has it (the marker above it moved it down).
    expect((await firstPair.read('migrated', 'src/tools/wipe.ts')).split('\n')[25]).toBe('    const wiped = await confirmWipe(server, log, table);');
    const files = Object.keys(ASKED_FIRST).filter((f) => f.endsWith('.ts'));
    expect(await firstPair.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('gives the original results, questions and log on a 2025 connection, and the migrated handler on a 2026-07-28 one', async () => {
    const original = await runWipes(await firstPair.load('original'), 'legacy');
    expect(texts(original.results)).toEqual(['wiped logs', 'kept', 'wiped', 'kept']);
    expect(original.log).toEqual([
      'answered:accept',
      'wipe:logs:true',
      'answered:decline',
      'wipe:users:false',
      'answered:accept',
      'timed:logs:true',
      'answered:decline',
      'timed:users:false',
    ]);
    const migrated = await firstPair.load('migrated');
    expect(await runWipes(migrated, 'legacy')).toEqual(original);
    const wipes = WIPES.slice(0, 2);
    expect(await runWipes(migrated, 'modern', wipes)).toEqual(await runWipes(await firstPair.load('original'), 'legacy', wipes));
  });
});
