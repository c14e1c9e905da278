// The v1-to-v2 upgrade takes only what MRTR needs: the files with a request, the modules that
// build their server (and connect it to stdio, SSE or Streamable HTTP), and what those import;
// never a file that only builds a client, nor a server with nothing to migrate. It is its own
// pass (the summary, the JSON, the patch say which change is whose), and `v1: 'only'` runs it
// alone. The package.json lists every package the changed files import.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectCheckReport } from '../src/cli/check-command.ts';
import { runCodemod } from '../src/engine/run.ts';
import { importedPackages } from '../src/engine/v1-upgrade.ts';
import { v1Scope } from '../src/engine/v1-scope.ts';
import { renderHtmlReport } from '../src/report/html-report.ts';
import { formatJsonSummary } from '../src/report/json-summary.ts';
import { passesOf, runPatch } from '../src/report/passes.ts';
import { formatSummary } from '../src/report/summary.ts';
import { V1_MANIFEST } from './engine-samples.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('v1-scope-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const FILES: Record<string, string> = {
  'package.json': V1_MANIFEST,
  // The server whose tool asks; it registers another module's tool.
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { registerPing } from './ping.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  server.registerTool('go', { inputSchema: { target: z.string() } }, async ({ target }) => {
    const answer = await server.server.elicitInput({ message: \`Go to \${target}?\`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  registerPing(server);
  return server;
}
`,
  'src/ping.ts': `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function registerPing(server: McpServer): void {
  server.registerTool('ping', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
}
`,
  // The server on each transport.
  'src/stdio.ts': `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.js';

await createServer().connect(new StdioServerTransport());
`,
  'src/sse.ts': `import type { ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createServer } from './server.js';

export async function openStream(res: ServerResponse): Promise<void> {
  await createServer().connect(new SSEServerTransport('/messages', res));
}
`,
  'src/http.ts': `import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer } from './server.js';

export async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await createServer().connect(transport);
  await transport.handleRequest(req, res);
}
`,
  // A client, and a server with nothing to migrate: MRTR needs neither.
  'src/client.ts': `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export async function connect(): Promise<Client> {
  const client = new Client({ name: 'c', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: 'server' }));
  return client;
}
`,
  'src/other.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const other = new McpServer({ name: 'other', version: '1.0.0' });
`,
};

const NEEDED = ['package.json', 'src/http.ts', 'src/ping.ts', 'src/server.ts', 'src/sse.ts', 'src/stdio.ts'];

async function project(): Promise<void> {
  for (const [file, text] of Object.entries(FILES)) await putFile(dir, file, text);
}

describe('the v1-to-v2 upgrade', () => {
  it('takes the files with a request, the modules that serve their server and what they import; never a client, nor a server without one', async () => {
    await project();
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.changed.map((c) => c.path).sort()).toEqual([...NEEDED, 'src/mrtr-request-state.ts'].sort());
    expect(result.v1Kept).toEqual(['src/client.ts', 'src/other.ts']);
    expect(result.sites).toMatchObject([{ file: 'src/server.ts', status: 'migrated', handler: 'tool:go' }]);

    // Each change says which pass made it.
    const passes = Object.fromEntries(result.changed.map((c) => [c.path, passesOf(c)]));
    expect(passes).toMatchObject({
      'src/server.ts': ['v1-upgrade', 'mrtr'],
      'src/ping.ts': ['v1-upgrade'],
      'src/mrtr-request-state.ts': ['mrtr'],
    });
    expect(passes['package.json']![0]).toBe('v1-upgrade');
    const json = JSON.parse(formatJsonSummary(result, { dryRun: true }));
    expect(json.v1Kept).toEqual(['src/client.ts', 'src/other.ts']);
    expect(json.changedFiles).toContainEqual({ path: 'src/ping.ts', written: false, passes: ['v1-upgrade'] });
    const summary = formatSummary(result, { dryRun: true });
    expect(summary).toContain('  src/server.ts  (v1-to-v2 upgrade, then MRTR)\n');
    expect(summary).toContain('  src/ping.ts  (v1-to-v2 upgrade)\n');
    expect(summary).toContain(
      'Left on the v1 SDK: 2 files MRTR does not need (no request, no server with one, or only a client): src/client.ts, src/other.ts\n',
    );

    // The patch: the upgrade, then the MRTR change, each a part of its own.
    const patch = runPatch(result);
    const part2 = patch.indexOf('# mrtr-codemod, part 2 of 2: the MRTR migration: ');
    expect(patch.startsWith('# mrtr-codemod, part 1 of 2: the v1-to-v2 upgrade (official @modelcontextprotocol/codemod): 6 files\n')).toBe(true);
    expect(part2).toBeGreaterThan(0);
    expect(patch.slice(0, part2)).toContain('--- a/src/ping.ts\n');
    expect(patch.slice(part2)).not.toContain('--- a/src/ping.ts\n');
    expect(patch.slice(part2)).toContain('--- /dev/null\n+++ b/src/mrtr-request-state.ts\n');

    // The review page: the file with the handler first, its two passes apart; the upgrade-only file folded.
    const page = renderHtmlReport(result, { dryRun: true });
    const sections = [...page.matchAll(/<section class="file[^"]*" id="[^"]+" data-path="([^"]+)" data-role="(\w+)">/g)].map(
      ([, file, role]) => `${file} ${role}`,
    );
    expect(sections).toEqual([
      'src/server.ts source',
      // The entry points: both passes (stdio served on both eras, the HTTP ones marked).
      'src/http.ts source',
      'src/sse.ts source',
      'src/stdio.ts source',
      'src/ping.ts upgrade',
      'package.json manifest',
      'src/mrtr-request-state.ts module',
    ]);
    expect(page).toMatch(/data-role="upgrade">\n<details><summary><h2><code>src\/ping\.ts<\/code>/);
    const server = page.slice(page.indexOf('data-path="src/server.ts"'), page.indexOf('data-path="src/http.ts"'));
    expect(server).toContain('<summary><h3>Diff, pass 1: the v1-to-v2 upgrade (official codemod)</h3></summary>');
    expect(server).toContain('<h3 data-pass="mrtr">Diff, pass 2: the MRTR migration</h3>');

    // The package.json names every package the changed files import (the v1 SDK stays: the client and the other server import it).
    const manifest = JSON.parse(result.changed.find((c) => c.path === 'package.json')!.output);
    const imported = new Set(result.changed.filter((c) => c.path.endsWith('.ts')).flatMap((c) => importedPackages(c.output)));
    expect([...imported].sort()).toEqual(expect.arrayContaining(['@modelcontextprotocol/server', '@modelcontextprotocol/server-legacy']));
    for (const name of imported) expect(Object.keys(manifest.dependencies), name).toContain(name);
    expect(manifest.dependencies['@modelcontextprotocol/sdk']).toBe('^1.32.2');
  });

  it('is run by check too: a finding on v1 code says what migrate will do with it', async () => {
    await project();
    const before = new Map(Object.entries(FILES));
    const report = await collectCheckReport([dir], dir);
    expect(report.findings.map((f) => [f.file, f.ruleId])).toEqual([['src/server.ts', 'legacy-request']]);
    expect(report.summary.fixable).toBe(1);
    // --no-v1: as they are, without the official codemod.
    const asIs = await collectCheckReport([dir], dir, {}, undefined, {}, { v1: false });
    expect(asIs.findings.map((f) => [f.file, f.ruleId])).toEqual([['src/server.ts', 'mrtr-todo/legacy-sdk']]);
    for (const [file, text] of before) expect(await readFile(path.join(dir, file), 'utf8'), file).toBe(text);
  });

  it("runs alone with v1: 'only', to be committed first; the next run makes the MRTR change", async () => {
    await project();
    const upgrade = await runCodemod({ paths: [dir], write: true, cwd: dir, v1: 'only' });
    expect(upgrade.errors).toEqual([]);
    expect(upgrade.v1Only).toBe(true);
    expect(upgrade.changed.map((c) => c.path).sort()).toEqual(NEEDED);
    for (const change of upgrade.changed) expect(passesOf(change), change.path).toEqual(['v1-upgrade']);
    expect(upgrade.stateModules).toEqual([]);
    expect(await readFile(path.join(dir, 'src/client.ts'), 'utf8')).toBe(FILES['src/client.ts']);
    expect(await readFile(path.join(dir, 'src/server.ts'), 'utf8')).toContain('server.server.elicitInput(');
    expect(formatSummary(upgrade, { dryRun: false, paths: ['src'] })).toContain(
      'Review and commit the v1-to-v2 upgrade, then run `mrtr-codemod migrate src` again for the MRTR change.',
    );

    const mrtr = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(mrtr.errors).toEqual([]);
    expect(mrtr.sites).toMatchObject([{ file: 'src/server.ts', status: 'migrated', handler: 'tool:go' }]);
    for (const change of mrtr.changed) expect(passesOf(change), change.path).toEqual(['mrtr']);
  });
});

describe('v1Scope, the rule alone', () => {
  const file = (name: string, text: string) => ({ absolutePath: `/p/${name}`, text });
  const SERVER = "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n";
  const CLIENT = "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n";
  const files = [
    file('server.ts', SERVER), // imports tools/ask.ts and tools/list.ts
    file('tools/ask.ts', SERVER), // the site
    file('tools/list.ts', SERVER),
    file('tools/list.test.ts', SERVER), // hands tools/list.ts a v1 server
    file('other-server.ts', SERVER), // nothing of the above
    file('client.ts', CLIENT), // imports tools/list.ts's types
  ];
  const edges: Record<string, string[]> = {
    '/p/server.ts': ['/p/tools/ask.ts', '/p/tools/list.ts'],
    '/p/tools/list.test.ts': ['/p/tools/list.ts'],
    '/p/client.ts': ['/p/tools/list.ts'],
  };
  const graph = {
    importsOf: (f: string) => edges[f] ?? [],
    importersOf: (f: string) => Object.keys(edges).filter((from) => edges[from]!.includes(f)),
  };

  it('takes the v1 modules a site file off v1 reaches its server through', () => {
    const shared = [file('context.ts', SERVER), file('other-server.ts', SERVER)];
    const through = { importsOf: (f: string) => (f === '/p/checkout.ts' ? ['/p/context.ts'] : []), importersOf: () => [] };
    expect([...v1Scope(shared, through, () => false, ['/p/checkout.ts'])]).toEqual(['/p/context.ts']);
    expect([...v1Scope(shared, through, () => false)]).toEqual([]);
  });

  it('takes the v1 importers of what a server module imports, to a fixed point, and never a client', () => {
    const scope = v1Scope(files, graph, (f) => f.absolutePath === '/p/tools/ask.ts');
    expect([...scope].sort()).toEqual(['/p/server.ts', '/p/tools/ask.ts', '/p/tools/list.test.ts', '/p/tools/list.ts']);
  });
});
