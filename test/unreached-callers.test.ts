// An exported asking helper stays whole while one of its calls is made where no handler asks
// through it; the marker names that caller and a step that fits what it is: a function of its
// module that no handler reaches, or an exported function that handlers of other modules call
// and that cannot be split to ask through the helper's halves (and why).
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('unreached-callers-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * An exported helper that asks for a folder, and could be split for its callers. A const
 * function, which cannot keep a legacy entry under its name (plan/legacy-entry.ts): it stays
 * whole for a call outside the handlers.
 */
const ASKER = [
  "import type { ServerContext } from '@modelcontextprotocol/server';",
  'export const askFolder = async (ctx: ServerContext): Promise<string | undefined> => {',
  "  const reply = await ctx.mcpReq.elicitInput({ message: 'Folder?', requestedSchema: { type: 'object', properties: { folder: { type: 'string' } } } });",
  "  return reply.action === 'accept' ? String(reply.content?.folder) : undefined;",
  '};',
  '',
].join('\n');

/** A tool that asks through the helper itself. */
const TOOL = [
  "import type { McpServer } from '@modelcontextprotocol/server';",
  "import { askFolder } from './ask.js';",
  '',
  'export function registerOpen(server: McpServer): void {',
  "  server.registerTool('open', { description: 'Open a folder' }, async (ctx) => {",
  '    const folder = await askFolder(ctx);',
  "    return { content: [{ type: 'text', text: `opened ${folder}` }] };",
  '  });',
  '}',
  '',
].join('\n');

/** Functions that call the helper outside any handler: one exported, one only this module's. */
const SETUP = [
  "import type { ServerContext } from '@modelcontextprotocol/server';",
  "import { askFolder } from './ask.js';",
  '',
  'export async function prepare(ctx: ServerContext): Promise<string> {',
  "  return (await askFolder(ctx)) ?? '.';",
  '}',
  '',
].join('\n');

const WARM_UP = [
  "import type { ServerContext } from '@modelcontextprotocol/server';",
  "import { askFolder } from './ask.js';",
  '',
  'async function warmUp(ctx: ServerContext): Promise<void> {',
  '  await askFolder(ctx);',
  '}',
  'export const started = (ctx: ServerContext) => void warmUp(ctx);',
  '',
].join('\n');

async function markersWith(other: Record<string, string>): Promise<Array<[string, string | undefined, string | undefined]>> {
  await putFile(dir, 'src/ask.ts', ASKER);
  await putFile(dir, 'src/open.ts', TOOL);
  for (const [file, text] of Object.entries(other)) await putFile(dir, file, text);
  // Without the checker (which would be asked whether the helper's `String(...)` may be a promise).
  const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false });
  expect(result.errors).toEqual([]);
  return result.sites.filter((s) => s.status === 'marked').map((s) => [s.file, s.code, s.marker]);
}

describe('a helper kept whole by a caller outside the handlers', () => {
  it('says why an exported caller that could ask through its halves cannot be split', async () => {
    expect(await markersWith({ 'src/setup.ts': SETUP })).toEqual([
      ['src/ask.ts', 'in-helper', '`prepare()` (setup.ts:5): its line 5 awaits `askFolder()` inside an express… — fix that'],
      ['src/open.ts', 'via-helper', '`prepare()` (setup.ts:5): its line 5 awaits `askFolder()` inside an express… — fix that'],
    ]);
  });

  it('says to call a caller of its own module from a tool, or drop the call', async () => {
    expect(await markersWith({ 'src/warm-up.ts': WARM_UP })).toEqual([
      ['src/ask.ts', 'in-helper', 'no handler reaches its caller `warmUp()` (warm-up.ts:5) — call it in a tool or drop the call'],
      ['src/open.ts', 'via-helper', 'no handler reaches caller `warmUp()` (warm-up.ts:5) — call it in a tool or drop the call'],
    ]);
  });
});
