// A marker that names a line of another module names the line that statement is on in the text
// the run leaves there, not in the text it read: that module's own marker moves its lines.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { ASKER, CALLER } from './support/approve-project.ts';
import { checkoutScratch, noTypes, putFile } from './support/scratch.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('other-lines-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The line the via-helper marker of the caller names in approve.ts, and that line of the text `approveText`. */
function namedLine(marker: string, approveText: string): string {
  const line = /approve\.ts:(\d+)/.exec(marker)?.[1];
  expect(line, marker).toBeDefined();
  return approveText.split('\n')[Number(line) - 1]!.trim();
}

const ASKING = 'const reply = await ctx.mcpReq.elicitInput(';

describe('a marker naming a line of another module', () => {
  it('names the line of the text the run writes there (dry run: the diff, the report)', async () => {
    await putFile(dir, 'src/approve.ts', ASKER);
    await putFile(dir, 'src/tools.ts', CALLER);
    const result: RunResult = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([]);
    const approve = result.changed.find((c) => c.path === 'src/approve.ts')!;
    // Its own marker is above the request: the request moved down a line.
    expect(approve.output).toContain('// @mrtr-todo(in-helper)');
    const site = result.sites.find((s) => s.file === 'src/tools.ts' && s.code === 'via-helper')!;
    expect(namedLine(site.marker!, approve.output)).toMatch(new RegExp(`^${ASKING.replace(/[(.]/g, '\\$&')}`));
    // The report's reason names the same line.
    expect(site.reason).toContain(`(src/approve.ts:${/approve\.ts:(\d+)/.exec(site.marker!)![1]})`);
    const tools = result.changed.find((c) => c.path === 'src/tools.ts')!;
    const written = tools.output.split('\n').find((l) => l.includes('@mrtr-todo(via-helper)'))!;
    expect(namedLine(written, approve.output)).toContain(ASKING);
    expect(tools.output).not.toMatch(/[\uE000-\uE004]/);
  });

  it('is written so on disk', async () => {
    await putFile(dir, 'src/approve.ts', ASKER);
    await putFile(dir, 'src/tools.ts', CALLER);
    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([]);
    const [tools, approve] = await Promise.all(['tools.ts', 'approve.ts'].map((f) => readFile(path.join(dir, 'src', f), 'utf8')));
    expect(tools).toBe(result.changed.find((c) => c.path === 'src/tools.ts')!.output);
    const written = tools!.split('\n').find((l) => l.includes('@mrtr-todo(via-helper)'))!;
    expect(namedLine(written, approve!)).toContain(ASKING);
  });
});
