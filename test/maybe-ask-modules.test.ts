// A helper that may answer without asking, in a module of its own, and the ways other modules
// reach it: through a local function that returns its call or does more with its value (split
// with it), import() and a re-exporting index (the helper stays whole, and each calling handler
// is marked rather than left pushing).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectCheckReport } from '../src/cli/check-command.ts';
import { runCodemod } from '../src/engine/run.ts';
import { runCalls } from './support/harness.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('maybe-ask-modules-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const put = (relative: string, text: string) => putFile(dir, relative, text);
const read = (relative: string) => readFile(path.join(dir, relative), 'utf8');

const CHOOSE = `import type { McpServer } from '@modelcontextprotocol/server';

export async function chooseProject(server: McpServer, message?: string): Promise<string | undefined> {
  const preset = process.env.PLANNER_PROJECT;
  if (preset) return preset;
  const result = await server.server.elicitInput({
    message: message ?? 'Which project?',
    requestedSchema: { type: 'object', properties: { project: { type: 'string' } }, required: ['project'] },
  });
  return result.action === 'accept' ? String(result.content?.project) : undefined;
}
`;

/** A module registering `name`, whose handler resolves the project through `call` (`await ...`), with `before` at the top. */
function tools(name: string, before: string, call: string): string {
  return `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
${before}
export function register(server: McpServer): void {
  server.registerTool('${name}', { inputSchema: z.object({ project: z.string().optional() }) }, async ({ project }) => {
    let chosen = project;
    if (!chosen) {
      chosen = await ${call};
    }
    return { content: [{ type: 'text', text: chosen ?? 'none' }] };
  });
}
`;
}

