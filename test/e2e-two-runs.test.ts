// A project migrated in two runs of the CLI: first the folder of tools (the server that must get
// the verifier is built outside it, so the run marks server-elsewhere), then the whole tree,
// which holds that server: the second run wires the verifier from the module the tools import
// already and takes the marker away, and a third run changes nothing. The migrated server,
// run through the real v2 client on both eras, behaves as the original does on the 2025 era:
// the state one handler minted verifies, and the state the server's own hand-migrated tool
// minted passes through to the verifier the server had.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli, git } from './support/cli.ts';
import { connectManual, flipMac, runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
import { originalAndCopy } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

const FILES: Record<string, string> = {
  'src/server.ts': [
    "import { McpServer } from '@modelcontextprotocol/server';",
    "import { labelCodec, registerLabelTools } from './labels.js';",
    "import { registerNoteTools } from './tools/notes.js';",
    '',
    'export function createServer(log: string[]): McpServer {',
    "  const server = new McpServer({ name: 'notes', version: '1.0.0' }, { requestState: { verify: labelCodec.verify } });",
    '  registerNoteTools(server, log);',
    '  registerLabelTools(server, log);',
    '  return server;',
    '}',
    '',
  ].join('\n'),
  // Migrated by hand before the codemod existed: its own state, signed with its own key.
  'src/labels.ts': [
    "import { acceptedContent, createRequestStateCodec, inputRequired, type McpServer } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    '',
    "export const labelCodec = createRequestStateCodec<{ note: string }>({ key: 'labels-'.repeat(8) });",
    '',
    'export function registerLabelTools(server: McpServer, log: string[]): void {',
    "  server.registerTool('label', { inputSchema: z.object({ note: z.string() }) }, async ({ note }, ctx) => {",
    '    const state = ctx.mcpReq.requestState<{ note: string }>();',
    "    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'label', z.object({ label: z.string() }));",
    '    if (!state || !answer) {',
    '      return inputRequired({',
    "        inputRequests: { label: inputRequired.elicit({ message: `Label for ${note}?`, requestedSchema: { type: 'object', properties: { label: { type: 'string' } } } }) },",
    '        requestState: await labelCodec.mint({ note }),',
    '      });',
    '    }',
    '    log.push(`label:${state.note}:${answer.label}`);',
    "    return { content: [{ type: 'text', text: answer.label }] };",
    '  });',
    '}',
    '',
  ].join('\n'),
  'src/tools/notes.ts': [
    "import type { McpServer } from '@modelcontextprotocol/server';",
    "import * as z from 'zod/v4';",
    '',
    'export function registerNoteTools(server: McpServer, log: string[]): void {',
    "  server.registerTool('archive_note', { inputSchema: z.object({ note: z.string() }) }, async ({ note }, ctx) => {",
    '    log.push(`asked:${note}`);',
    '    const answer = await ctx.mcpReq.elicitInput({',
    '      message: `Archive ${note}?`,',
    "      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },",
    '    });',
    '    log.push(`archived:${note}:${answer.action}`);',
    "    return { content: [{ type: 'text', text: answer.action }] };",
    '  });',
    '}',
    '',
  ].join('\n'),
};

type ServerModule = { createServer(log: string[]): McpServer };

const calls: ToolCall[] = [
  { name: 'archive_note', arguments: { note: 'n1' } },
  { name: 'label', arguments: { note: 'n2' } },
];
const script: ClientScript = {
  elicit: (params) => ({ action: 'accept', content: String(params.message).startsWith('Label') ? { label: 'urgent' } : { ok: true } }),
};

let dir: string;
const read = (tree: string, file: string) => readFileSync(path.join(dir, tree, file), 'utf8');

beforeAll(async () => {
  dir = await originalAndCopy('two-runs-', FILES);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('wires on the run over the whole tree the verifier the run over the tools could not, and the server works on both eras', async () => {
  const tree = path.join(dir, 'migrated');
  const commit = async (message: string) => {
    await git(tree, 'add', '-A');
    await git(tree, 'commit', '-qm', message);
  };
  await git(tree, 'init', '-q');
  await commit('original');

  const first = await cli(tree, 'migrate', 'src/tools/');
  expect(first.code).toBe(1); // the marker it leaves
  expect(first.stdout).toContain('server-elsewhere');
  expect(read('migrated', 'src/tools/notes.ts')).toContain('// @mrtr-todo(server-elsewhere):');
  expect(read('migrated', 'src/server.ts')).toBe(FILES['src/server.ts']);
  // As the first run left it, the tool's retry fails: the server's own verifier refuses the state the module minted.
  cpSync(tree, path.join(dir, 'after-first'), { recursive: true });
  const unwired = (await import(path.join(dir, 'after-first', 'src/server.ts'))) as ServerModule;
  const failing = await runCalls(() => unwired.createServer([]), 'modern', [calls[0]!], script);
  expect(failing.results).toEqual([{ thrown: { name: 'ProtocolError', code: -32602, message: 'Invalid or expired requestState' } }]);
  await commit('first run');

  const second = await cli(tree, 'migrate', 'src/');
  expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' });
  expect(read('migrated', 'src/server.ts')).toBe(
    FILES['src/server.ts']!.replace(
      "from './tools/notes.js';\n",
      "from './tools/notes.js';\nimport { mrtrVerify } from './tools/mrtr-request-state.js';\n",
    ).replace('verify: labelCodec.verify', 'verify: mrtrVerify(labelCodec.verify)'),
  );
  expect(read('migrated', 'src/tools/notes.ts')).not.toContain('@mrtr-todo');
  expect(read('migrated', 'src/tools/notes.ts')).toContain("import { mrtrResume } from './mrtr-request-state.js';");
  expect(read('migrated', 'src/labels.ts')).toBe(FILES['src/labels.ts']);
  await commit('second run');

  const third = await cli(tree, 'migrate', 'src/');
  expect(third.code).toBe(0);
  expect(third.stdout).toContain('Files changed: 0\n');
  expect(await git(tree, 'status', '--porcelain')).toBe('');
  expect((await cli(tree, 'check', 'src/')).code).toBe(0);
  expect(typecheck(Object.keys(FILES).map((f) => path.join(tree, f)))).toEqual([]);

  const original = (await import(path.join(dir, 'original', 'src/server.ts'))) as ServerModule;
  const legacyLog: string[] = [];
  const legacy = await runCalls(() => original.createServer(legacyLog), 'legacy', calls, script);
  expect(legacyLog).toEqual(['asked:n1', 'archived:n1:accept', 'label:n2:urgent']);
  expect(legacy.questions.length).toBe(2);

  const migrated = (await import(path.join(tree, 'src/server.ts'))) as ServerModule;
  for (const era of ['modern', 'legacy'] as const) {
    const log: string[] = [];
    const run = await runCalls(() => migrated.createServer(log), era, calls, script);
    expect({ era, results: run.results }).toEqual({ era, results: legacy.results });
    expect({ era, questions: run.questions }).toEqual({ era, questions: legacy.questions });
    expect({ era, log }).toEqual({ era, log: legacyLog });
  }

  // The verifier is the module's: a state it minted with one character changed is refused.
  const connection = await connectManual(() => migrated.createServer([]));
  try {
    const asked = await connection.callRaw({ name: 'archive_note', arguments: { note: 'n3' } });
    expect(asked.resultType).toBe('input_required');
    const tampered = await connection.callRaw({
      name: 'archive_note',
      arguments: { note: 'n3' },
      inputResponses: { answer: { action: 'accept', content: { ok: true } } },
      requestState: flipMac(asked.requestState),
    });
    expect(tampered.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  } finally {
    await connection.close();
  }
});
