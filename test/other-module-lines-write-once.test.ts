// A file whose markers name lines of another module is written once, when those lines are
// known: a run stopped before then leaves the file as it was, never with the placeholders
// that stand for them.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { ASKER, CALLER } from './support/approve-project.ts';
import { checkoutScratch, noTypes, putFile } from './support/scratch.ts';

/** Every write of the run's atomic writer: the file, and the text written. */
const writes: Array<{ file: string; text: string }> = [];
vi.mock('../src/engine/atomic-write.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/engine/atomic-write.ts')>();
  return {
    ...actual,
    writeFileAtomic: async (file: string, data: string | Uint8Array, options?: Parameters<typeof actual.writeFileAtomic>[2]) => {
      writes.push({ file, text: typeof data === 'string' ? data : Buffer.from(data).toString('utf8') });
      return actual.writeFileAtomic(file, data, options);
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('write-once-');
  writes.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server built here, with a tool that migrates (the verifier is wired here) and one marked for calling the helper. */
const SERVER = [
  "import { McpServer } from '@modelcontextprotocol/server';",
  "import { approve } from './approve.js';",
  '',
  "export const server = new McpServer({ name: 'files', version: '1.0.0' });",
  "server.registerTool('name', { description: 'Ask a name' }, async (ctx) => {",
  "  const reply = await ctx.mcpReq.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });",
  "  return { content: [{ type: 'text', text: String(reply.content?.name) }] };",
  '});',
  "server.registerTool('purge', { description: 'Purge after asking' }, async (ctx) => {",
  "  if (!(await approve(ctx, 'Purge?'))) return { content: [] };",
  "  return { content: [{ type: 'text', text: 'purged' }] };",
  '});',
  '',
].join('\n');

const PLACEHOLDER = /[\uE002-\uE004]/;

describe('a file whose markers name lines of another module', () => {
  it('is written once, with the lines in place', async () => {
    await putFile(dir, 'src/approve.ts', ASKER);
    await putFile(dir, 'src/tools.ts', CALLER);
    await putFile(dir, 'src/server.ts', SERVER);
    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([]);
    const marked = result.sites.filter((s) => s.code === 'via-helper').map((s) => s.file);
    expect(marked.sort()).toEqual(['src/server.ts', 'src/tools.ts']);
    for (const w of writes) expect(w.text, path.relative(dir, w.file)).not.toMatch(PLACEHOLDER);
    const writesOf = (file: string) => writes.filter((w) => w.file === path.join(dir, file)).map((w) => w.text);
    // Only marked once the cross-module pass knows the helper: written once, at the end.
    expect(writesOf('src/tools.ts')).toEqual([result.changed.find((c) => c.path === 'src/tools.ts')!.output]);
    // Migrated by its own transform, then marked by the pass: written once too, finished.
    expect(writesOf('src/server.ts')).toEqual([result.changed.find((c) => c.path === 'src/server.ts')!.output]);
    for (const file of ['src/tools.ts', 'src/server.ts']) {
      const onDisk = await readFile(path.join(dir, file), 'utf8');
      expect(onDisk).toBe(result.changed.find((c) => c.path === file)!.output);
      expect(onDisk).toMatch(/@mrtr-todo\(via-helper\): `approve\(\)` asks at approve\.ts:5 /);
    }
    // The server's tool migrated, and the verifier is wired where it is built.
    const server = result.changed.find((c) => c.path === 'src/server.ts')!.output;
    expect(server).toContain('mrtrVerify()');
    expect(server).toContain('inputRequired');
  });
});
