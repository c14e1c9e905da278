// A function that asks through another module's helper at two points, one in each branch of an
// if, is split once at both (maybe-ask-points.ts), as a helper of its own module asking through
// its own helper is. Each call used to be split on its own: the two splits of one function
// overlapped, the module failed to transform, and the helper's module was written split while
// its caller still called the helper it no longer had.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCalls, type Era, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';
import { diagnosticsByFile } from './support/typecheck.ts';

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "points", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerOpen } from './tools/open.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'points', version: '1.0.0' });
  registerOpen(server, log);
  return server;
}
`,
  'src/lib/root.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export async function pickRoot(server: McpServer, log: string[], given?: string): Promise<string> {
  log.push(\`pick:\${given ?? '?'}\`);
  if (given) return given;
  const { roots } = await server.server.listRoots();
  return roots[0]?.uri ?? '/';
}
`,
  'src/lib/open-root.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import { pickRoot } from './root.js';

export async function openRoot(server: McpServer, log: string[], strict: boolean, given?: string): Promise<string> {
  let opened: string;
  if (strict) {
    const picked = await pickRoot(server, log, given);
    opened = \`strict \${picked}\`;
  } else {
    const picked = await pickRoot(server, log, given);
    opened = \`loose \${picked}\`;
  }
  log.push(\`open:\${opened}\`);
  return opened;
}
`,
  'src/tools/open.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { openRoot } from '../lib/open-root.js';

export function registerOpen(server: McpServer, log: string[]): void {
  server.registerTool('open', { inputSchema: z.object({ strict: z.boolean(), given: z.string().optional() }) }, async ({ strict, given }) => {
    const opened = await openRoot(server, log, strict, given);
    return { content: [{ type: 'text', text: opened }] };
  });
}
`,
};

const pair = migratedPair<{ createServer(log: string[]): McpServer }>('cross-module-points-', PROJECT);

const CALLS: ToolCall[] = [
  { name: 'open', arguments: { strict: true } },
  { name: 'open', arguments: { strict: false } },
  { name: 'open', arguments: { strict: true, given: '/srv/given' } },
];

const run = async (tree: 'original' | 'migrated', era: Era) => {
  const log: string[] = [];
  const server = await pair.load(tree);
  const recording = await runCalls(() => server.createServer(log), era, CALLS, { roots: [{ uri: 'file:///home/ada' }] });
  return { results: recording.results, questions: recording.questions, log };
};

describe('a function asking through another module’s helper at two points', () => {
  it('is split once at both, and every handler migrates', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/lib/root.ts', 'migrated', undefined]]);
    expect(pair.result.askingThrough).toEqual([{ file: 'src/tools/open.ts', handler: 'tool:open', line: 6 }]);
    const openRoot = await pair.read('migrated', 'src/lib/open-root.ts');
    expect(openRoot).toContain("return 'ask' in mrtrOutcome ? { ...mrtrOutcome, carried: { at: 1 } } : ");
    expect(openRoot).toContain("return 'ask' in mrtrOutcome ? { ...mrtrOutcome, carried: { at: 2 } } : ");
    expect(openRoot).not.toContain('pickRoot(');
    expect(await pair.read('migrated', 'src/lib/root.ts')).not.toContain('legacy-entry');
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));
    expect(await pair.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
    // The request half keeps no `let opened: string;` that only the code after the questions read.
    const unused = diagnosticsByFile([path.join(pair.root, 'migrated', 'src/lib/open-root.ts')], { noUnusedLocals: true });
    expect([...unused.values()].flat()).toEqual([]);
  });

  it('gives the original results, questions and effects on both eras', async () => {
    const original = await run('original', 'legacy');
    expect(original.results).toEqual([
      { content: [{ type: 'text', text: 'strict file:///home/ada' }] },
      { content: [{ type: 'text', text: 'loose file:///home/ada' }] },
      { content: [{ type: 'text', text: 'strict /srv/given' }] },
    ]);
    expect(await run('migrated', 'legacy')).toEqual(original);
    expect(await run('migrated', 'modern')).toEqual(original);
  });
});
