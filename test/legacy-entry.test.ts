// When a helper split for its handlers is kept under its name for the calls that cannot ask
// through its halves (a test's, here), and when it is not: the entry is written only where the
// helper's request can be made again as written. The whole server, through the client, is
// test/e2e-legacy-entry.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { putFile } from './support/scratch.ts';
import { withNames } from '../src/plan/push-template.ts';

const TOOLS = (ext: string, call: string) => `import { McpServer } from '@modelcontextprotocol/server';
import { confirmPurge } from './confirm.${ext}';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('purge', { inputSchema: schema }, async ({ table, count }) => {
  const ok = await ${call};
  return { content: [{ type: 'text', text: String(ok) }] };
});
`;
/** A JavaScript module's server, and its handler calling the helper the module declares between them. */
const SERVER_JS = "import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\n";
const HANDLER = `server.registerTool('purge', { inputSchema: schema }, async ({ table, count }) => {
  const ok = await confirmPurge(table, count);
  return { content: [{ type: 'text', text: String(ok) }] };
});
`;
const TEST = (from: string, call: string) => `import { confirmPurge } from './${from}';
test('skips the question for an empty table', async () => {
  expect(await ${call}).toBe(true);
});
`;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mrtr-legacy-entry-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function migrate(
  name: string,
  files: Record<string, string>,
  types = false,
): Promise<{ result: RunResult; output: (file: string) => string | undefined }> {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) await putFile(dir, file, text);
  const result = await runCodemod({ paths: ['.'], cwd: dir, write: false, ...(types ? {} : { types: false as const }) });
  return { result, output: (file) => result.changed.find((c) => c.path === file)?.output };
}