describe('a helper that may answer without asking, called from other modules', () => {
  it('is split, and so is a local function of another module that returns its call, for the handlers that call that', async () => {
    await put(
      'src/server.ts',
      "import { McpServer } from '@modelcontextprotocol/server';\nimport { register as direct } from './direct.js';\nimport { register as wrapped } from './wrapped.js';\n\nexport function createServer(): McpServer {\n  const server = new McpServer({ name: 'planner', version: '1.0.0' });\n  direct(server);\n  wrapped(server);\n  return server;\n}\n",
    );
    await put('src/choose.ts', CHOOSE);
    await put('src/direct.ts', tools('direct', "import { chooseProject } from './choose.js';\n", 'chooseProject(server)'));
    await put(
      'src/wrapped.ts',
      tools(
        'wrapped',
        "import { chooseProject } from './choose.js';\n\nconst pick = (server: McpServer) => chooseProject(server, 'Pick a project.');\n",
        'pick(server)',
      ),
    );
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status])).toEqual([['src/choose.ts', 'migrated']]);
    const wrapped = await read('src/wrapped.ts');
    expect(wrapped).toContain("import { chooseProjectRequest, chooseProjectResult } from './choose.js';");
    expect(wrapped).toContain("function pickRequest() {\n  return chooseProjectRequest('Pick a project.');\n}");
    expect(wrapped).toContain('function pickResult(mrtrAnswer: ElicitResult) {\n  return chooseProjectResult(mrtrAnswer);\n}');
    expect(wrapped).toContain('const mrtrOutcome = await pickRequest();');
    expect(wrapped).toContain("const mrtrAnswer = mrtr.value('chosen', 'elicit', pickResult);");
    expect(wrapped).not.toContain('@mrtr-todo');
    const files = ['src/server.ts', 'src/choose.ts', 'src/direct.ts', 'src/wrapped.ts', 'src/mrtr-request-state.ts'].map((f) => path.join(dir, f));
    expect(typecheck(files)).toEqual([]);
    expect((await runCodemod({ paths: [dir], write: false, cwd: dir })).changed).toEqual([]);
  });

  it('is split where a local function does more with its value: that function asks, or goes on with the value, in one place', async () => {
    await put('src/choose.ts', CHOOSE);
    await put('src/direct.ts', tools('direct', "import { chooseProject } from './choose.js';\n", 'chooseProject(server)'));
    await put(
      'src/wrapped.ts',
      tools(
        'wrapped',
        "import { chooseProject } from './choose.js';\n\nasync function pick(server: McpServer): Promise<string> {\n  const chosen = await chooseProject(server);\n  return chosen ?? 'default';\n}\n",
        'pick(server)',
      ),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/choose.ts', 'migrated', undefined],
    ]);
    const wrapped = result.changed.find((c) => c.path === 'src/wrapped.ts')!.output;
    expect(wrapped).toContain(
      [
        'async function pickRequest(): Promise<{ ask: InputRequest } | { value: string }> {',
        '  const mrtrOutcome = await chooseProjectRequest();',
        "  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: pickThen(mrtrOutcome.value) };",
        '}',
        '',
        'function pickResult(mrtrAnswer: ElicitResult): string {',
        '  return pickThen(chooseProjectResult(mrtrAnswer));',
        '}',
        '',
        'function pickThen(chosen: ReturnType<typeof chooseProjectResult>): string {',
        "  return chosen ?? 'default';",
        '}',
      ].join('\n'),
    );
    expect(wrapped).toContain("const mrtrAnswer = mrtr.value('chosen', 'elicit', pickResult);");
    expect(wrapped).not.toMatch(/@mrtr-todo\((via|in)-helper/);
  });

  it.each([
    [
      'import() of the whole module',
      "const choose = await import('./choose.js');",
      'choose.chooseProject(server)',
      undefined,
      'which it takes from its module with import()',
    ],
    [
      'an index module that re-exports it',
      "import { chooseProject } from './index.js';\n",
      'chooseProject(server)',
      "export * from './choose.js';\n",
      'which cannot suspend it',
    ],
    [
      'an index module that re-exports it renamed',
      "import { pick } from './index.js';\n",
      'pick(server)',
      "export { chooseProject as pick } from './choose.js';\n",
      'which cannot suspend it',
    ],
  ])('stays whole where a module reaches it through %s, and that module’s handler is marked', async (_name, imports, call, index, says) => {
    await put('src/choose.ts', CHOOSE);
    if (index) await put('src/index.ts', index);
    await put('src/direct.ts', tools('direct', "import { chooseProject } from './choose.js';\n", 'chooseProject(server)'));
    // import() binds its names inside the handler, before the call.
    const other = index
      ? tools('other', imports, call)
      : tools('other', '', call).replace('    let chosen = project;', `    ${imports}\n    let chosen = project;`);
    await put('src/other.ts', other);
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/choose.ts', 'marked', 'in-helper'],
      ['src/direct.ts', 'marked', 'via-helper'],
      ['src/other.ts', 'marked', 'via-helper'],
    ]);
    expect(result.sites.find((s) => s.file === 'src/other.ts')!.reason).toContain(says);
  });

  it('names the module that loads it with import() at the helper and at each call that waits for it', async () => {
    await put('src/choose.ts', CHOOSE);
    await put('src/direct.ts', tools('direct', "import { chooseProject } from './choose.js';\n", 'chooseProject(server)'));
    await put(
      'src/wrapped.ts',
      tools(
        'wrapped',
        "import { chooseProject } from './choose.js';\n\nasync function pick(server: McpServer): Promise<string> {\n  const chosen = await chooseProject(server);\n  return chosen ?? 'default';\n}\n",
        'pick(server)',
      ),
    );
    const loaded = "const choose = await import('./choose.js');";
    await put(
      'src/other.ts',
      tools('other', '', 'choose.chooseProject(server)').replace('    let chosen = project;', `    ${loaded}\n    let chosen = project;`),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    const line = (await read('src/other.ts')).split('\n').findIndex((l) => l.includes(loaded)) + 1;
    const stays = `\`chooseProject()\` stays whole: other.ts:${line} loads it with import() unnamed — bind it by name there`;
    const markers = result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.code, s.marker]);
    expect(markers).toEqual([
      ['src/choose.ts', 'in-helper', stays],
      ['src/direct.ts', 'via-helper', stays],
      ['src/other.ts', 'via-helper', expect.stringContaining('comes from import() unnamed — bind it by name here')],
      ['src/wrapped.ts', 'via-helper', stays],
      ['src/wrapped.ts', 'via-helper', expect.stringMatching(/^reaches `chooseProject\(\)`, asking at line \d+ — build inputRequired.elicit/)],
    ]);
  });
});

// A confirmation helper in its own module, whose check of the client's capabilities comes before
// its question: the check runs in the request half, on the calling handler's request, so the
// handler hands its context on (a 2026-07-28 client declares its capabilities with the request).
const CONFIRM = `import type { McpServer } from '@modelcontextprotocol/server';

export async function confirmTruncate(server: McpServer, log: string[], table: string): Promise<boolean> {
  if (!server.server.getClientCapabilities()?.elicitation) {
    log.push(\`cannot-ask:\${table}\`);
    return true;
  }
  const answer = await server.server.elicitInput({
    message: \`Truncate \${table}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return answer.action === 'accept' && answer.content?.ok === true;
}
`;

