// An exported function that asks through another module's helper (`startLaunch()` awaits
// `pickBay()`), called by its own module's handler, stays whole when splitting it would leave a
// caller without it: a function no handler (a spec file's `checkLaunch()`), or callers out of
// sight (no module of the run imports it). The helper stays whole with it, and both markers say
// why that function does: before, each sent the reader to the other ("its call at launch.ts:6
// cannot migrate"). Last, two helpers that make one request, one called by a test: the markers
// name the test's call, and the other helper's callers are sent to it. `startLaunch` is a const
// function, which cannot keep a legacy entry under its name (plan/legacy-entry.ts).
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

const ASK = `import type { McpServer } from '@modelcontextprotocol/server';

export async function pickBay(server: McpServer, preferred: string | undefined): Promise<string> {
  if (preferred) return preferred;
  const answer = await server.server.elicitInput({
    message: 'Which bay?',
    requestedSchema: { type: 'object', properties: { bay: { type: 'string' } }, required: ['bay'] },
  });
  return answer.action === 'accept' ? String(answer.content?.bay) : 'bay-1';
}
`;

const LAUNCH = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickBay } from './ask.js';

export const startLaunch = async (server: McpServer, rocket: string, bay: string | undefined): Promise<string> => {
  const chosen = await pickBay(server, bay);
  return \`\${rocket} launches from \${chosen}\`;
};

export function register(server: McpServer): void {
  server.registerTool('launch', { inputSchema: z.object({ rocket: z.string(), bay: z.string().optional() }) }, async ({ rocket, bay }) => {
    const text = await startLaunch(server, rocket, bay);
    return { content: [{ type: 'text', text }] };
  });
}
`;

const SPEC = `import { McpServer } from '@modelcontextprotocol/server';
import { startLaunch } from './launch.js';

export async function checkLaunch(): Promise<boolean> {
  const server = new McpServer({ name: 'test', version: '0.0.0' });
  return (await startLaunch(server, 'atlas', 'bay-9')) === 'atlas launches from bay-9';
}
`;

// A test: the call is in a callback, no named function.
const TEST = `import { McpServer } from '@modelcontextprotocol/server';
import { startLaunch } from './launch.js';

declare function it(name: string, body: () => Promise<void>): void;

it('launches from the bay asked for', async () => {
  const server = new McpServer({ name: 'test', version: '0.0.0' });
  await startLaunch(server, 'atlas', 'bay-9');
});
`;

type Finding = { file: string; line: number; ruleId: string; message: string };

async function findings(dir: string): Promise<Finding[]> {
  const run = await cli(dir, 'check', '--format', 'json', 'src');
  return (JSON.parse(run.stdout) as { findings: Finding[] }).findings;
}

const dirs: string[] = [];
async function project(files: Record<string, string>): Promise<string> {
  const dir = checkoutScratch('wrapper-whole-');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await putFile(dir, name, text);
  return dir;
}
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('a function asking through another module’s helper, kept whole', () => {
  let withSpec: Finding[];
  let withTest: Finding[];
  let alone: Finding[];
  beforeAll(async () => {
    withSpec = await findings(await project({ 'src/ask.ts': ASK, 'src/launch.ts': LAUNCH, 'src/launch_spec.ts': SPEC }));
    withTest = await findings(await project({ 'src/ask.ts': ASK, 'src/launch.ts': LAUNCH, 'src/launch.test.ts': TEST }));
    alone = await findings(await project({ 'src/ask.ts': ASK, 'src/launch.ts': LAUNCH }));
  });

  it('names the caller outside any handler that keeps it whole, at the request and at its call', () => {
    const atRequest = withSpec.find((f) => f.file === 'src/ask.ts')!;
    const atCall = withSpec.find((f) => f.file === 'src/launch.ts' && f.line === 6)!;
    for (const f of [atRequest, atCall]) {
      expect(f.message).toContain('`startLaunch()`, a function another module exports that calls it at src/launch.ts:6 and is no handler');
      expect(f.message).toContain('`checkLaunch()` calls it at src/launch_spec.ts:6 and is no handler');
      expect(f.message).not.toContain('cannot migrate (via-helper)');
    }
  });

  it('names the call in a test callback that keeps it whole', () => {
    const atRequest = withTest.find((f) => f.file === 'src/ask.ts')!;
    expect(atRequest.message).toContain(
      '`startLaunch()`, a function another module exports that calls it at src/launch.ts:6 and is no handler, cannot be split to ask through its halves: it is called outside handlers at launch.test.ts:8 (a test or a script)',
    );
    const handler = withTest.find((f) => f.file === 'src/launch.ts' && f.line === 12)!;
    expect(handler.ruleId).toBe('mrtr-todo/via-helper');
  });

  it('keeps the refusal of another module’s call, which is not the function’s', async () => {
    // A handler asking through a local function it cannot split (its argument runs again on the retry).
    const scan = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickBay } from './ask.js';

async function pickFor(server: McpServer, bay: string | undefined): Promise<string> {
  const chosen = await pickBay(server, bay);
  return chosen.toUpperCase();
}

export function registerScan(server: McpServer, ticket: () => string): void {
  server.registerTool('scan', { inputSchema: z.object({}) }, async () => {
    const bay = await pickFor(server, ticket());
    return { content: [{ type: 'text', text: bay }] };
  });
}
`;
    const both = await findings(await project({ 'src/ask.ts': ASK, 'src/launch.ts': LAUNCH, 'src/launch_spec.ts': SPEC, 'src/scan.ts': scan }));
    const atRequest = both.find((f) => f.file === 'src/ask.ts')!;
    const atScan = both.find((f) => f.file === 'src/scan.ts' && f.line === 6)!;
    expect(atScan.message).toContain('`pickFor()` cannot be split');
    // scan.ts's refusal is found first (startLaunch() is kept whole a round later): the request names it, not startLaunch()'s reason.
    expect(atRequest.message).toContain('its call at src/scan.ts:6 cannot migrate (via-helper)');
    expect(atRequest.message).not.toContain('startLaunch()');
  });

  it('says no module imports it when nothing else calls it', () => {
    const atRequest = alone.find((f) => f.file === 'src/ask.ts')!;
    expect(atRequest.message).toContain('no module of the run imports it by name');
    expect(atRequest.message).not.toContain('cannot migrate (via-helper)');
    expect(alone.map((f) => [f.file, f.line, f.ruleId])).toEqual([
      ['src/ask.ts', 5, 'mrtr-todo/in-helper'],
      ['src/launch.ts', 6, 'mrtr-todo/via-helper'],
      ['src/launch.ts', 12, 'mrtr-todo/via-helper'],
    ]);
  });
});

// Two helpers on the way to one request (`isAllowed()` and `resolveProject()` both await
// `clientRoots()`), split together or not at all; a test calls one of them outside any handler.
const ROOTS = `import type { McpServer } from '@modelcontextprotocol/server';

async function clientRoots(server: McpServer): Promise<string[]> {
  if (!server.server.getClientCapabilities()?.roots) return [process.cwd()];
  const { roots } = await server.server.listRoots();
  return roots.map((root) => new URL(root.uri).pathname);
}

export async function isAllowed(server: McpServer, path: string): Promise<boolean> {
  const roots = await clientRoots(server);
  return roots.some((root) => path.startsWith(root));
}

// A const function: it cannot keep a legacy entry for the test's call, so it stays whole.
export const resolveProject = async (server: McpServer, name: string): Promise<string> => {
  const roots = await clientRoots(server);
  return \`\${roots[0] ?? '/'}\${name}\`;
};
`;

const READ = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { isAllowed } from './roots.js';

export function registerRead(server: McpServer): void {
  server.registerTool('read', { inputSchema: z.object({ path: z.string() }) }, async ({ path }) => {
    const allowed = await isAllowed(server, path);
    return { content: [{ type: 'text', text: allowed ? \`reading \${path}\` : \`\${path} is outside the roots\` }] };
  });
}
`;

const OPEN = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { resolveProject } from './roots.js';

export function registerOpen(server: McpServer): void {
  server.registerTool('open', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => {
    const found = await resolveProject(server, name);
    return { content: [{ type: 'text', text: found }] };
  });
}
`;

const ROOTS_TEST = `import { McpServer } from '@modelcontextprotocol/server';
import { resolveProject } from './roots.js';

declare function it(name: string, body: () => Promise<void>): void;

it('resolves a project under the first root', async () => {
  const server = new McpServer({ name: 'test', version: '0.0.0' });
  await resolveProject(server, 'app');
});
`;

describe('helpers that share a request, one of them called by a test', () => {
  let markers: Array<{ file: string; line: number; code: string; marker: string; reason: string }>;
  beforeAll(async () => {
    const dir = await project({ 'src/roots.ts': ROOTS, 'src/read.ts': READ, 'src/open.ts': OPEN, 'src/roots.test.ts': ROOTS_TEST });
    const run = await cli(dir, 'migrate', '--dry-run', '--json', 'src');
    markers = (JSON.parse(run.stdout) as { markers: typeof markers }).markers;
  });

  it('tells a helper only a test calls that no handler calls it, which would keep it whole without the test', async () => {
    const dir = await project({ 'src/roots.ts': ROOTS, 'src/roots.test.ts': ROOTS_TEST });
    const run = await cli(dir, 'migrate', '--dry-run', '--json', 'src');
    const only = (JSON.parse(run.stdout) as { markers: typeof markers }).markers;
    expect(only.map((m) => [m.file, m.line, m.code])).toEqual([['src/roots.ts', 5, 'in-helper']]);
    expect(only[0]!.marker).toContain('found no handler calling it');
  });

  it('names the test call at the request and at the handler calling that helper', () => {
    expect(markers.map((m) => [m.file, m.line, m.code, m.marker])).toEqual([
      ['src/open.ts', 7, 'via-helper', '`resolveProject()` stays whole: roots.test.ts:8 calls it outside handlers — test through a client'],
      ['src/read.ts', 7, 'via-helper', 'the helper asks with `resolveProject()`, which stays whole — see roots.ts:6'],
      ['src/roots.ts', 5, 'in-helper', '`resolveProject()` stays whole: roots.test.ts:8 calls it outside handlers — test through a client'],
    ]);
    expect(markers[1]!.reason).toContain('`resolveProject()` makes the same request and stays whole (the marker at src/roots.ts:6 says why)');
  });
});
