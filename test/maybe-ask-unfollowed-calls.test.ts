// Calls of a helper that may answer without asking that its split cannot follow: one through a
// module loaded whole with import(), and one bound by name by an import() that cannot run again
// on the retry. The helper stays whole, and every marker names the call that keeps it so, with
// its line and what to do there.
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('maybe-ask-unfollowed-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const put = (relative: string, text: string) => putFile(dir, relative, text);

const PICK = `import type { McpServer } from '@modelcontextprotocol/server';

export async function pickRoot(server: McpServer, given?: string): Promise<string | undefined> {
  if (given) return given;
  const listed = await server.server.listRoots();
  return listed.roots[0]?.uri;
}
`;

/** A module registering `name`, whose handler finds its root through `call`, with `before` at the top. */
function tools(name: string, before: string, call: string): string {
  return `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
${before}
export function register(server: McpServer): void {
  server.registerTool('${name}', { inputSchema: z.object({ root: z.string().optional() }) }, async ({ root }) => {
    const found = await ${call};
    return { content: [{ type: 'text', text: found ?? 'none' }] };
  });
}
`;
}

async function markers(): Promise<string[][]> {
  const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
  expect(result.errors).toEqual([]);
  return result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.marker ?? '']);
}

describe('a call of a helper that its split cannot follow', () => {
  it('through a module import() loads whole is marked at the call, and the helper says where', async () => {
    await put('src/pick.ts', PICK);
    await put('src/direct.ts', tools('direct', "import { pickRoot } from './pick.js';\n", 'pickRoot(server, root)'));
    await put('src/whole.ts', tools('whole', '', "(await import('./pick.js')).pickRoot(server, root)"));
    const stays = '`pickRoot()` stays whole: whole.ts:7 loads it with import() unnamed — bind it by name there';
    expect(await markers()).toEqual([
      ['src/direct.ts', 'marked', stays],
      ['src/pick.ts', 'marked', stays],
      ['src/whole.ts', 'marked', '`pickRoot()` (pick.ts:6) comes from import() unnamed — bind it by name here, then run again'],
    ]);
  });

  it('bound with import() by a statement whose other name code run once reads is marked at the call, naming that line', async () => {
    await put('src/pick.ts', `${PICK}\nexport function note(text: string): void {\n  console.error(text);\n}\n`);
    await put('src/direct.ts', tools('direct', "import { pickRoot } from './pick.js';\n", 'pickRoot(server, root)'));
    const loaded = tools('loaded', '', 'pickRoot(server, root)').replace(
      '    const found',
      "    const { pickRoot, note } = await import('./pick.js');\n    note('looking');\n    const found",
    );
    await put('src/loaded.ts', loaded);
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    const sites = result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.marker ?? '']);
    expect(sites).toContainEqual(['src/loaded.ts', 'marked', '`pickRoot()` (line 6) is bound with names code run once reads — give it an import() of its own']);
    expect(sites.find((s) => s[0] === 'src/pick.ts')![1]).toBe('marked');
  });
});
