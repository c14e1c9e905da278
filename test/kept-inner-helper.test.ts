// An exported helper that asks through another exported helper of its module (`resolveBoard()`
// calls `isOpen()`), where another module's handler calls the inner one in a way that cannot
// migrate: the engine keeps the inner helper whole, so the outer one stays whole with it. The
// marker at the request names the helper kept whole and the call that keeps it, not "no handler
// calls `resolveBoard()`", which four handlers do. (`isOpen` is a const function, which cannot stay
// under its name for that call as a plain function would: plan/legacy-entry.ts.)
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

const BOARDS = `import type { McpServer } from '@modelcontextprotocol/server';

export const isOpen = async (server: McpServer, board: string): Promise<boolean> => {
  const result = await server.server.elicitInput({ message: \`Open \${board}?\`, requestedSchema: { type: 'object', properties: {} } });
  return result.action === 'accept';
};

export async function resolveBoard(server: McpServer, board: string): Promise<string> {
  if (!(await isOpen(server, board))) throw new Error(\`\${board} is closed\`);
  return board;
}
`;

const MOVE = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { resolveBoard } from './boards.js';

export function register(server: McpServer): void {
  server.registerTool('move', { inputSchema: z.object({ board: z.string() }) }, async ({ board }) => {
    const open = await resolveBoard(server, board);
    return { content: [{ type: 'text', text: open }] };
  });
}
`;

// Asks in a callback of its handler: refused, so isOpen() stays whole.
const SCAN = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { isOpen } from './boards.js';

export function register(server: McpServer): void {
  server.registerTool('scan', { inputSchema: z.object({ boards: z.array(z.string()) }) }, async ({ boards }) => {
    const open = await Promise.all(boards.map((board) => isOpen(server, board)));
    return { content: [{ type: 'text', text: String(open.filter(Boolean).length) }] };
  });
}
`;

let dir: string;
beforeAll(async () => {
  dir = checkoutScratch('kept-inner-');
  await putFile(dir, 'src/boards.ts', BOARDS);
  await putFile(dir, 'src/move.ts', MOVE);
  await putFile(dir, 'src/scan.ts', SCAN);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('an exported helper kept whole for another module, called by an exported helper of its module', () => {
  it('is the one the marker at the request names, with the call that keeps it whole', async () => {
    const run = await cli(dir, 'migrate', '--dry-run', '--json', 'src');
    const summary = JSON.parse(run.stdout) as { markers: Array<{ file: string; line: number; code: string; marker: string }> };
    const atRequest = summary.markers.find((m) => m.file === 'src/boards.ts');
    expect(atRequest?.code).toBe('in-helper');
    // Line 7 of scan.ts, which its own marker moves to 8 in the text migrate writes.
    expect(atRequest?.marker).toMatch(/^`isOpen\(\)` stays whole: scan\.ts:8 is refused \(/);
    expect(atRequest?.marker).not.toContain('no handler');
  });
});
