// Helpers on the way to a helper that may answer without asking, in a shape the split refuses:
// the request stays, and its marker names the function that cannot be split, what in it blocks
// (the statement and its line where there is one), and the next step for roots.
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('maybe-ask-callers-refused-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A module whose exported `openWorkspace()` reaches the client's roots through `isAllowed()`, with `body` as its own body. */
function workspace(params: string, body: string): string {
  return `import type { McpServer } from '@modelcontextprotocol/server';

async function allowedRoots(server: McpServer): Promise<string[]> {
  if (!server.server.getClientCapabilities()?.roots) return ['/srv'];
  const { roots } = await server.server.listRoots();
  return roots.map((r) => new URL(r.uri).pathname);
}

export async function isAllowed(server: McpServer, target: string): Promise<boolean> {
  const allowed = await allowedRoots(server);
  return allowed.some((root) => target.startsWith(root));
}

async function load(target: string): Promise<string> {
  return \`workspace at \${target}\`;
}

export async function openWorkspace(${params}): Promise<string> {
${body}
}
`;
}

const TOOL = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { openWorkspace } from './workspace.js';

export function register(server: McpServer): void {
  server.registerTool('open', { inputSchema: z.object({ target: z.string() }) }, async ({ target }) => {
    const text = await openWorkspace(CALL);
    return { content: [{ type: 'text', text }] };
  });
}
`;

async function markerOf(params: string, body: string, call: string): Promise<string | undefined> {
  await putFile(dir, 'src/workspace.ts', workspace(params, body));
  await putFile(dir, 'src/tools.ts', TOOL.replace('CALL', call));
  const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
  expect(result.errors).toEqual([]);
  const sites = result.sites.filter((s) => s.file === 'src/workspace.ts');
  expect(sites.map((s) => [s.status, s.code])).toEqual([['marked', 'in-helper']]);
  return sites[0]!.marker;
}

// The lines a marker names are those of the text written: the marker above the request in
// `allowedRoots()` moves every line of `openWorkspace()` down one.
describe('a helper that does more with the value of a maybe-ask helper, in a shape that cannot be split', () => {
  it('names the statement that awaits it inside an expression, with its line', async () => {
    // The call before it runs first: lifting the await out of the test would run it after.
    const body = '  if (target.trim() && !(await isAllowed(server, target))) {\n    throw new Error(`${target} is outside the roots`);\n  }\n  return target;';
    expect(await markerOf('server: McpServer, target: string', body, 'server, target')).toBe(
      '`openWorkspace()` is not split: its line 20 awaits `isAllowed()` inside an expres… — change that, then run again',
    );
  });

  it('names what it awaits before the value that the code after it reads, with its line', async () => {
    // Declared idempotent, `base` could be derived again; but the retry would await `load()` again before the answer's work.
    const body =
      '  // @mrtr-idempotent\n  const base = await load(target);\n  const inside = await isAllowed(server, target);\n  if (!inside) throw new Error(`${target} is outside the roots`);\n  return base;';
    expect(await markerOf('server: McpServer, target: string', body, 'server, target')).toBe(
      '`openWorkspace()` is not split: its line 21 awaits what the code after its reques… — change that, then run again',
    );
  });

  it('names the two lines that ask through it, where one call may reach both', async () => {
    // Split once for each question, its halves would be written twice (an internal error before).
    const body = [
      '  if (strict) {',
      "    if (!(await isAllowed(server, target))) throw new Error('outside');",
      '    return await load(target);',
      '  }',
      "  const fallback = '/srv/fallback';",
      "  if (!(await isAllowed(server, fallback))) throw new Error('outside');",
      '  return await load(fallback);',
    ].join('\n');
    expect(await markerOf('server: McpServer, target: string, strict: boolean', body, 'server, target, true')).toBe(
      '`openWorkspace()` is not split: its lines 21 and 25 both ask, not in two branches… — change that, then run again',
    );
  });

  it('names the try it calls the helper in, with its line', async () => {
    const body =
      "  try {\n    const inside = await isAllowed(server, target);\n    return inside ? target : 'outside';\n  } catch {\n    return 'unknown';\n  }";
    expect(await markerOf('server: McpServer, target: string', body, 'server, target')).toBe(
      '`openWorkspace()` is not split: its try at line 20 holds more than `isAllowed()` — change that, then run again',
    );
  });

  it('names the guarded await of an if that has an else, with its line', async () => {
    // `strict && await ...` with an else: the else runs when either is false, which nested ifs do not say.
    const body = "  if (strict && !(await isAllowed(server, target))) {\n    return 'outside';\n  } else {\n    return target;\n  }";
    expect(await markerOf('server: McpServer, target: string, strict: boolean', body, 'server, target, true')).toBe(
      '`openWorkspace()` is not split: its line 20 awaits `isAllowed()` inside an expres… — change that, then run again',
    );
  });

  it('names the parameter whose pattern keeps it whole, with its line', async () => {
    const body = "  const inside = await isAllowed(server, rest.target);\n  return inside ? rest.target : 'outside';";
    const type = '{ server: McpServer; target: string }';
    expect(await markerOf(`{ server, ...rest }: ${type}`, body, '{ server, target }')).toBe(
      '`openWorkspace()` is not split: its parameter at line 19 has a rest element — change that, then run again',
    );
    expect(await markerOf(`{ server, ['target']: target }: ${type}`, body.replace(/rest\./g, ''), '{ server, target }')).toBe(
      '`openWorkspace()` is not split: its parameter at line 19 has a computed key — change that, then run again',
    );
    expect(await markerOf(`{ server, target = String(Date.now()) }: ${type}`, body.replace(/rest\./g, ''), '{ server, target }')).toBe(
      '`openWorkspace()` is not split: its parameter at line 19 runs code in a default — change that, then run again',
    );
  });
});