const TRUNCATE = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { confirmTruncate } from './confirm.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'tables', version: '1.0.0' });
  server.registerTool('truncate_table', { inputSchema: z.object({ table: z.string() }) }, async ({ table }) => {
    if (!(await confirmTruncate(server, log, table))) return { content: [{ type: 'text', text: 'Kept.' }] };
    log.push(\`truncated:\${table}\`);
    return { content: [{ type: 'text', text: 'Truncated.' }] };
  });
  return server;
}
`;

describe("a helper of another module that checks the client's capabilities", () => {
  it('reads the capabilities of the calling handler’s request, on both eras', async () => {
    await put('src/confirm.ts', CONFIRM);
    await put('src/server.ts', TRUNCATE);
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status])).toEqual([['src/confirm.ts', 'migrated']]);
    expect(await read('src/confirm.ts')).toContain(
      'export async function confirmTruncateRequest(server: McpServer, log: string[], table: string, mrtrCtx?: ServerContext)',
    );
    expect(await read('src/server.ts')).toContain('const mrtrOutcome = await confirmTruncateRequest(server, log, table, ctx);');
    const files = ['src/server.ts', 'src/confirm.ts', 'src/mrtr-request-state.ts'].map((f) => path.join(dir, f));
    expect(typecheck(files)).toEqual([]);
    expect((await runCodemod({ paths: [dir], write: false, cwd: dir })).changed).toEqual([]);

    const { createServer } = (await import(pathToFileURL(path.join(dir, 'src/server.ts')).href)) as { createServer(log: string[]): McpServer };
    const call = [{ name: 'truncate_table', arguments: { table: 'logs' } }];
    const cannotAsk = { sampling: {}, roots: { listChanged: true } };
    for (const era of ['modern', 'legacy'] as const) {
      const accepted: string[] = [];
      const asked = await runCalls(() => createServer(accepted), era, call, { elicit: () => ({ action: 'accept', content: { ok: true } }) });
      expect({ era, questions: asked.questions.length, log: accepted }).toEqual({ era, questions: 1, log: ['truncated:logs'] });
      const declined: string[] = [];
      await runCalls(() => createServer(declined), era, call, { elicit: () => ({ action: 'decline' }) });
      expect({ era, log: declined }).toEqual({ era, log: [] });
      const unasked: string[] = [];
      const without = await runCalls(() => createServer(unasked), era, call, {}, cannotAsk);
      expect({ era, questions: without.questions, log: unasked }).toEqual({ era, questions: [], log: ['cannot-ask:logs', 'truncated:logs'] });
    }
  });

  it('after it asks stays whole, and the handler that calls it is marked: the retry has no first call’s context', async () => {
    await put(
      'src/confirm.ts',
      CONFIRM.replace(
        "return answer.action === 'accept' && answer.content?.ok === true;",
        "return answer.action === 'accept' || !server.server.getClientCapabilities()?.elicitation;",
      ),
    );
    await put('src/server.ts', TRUNCATE);
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/confirm.ts', 'marked', 'in-helper'],
      ['src/server.ts', 'marked', 'via-helper'],
    ]);
    expect(result.sites[0]!.reason).toContain("it is a helper that reads the client's capabilities after its request.");
  });
});

// Two helpers of one module, asked one after the other by one handler; another handler awaits
// the first beside other work, which keeps the first whole (its question reads a local, so it
// cannot stay under its name for that call: legacy-entry.ts). The second's call in the shared
// handler then cannot migrate either, so the second stays whole too.
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

const BOARD_TOOLS = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickBoard, pickLane } from './pickers.js';

