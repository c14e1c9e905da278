// A stdio entry point end to end: a server process connected to a StdioServerTransport serves
// only the 2025 era, so a 2026-07-28 client falls back; once migrated (handler and entry point)
// the same process serves both eras, spawned as an MCP host spawns it, driven by the real client.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { fixtureCases } from './support/fixtures.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';
import { callOverStdio } from './support/stdio-client.ts';

const SERVER = `import { McpServer } from '@modelcontextprotocol/server';

const log = (entry) => process.stderr.write(\`LOG \${entry}\\n\`);

export function createServer() {
  const server = new McpServer({ name: 'entry-e2e', version: '1.0.0' });
  server.registerTool('go', {}, async (ctx) => {
    log('asked');
    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
    log(\`answer:\${answer.action}\`);
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return { server, cleanup: () => log('cleanup') };
}
`;

const ENTRY = `import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createServer } from './server.mjs';

async function main() {
  const transport = new StdioServerTransport();
  const { server, cleanup } = createServer();
  await server.connect(transport);
  process.stdin.on('end', async () => {
    await server.close();
    cleanup();
  });
}

main();
`;

let dir: string;
beforeAll(async () => {
  dir = checkoutScratch('stdio-entry-');
  await putFile(dir, 'src/server.mjs', SERVER);
  await putFile(dir, 'src/stdio.mjs', ENTRY);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a stdio entry point', () => {
  it('serves only 2025 as written: a 2026-07-28 client falls back', async () => {
    const { results } = await callOverStdio(path.join(dir, 'src/stdio.mjs'), 'modern');
    expect(results).toEqual([{ content: [{ type: 'text', text: 'accept' }], era: 'legacy' }]);
  });

  it('serves both eras once migrated, asking the same question, and cleans up the server it built', async () => {
    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(result.errors).toEqual([]);
    expect(result.entryPoints).toEqual([{ file: 'src/stdio.mjs', line: 7, status: 'migrated', via: 'serveStdio' }]);
    expect(await readFile(path.join(dir, 'src/stdio.mjs'), 'utf8')).toBe(`import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createServer } from './server.mjs';

async function main() {
  const servedInstances = [];
  const server = serveStdio(() => {
    const instance = createServer();
    servedInstances.push(instance);
    return instance.server;
  });
  process.stdin.on('end', async () => {
    await server.close();
    for (const { cleanup } of servedInstances) cleanup();
  });
}

main();
`);
    for (const era of ['modern', 'legacy'] as const) {
      const { results, log } = await callOverStdio(path.join(dir, 'src/stdio.mjs'), era);
      expect({ era, results, log }).toEqual({
        era,
        results: [{ content: [{ type: 'text', text: 'accept' }], era }],
        log: ['asked', 'answer:accept', 'cleanup'],
      });
    }
  });
});

// Each stdio shape of the fixtures, its input and its output spawned as processes: as written
// the server answers a 2026-07-28 client on 2025; migrated it serves both eras alike, asking
// the same question and logging the same side effects as the original did on 2025.
describe.each(['stdio-entry-factory', 'stdio-entry-inline'])('the %s fixture as a process', (name) => {
  const fixture = fixtureCases().find((c) => c.name === name)!;
  const SAME = { results: [{ content: [{ type: 'text', text: 'accept' }] }], questions: ['Go?'] };

  it('serves 2025 only as written, and both eras alike once migrated', async () => {
    const era = (r: { results: unknown[] }) => (r.results[0] as { era: string }).era;
    const without = (r: { results: unknown[]; questions: string[]; log: string[] }) => ({
      ...r,
      results: r.results.map((x) => ({ content: (x as { content: unknown }).content })),
    });
    const original = { modern: await callOverStdio(fixture.inputPath, 'modern'), legacy: await callOverStdio(fixture.inputPath, 'legacy') };
    const migrated = { modern: await callOverStdio(fixture.outputPath, 'modern'), legacy: await callOverStdio(fixture.outputPath, 'legacy') };
    expect([era(original.modern), era(original.legacy), era(migrated.modern), era(migrated.legacy)]).toEqual(['legacy', 'legacy', 'modern', 'legacy']);
    const closing = name === 'stdio-entry-factory' ? 'cleanup' : 'closed';
    expect(without(original.legacy)).toEqual({ ...SAME, log: ['asked', 'answer:accept', closing] });
    expect(without(original.modern)).toEqual(without(original.legacy));
    expect(without(migrated.legacy)).toEqual(without(original.legacy));
    expect(without(migrated.modern)).toEqual(without(original.legacy));
  });
});
