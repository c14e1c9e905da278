// The rounds that decide which exported helpers are split: a helper kept whole in one round
// blocks the handlers that call it, and with them their calls of other helpers, so the calls
// are planned again. Only an importer of a helper a round kept whole can plan otherwise in the
// next; the others are not planned again (each plan parses its file anew).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvedSplits, AskingHelperIndex, helperKey, type RefusedSplits } from '../src/engine/cross-module.ts';
import { planKeepingLines } from '../src/transform.ts';

const ROOT = path.resolve('rounds-project');
const at = (relative: string) => path.join(ROOT, relative);

// Each question reads a local, so neither helper can stay under its name for a call that cannot
// ask through its halves (plan/legacy-entry.ts): a call that does not migrate keeps it whole.
const PICKERS = `import type { McpServer } from '@modelcontextprotocol/server';

const ask = (field: string) => ({ type: 'object' as const, properties: { [field]: { type: 'string' as const } }, required: [field] });

export async function pickBoard(server: McpServer): Promise<string | undefined> {
  const preset = process.env.BOARD;
  if (preset) return preset;
  const question = 'Which board?';
  const result = await server.server.elicitInput({ message: question, requestedSchema: ask('board') });
  return result.action === 'accept' ? String(result.content?.board) : undefined;
}

export async function pickLane(server: McpServer, board: string): Promise<string | undefined> {
  const preset = process.env.LANE;
  if (preset) return preset;
  const question = \`Which lane of \${board}?\`;
  const result = await server.server.elicitInput({ message: question, requestedSchema: ask('lane') });
  return result.action === 'accept' ? String(result.content?.lane) : undefined;
}
`;

// move_card asks pickBoard, then pickLane; board_stats awaits pickBoard beside other work, which
// keeps pickBoard whole in the first round, and move_card's call of pickLane in the second.
const BOARD_TOOLS = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickBoard, pickLane } from './pickers.js';

export function register(server: McpServer): void {
  server.registerTool('move_card', { inputSchema: z.object({ card: z.string() }) }, async ({ card }) => {
    const board: string | undefined = await pickBoard(server);
    if (!board) return { content: [{ type: 'text', text: 'No board.' }] };
    const lane: string | undefined = await pickLane(server, board);
    return { content: [{ type: 'text', text: \`\${card} to \${board}/\${lane ?? 'none'}\` }] };
  });
  server.registerTool('board_stats', { inputSchema: z.object({}) }, async () => {
    const [board, now] = await Promise.all([pickBoard(server), Promise.resolve(Date.now())]);
    return { content: [{ type: 'text', text: \`\${board ?? 'none'} at \${now}\` }] };
  });
}
`;

// Calls pickLane alone, in a way that migrates.
const LANE_TOOLS = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickLane } from './pickers.js';

export function register(server: McpServer): void {
  server.registerTool('show_lane', { inputSchema: z.object({}) }, async () => {
    const lane = await pickLane(server, 'main');
    return { content: [{ type: 'text', text: lane ?? 'none' }] };
  });
}
`;

describe('the rounds that approve helper splits', () => {
  it('plans again only the importers of a helper the last round kept whole, and ends as before', async () => {
    const sources = new Map([
      [at('src/pickers.ts'), PICKERS],
      [at('src/tools.ts'), BOARD_TOOLS],
      [at('src/lanes.ts'), LANE_TOOLS],
    ]);
    const pickers = at('src/pickers.ts');
    const helpers = new Map([[pickers, (await planKeepingLines(PICKERS, pickers)).exportedHelpers]]);
    expect(helpers.get(pickers)!.map((h) => [h.name, Boolean(h.split)])).toEqual([
      ['pickBoard', true],
      ['pickLane', true],
    ]);
    const index = new AskingHelperIndex(helpers, (file) => path.relative(ROOT, file));
    const importers = [at('src/tools.ts'), at('src/lanes.ts')].map((absolutePath) => ({ absolutePath, source: sources.get(absolutePath)! }));
    const planned: string[] = [];
    const refused: RefusedSplits = { calls: new Map(), heldBack: new Map() };
    const approved = await approvedSplits(
      index,
      helpers,
      importers,
      (file, options) => {
        planned.push(path.relative(ROOT, file));
        return planKeepingLines(sources.get(file)!, file, undefined, options);
      },
      refused,
    );
    expect([...approved]).toEqual([]);
    // The helpers' module once; both importers in the first round; in the second only
    // src/tools.ts, the one importer of pickBoard (src/lanes.ts plans as it did).
    expect(planned).toEqual(['src/pickers.ts', 'src/tools.ts', 'src/lanes.ts', 'src/tools.ts']);
    expect([...refused.calls]).toEqual([
      [helperKey(pickers, 'pickBoard'), { file: 'src/tools.ts', line: 13, code: 'mixed-promise-all' }],
      [helperKey(pickers, 'pickLane'), { file: 'src/tools.ts', line: 7, code: 'via-helper' }],
    ]);
  });
});
