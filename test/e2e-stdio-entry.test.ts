// A stdio entry point end to end: a server process connected to a StdioServerTransport serves
// only the 2025 era, so a 2026-07-28 client falls back; once migrated (handler and entry point)
// the same process serves both eras, spawned as an MCP host spawns it, driven by the real client.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
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
    expect(result.entryPoints).toEqual([{ file: 'src/stdio.mjs', line: 7, status: 'migrated' }]);
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