describe('a legacy entry', () => {
  it('is not written where the request reads a local of the helper: the helper stays whole for the test', async () => {
    const { result, output } = await migrate('reads-local', {
      'confirm.ts': `import type { McpServer } from '@modelcontextprotocol/server';
export async function confirmPurge(server: McpServer, table: string, count: number): Promise<boolean> {
  if (count === 0) return true;
  const message = \`Purge \${count} rows of \${table}?\`;
  const answer = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}
`,
      'tools.ts': TOOLS('ts', 'confirmPurge(server, table, count)'),
      'confirm.test.ts': TEST('confirm.ts', "confirmPurge(fake, 'logs', 0)"),
    });
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['confirm.ts', 'marked', 'in-helper'],
      ['tools.ts', 'marked', 'via-helper'],
    ]);
    expect(output('confirm.ts')).toContain('// @mrtr-todo(in-helper): `confirmPurge()` stays whole: confirm.test.ts:3 calls it outside handlers');
    expect(output('confirm.ts')).not.toContain('confirmPurgeRequest');
  });

  it('in JavaScript, takes the context as a parameter left undefined, and reads it optionally', async () => {
    const { result, output } = await migrate('javascript', {
      'tools.js': `${SERVER_JS}export async function confirmPurge(table, count) {
  if (count === 0) return true;
  if (!server.server.getClientCapabilities()?.elicitation) return false;
  const answer = await server.server.elicitInput({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}
${HANDLER}`,
      'confirm.test.js': TEST('tools.js', "confirmPurge('logs', 0)"),
    });
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['tools.js', 'marked', 'legacy-entry'],
      ['tools.js', 'migrated', undefined],
    ]);
    // The module's handler asks through the halves (its context last); the test's call is left to the entry.
    expect(output('tools.js')).toContain('    const mrtrOutcome = await confirmPurgeRequest(count, ctx);\n');
    expect(output('tools.js')).toContain(`const server = new McpServer({ name: 's', version: '1' }, { requestState: { verify: mrtrVerify() } });
// @mrtr-todo(legacy-entry): \`confirmPurge()\` kept for confirm.test.js:3, which cannot use its halves — migrate it, then drop this
export async function confirmPurge(table, count) {
  const mrtrOutcome = await confirmPurgeRequest(count);
  if ('value' in mrtrOutcome) return mrtrOutcome.value;
  return confirmPurgeResult(await server.server.elicitInput({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } }));
}

// confirmPurge() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler calls confirmPurgeRequest(), which resolves to what confirmPurge() returned without asking
// ({ value }) or to the question to ask ({ ask }); once answered, confirmPurgeResult() computes the value.
export async function confirmPurgeRequest(count, mrtrCtx = undefined) {
  if (count === 0) return { value: true };
  if (!(mrtrCtx?.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities())?.elicitation) return { value: false };
  return { ask: inputRequired.elicit({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } }) };
}

export function confirmPurgeResult(answer) {
  return answer.action === 'accept';
}
server.registerTool(`);
  });

  it('hands the result half the arguments and the locals it takes, as the handlers do', async () => {
    // The local travels only where the checker shows it is JSON.
    const { result, output } = await migrate(
      'carried',
      {
        'rows.ts': 'export async function countRows(table: string): Promise<number> {\n  return table.length;\n}\n',
        'confirm.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import { countRows } from './rows.ts';
export async function confirmPurge(server: McpServer, table: string, count: number): Promise<string> {
  if (count === 0) return 'nothing';
  const rows = await countRows(table);
  const answer = await server.server.elicitInput({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept' ? \`\${table}: \${rows}\` : 'kept';
}
`,
        'tools.ts': TOOLS('ts', 'confirmPurge(server, table, count)'),
        'confirm.test.ts': TEST('confirm.ts', "confirmPurge(fake, 'logs', 0)"),
      },
      true,
    );
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['confirm.ts', 'marked', 'legacy-entry'],
      ['confirm.ts', 'migrated', undefined],
    ]);
    const lines = output('confirm.ts')!.split('\n');
    const entry = lines.findIndex((l) => l.startsWith('export async function confirmPurge('));
    expect(lines.slice(entry, entry + 5)).toEqual([
      'export async function confirmPurge(server: McpServer, table: string, count: number): Promise<string> {',
      '  const mrtrOutcome = await confirmPurgeRequest(table, count);',
      "  if ('value' in mrtrOutcome) return mrtrOutcome.value;",
      "  return confirmPurgeResult(await server.server.elicitInput({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } }), table, mrtrOutcome.carried);",
      '}',
    ]);
  });

  it('for a helper whose request is its first statement, only pushes it, and a second run changes nothing', async () => {
    const dir = path.join(root, 'asked-first');
    const files = {
      'confirm.ts': `import type { McpServer } from '@modelcontextprotocol/server';
export async function confirmPurge(server: McpServer, table: string): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept' ? table : 'kept';
}
`,
      'tools.ts': TOOLS('ts', 'confirmPurge(server, table)'),
      'confirm.test.ts': TEST('confirm.ts', "confirmPurge(fake, 'logs')"),
    };
    for (const [file, text] of Object.entries(files)) await putFile(dir, file, text);
    const first = await runCodemod({ paths: ['.'], cwd: dir, write: true, types: false });
    expect(first.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['confirm.ts', 'marked', 'legacy-entry'],
      ['confirm.ts', 'migrated', undefined],
    ]);
    expect(first.changed.find((c) => c.path === 'confirm.ts')!.output).toBe(`import type { McpServer } from '@modelcontextprotocol/server';
import { inputRequired, type ElicitResult } from '@modelcontextprotocol/server';
// @mrtr-todo(legacy-entry): \`confirmPurge()\` kept for confirm.test.ts:3, which cannot use its halves — migrate it, then drop this
export async function confirmPurge(server: McpServer, table: string): Promise<string> {
  return confirmPurgeResult(await server.server.elicitInput({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } }), table);
}

// confirmPurge() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler asks with confirmPurgeRequest() and, once answered, computes confirmPurgeResult().
export function confirmPurgeRequest() {
  return inputRequired.elicit({ message: 'Purge?', requestedSchema: { type: 'object', properties: {} } });
}

export function confirmPurgeResult(answer: ElicitResult, table: string): string {
  return answer.action === 'accept' ? table : 'kept';
}
`);
    const again = await runCodemod({ paths: ['.'], cwd: dir, write: false, types: false });
    expect(again.changed).toEqual([]);
    expect(again.sites.map((s) => [s.file, s.status, s.code])).toEqual([['confirm.ts', 'marked', 'legacy-entry']]);
  });

  // A wrapper's entry pushes the inner request with the wrapper's arguments put in: an argument
  // that would run something again, or two points asking differently, leave no entry to write.
  const ASKER = `import type { McpServer } from '@modelcontextprotocol/server';
export async function pickRoot(server: McpServer, given?: string): Promise<string> {
  if (given) return given;
  const { roots } = await server.server.listRoots();
  return roots[0]?.uri ?? '/';
}
`;
  const WRAPPER_TOOLS = (wrapper: string) => `import { McpServer } from '@modelcontextprotocol/server';
import { pickRoot } from './root.ts';
const server = new McpServer({ name: 's', version: '1' });
${wrapper}
server.registerTool('open', { inputSchema: schema }, async ({ given }) => {
  const root = await openRoot(given);
  return { content: [{ type: 'text', text: root }] };
});
`;

  it.each([
    [
      'an argument that runs something again',
      'const servers = () => server;\nexport async function openRoot(given?: string): Promise<string> {\n  const root = await pickRoot(servers(), given);\n  return `opened ${root}`;\n}',
    ],
    [
      'points that ask with different servers',
      'export async function openRoot(given?: string, other?: McpServer): Promise<string> {\n  let root: string;\n  if (other) {\n    const picked = await pickRoot(other, given);\n    root = `other ${picked}`;\n  } else {\n    const picked = await pickRoot(server, given);\n    root = `opened ${picked}`;\n  }\n  return root;\n}',
    ],
  ])('is not written for a wrapper with %s: it stays whole for the callers out of sight', async (name, wrapper) => {
    const { result, output } = await migrate(`wrapper-${name.split(' ').join('-')}`, { 'root.ts': ASKER, 'tools.ts': WRAPPER_TOOLS(wrapper) });
    expect(result.sites.map((s) => s.code)).not.toContain('legacy-entry');
    expect(output('tools.ts') ?? '').not.toContain('openRootRequest');
  });

  it('is written for a wrapper whose argument is its own parameter', async () => {
    const wrapper =
      'export async function openRoot(given?: string): Promise<string> {\n  const root = await pickRoot(server, given);\n  return `opened ${root}`;\n}';
    const { result, output } = await migrate('wrapper-plain', { 'root.ts': ASKER, 'tools.ts': WRAPPER_TOOLS(wrapper) });
    expect(result.sites.filter((s) => s.code === 'legacy-entry').map((s) => s.file)).toEqual(['tools.ts']);
    expect(output('tools.ts')).toContain(
      "  if ('value' in mrtrOutcome) return mrtrOutcome.value;\n  return openRootResult(await server.server.listRoots());\n}",
    );
  });
});

describe('withNames', () => {
  it.each([
    ['server.server.listRoots()', { server: 'context.server' }, 'context.server.server.listRoots()'],
    ['server.server.elicitInput({ message, requestedSchema })', { message: '(a + b)' }, 'server.server.elicitInput({ message: (a + b), requestedSchema })'],
    ['x.server.listRoots()', { server: 'other' }, 'x.server.listRoots()'],
    ['server.server.listRoots(', { server: 'other' }, undefined],
  ])('%s', (text, by, expected) => {
    expect(withNames(text, new Map(Object.entries(by)))).toBe(expected);
  });
});