export function register(server: McpServer): void {
  server.registerTool('move_card', { inputSchema: z.object({ card: z.string() }) }, async ({ card }) => {
    const board = await pickBoard(server);
    if (!board) return { content: [{ type: 'text', text: 'No board.' }] };
    const lane = await pickLane(server, board);
    return { content: [{ type: 'text', text: \`\${card} to \${board}/\${lane ?? 'none'}\` }] };
  });
  server.registerTool('board_stats', { inputSchema: z.object({}) }, async () => {
    const [board, now] = await Promise.all([pickBoard(server), Promise.resolve(Date.now())]);
    return { content: [{ type: 'text', text: \`\${board ?? 'none'} at \${now}\` }] };
  });
}
`;

describe('helpers a handler asks one after the other', () => {
  it('keeps the second whole when the first stays whole, and check says what migrate does', async () => {
    await put('src/pickers.ts', PICKERS);
    await put('src/tools.ts', BOARD_TOOLS);
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    const sites = result.sites.filter((s) => s.code !== 'server-elsewhere');
    expect(sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/pickers.ts', 9, 'marked', 'in-helper'],
      ['src/pickers.ts', 17, 'marked', 'in-helper'],
      ['src/tools.ts', 7, 'marked', 'via-helper'],
      ['src/tools.ts', 9, 'marked', 'via-helper'],
      ['src/tools.ts', 13, 'marked', 'mixed-promise-all'],
    ]);
    const check = await collectCheckReport([dir], dir);
    expect(check.summary.fixable).toBe(0);
    expect(check.findings.filter((f) => f.ruleId !== 'mrtr-todo/server-elsewhere').map((f) => [f.file, f.line, f.ruleId])).toEqual(
      sites.map((s) => [s.file, s.line, `mrtr-todo/${s.code}`]),
    );
  });
});

// A helper that may answer without asking (a default, then a list read through a connection),
// called from tools of another module that open the connection first and use it after the
// question. The connection is no JSON: it can neither travel nor, unless the user says its
// call may run again, be opened again on the retry.
const BOARDS = `export class Boards {
  constructor(private readonly token: string) {}
  async names(): Promise<string[]> {
    return this.token ? ['Roadmap', 'Bugs'] : [];
  }
  async cards(board: string): Promise<string[]> {
    return [\`\${board}: first card\`];
  }
}

export async function openBoards(): Promise<Boards> {
  return new Boards(process.env.BOARDS_TOKEN ?? 'local');
}
`;

const PICK_BOARD = `import type { McpServer } from '@modelcontextprotocol/server';
import type { Boards } from './boards.js';

export type Picked = { board: string } | { response: { content: Array<{ type: 'text'; text: string }>; isError?: boolean } };

export async function pickBoard(server: McpServer, boards: Boards, message?: string): Promise<Picked> {
  const preset = process.env.DEFAULT_BOARD;
  if (preset) return { board: preset };
  const names = await boards.names();
  if (names.length === 0) return { response: { content: [{ type: 'text', text: 'No boards.' }], isError: true } };
  const result = await server.server.elicitInput({
    message: message ?? 'Which board?',
    requestedSchema: { type: 'object', properties: { board: { type: 'string', enum: names } }, required: ['board'] },
  });
  if (result.action !== 'accept' || !result.content?.board) return { response: { content: [{ type: 'text', text: 'Cancelled.' }] } };
  return { board: String(result.content.board) };
}
`;

const CARD_TOOLS = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { openBoards } from './boards.js';
import { pickBoard } from './pick-board.js';

export function registerCardTools(server: McpServer): void {
  server.registerTool('list_cards', { inputSchema: z.object({ board: z.string().optional() }) }, async ({ board }) => {
    const boards = await openBoards();
    let chosen = board;
    if (!chosen) {
      const picked = await pickBoard(server, boards, 'Which board to list?');
      if ('response' in picked) return picked.response;
      chosen = picked.board;
    }
    const cards = await boards.cards(chosen);
    return { content: [{ type: 'text', text: cards.join('\\n') }] };
  });
}
`;

const BOARD_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { registerCardTools } from './card-tools.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'boards', version: '1.0.0' });
  registerCardTools(server);
  return server;
}
`;

describe('a helper kept whole because a caller holds a connection across its question', () => {
  beforeEach(async () => {
    await put('src/boards.ts', BOARDS);
    await put('src/pick-board.ts', PICK_BOARD);
    await put('src/card-tools.ts', CARD_TOOLS);
    await put('src/server.ts', BOARD_SERVER);
  });

  it('names the local, its line and the declaration that would let it be opened again', async () => {
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/card-tools.ts', 'marked', 'unserialisable-local'],
      ['src/pick-board.ts', 'marked', 'in-helper'],
    ]);
    const tools = (await read('src/card-tools.ts')).split('\n');
    expect(tools[10]).toBe(
      '      // @mrtr-todo(unserialisable-local): `boards` (line 8) is not JSON — --idempotent openBoards if safe to rerun, to make it again',
    );
    expect(tools[7]).toBe('    const boards = await openBoards();');
    expect(result.sites[0]!.next).toContain('declare it idempotent (--idempotent openBoards');
    // The refused call's line in card-tools.ts as written, below its own marker.
    expect(tools[11]).toContain('pickBoard(');
    expect((await read('src/pick-board.ts')).split('\n')[10]).toBe(
      '  // @mrtr-todo(in-helper): `pickBoard()` stays whole: card-tools.ts:12 is refused (unserialisable-local) — fix that first',
    );
  });

  it('migrates once the call that opens it is declared idempotent', async () => {
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir, transform: { idempotent: ['openBoards'] } });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status])).toEqual([['src/pick-board.ts', 'migrated']]);
    const tools = await read('src/card-tools.ts');
    expect(tools).not.toContain('@mrtr-todo');
    expect(tools).toContain('const boards = await openBoards();');
    const files = ['src/boards.ts', 'src/pick-board.ts', 'src/card-tools.ts', 'src/server.ts', 'src/mrtr-request-state.ts'].map((f) => path.join(dir, f));
    expect(typecheck(files)).toEqual([]);
  });
});
