// The engine's project-level steps, on temporary projects inside this checkout (so the SDK's
// types resolve): a v1 server through the official codemod and the MRTR pass with its
// package.json updated, and a helper module whose asking function other modules' handlers call.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TypeFacts } from '../src/analyse/type-facts.ts';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { upgradeV1 } from '../src/engine/v1-upgrade.ts';
import { renderHtmlReport } from '../src/report/html-report.ts';
import { formatJsonSummary } from '../src/report/json-summary.ts';
import { formatSummary } from '../src/report/summary.ts';
import type { TypeFactsSource } from '../src/transform.ts';
import { ELICIT_SERVER, V1_MANIFEST, V1_SERVER } from './engine-samples.ts';
import { putFile, checkoutScratch } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

let dir: string;
beforeEach(async () => {
  dir = checkoutScratch('project-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const put = (relative: string, text: string) => putFile(dir, relative, text);

describe('a v1 project', () => {
  it('is upgraded by the official codemod, migrated, and its package.json moves to the v2 server package', async () => {
    await put('package.json', V1_MANIFEST);
    await put('src/server.ts', V1_SERVER);
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.changed.map((c) => c.path).sort()).toEqual(['package.json', 'src/mrtr-request-state.ts', 'src/server.ts']);
    const server = await readFile(path.join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain("from '@modelcontextprotocol/server'");
    expect(server).not.toContain('@modelcontextprotocol/sdk');
    expect(server).toContain("await mrtrResume(ctx, 'tool:go', ['answer'], { target }, server)");
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0', zod: '^4.2.0' });
    expect(result.sites).toMatchObject([{ file: 'src/server.ts', status: 'migrated', handler: 'tool:go' }]);

    // A second run changes nothing.
    const again = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(again.changed).toEqual([]);
  });

  it("reports a site at its line in the file on disk, though the official codemod's text moved it", async () => {
    // The official codemod writes the multi-line `server.tool(` call on one line: in its text
    // the question is 4 lines higher than in the file the user has (and the diff shows).
    const source = [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "import { z } from 'zod';",
      '',
      'export function createServer(): McpServer {',
      "  const server = new McpServer({ name: 'demo', version: '1.0.0' });",
      '  server.tool(',
      "    'go',",
      "    'Go somewhere',",
      '    { target: z.string() },',
      '    async ({ target }) => {',
      "      const answer = await server.server.elicitInput({ message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } });",
      "      return { content: [{ type: 'text', text: answer.action }] };",
      '    },',
      '  );',
      '  return server;',
      '}',
      '',
    ].join('\n');
    await put('package.json', V1_MANIFEST);
    await put('src/server.ts', source);
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    const asked = source.split('\n').findIndex((l) => l.includes('elicitInput')) + 1;
    expect(asked).toBe(11);
    // The column too: the official codemod indented that line 6 spaces deeper.
    const column = source.split('\n')[asked - 1]!.indexOf('server.server.elicitInput') + 1;
    expect(result.sites).toMatchObject([{ file: 'src/server.ts', status: 'migrated', line: asked, column }]);
    // The official codemod's note is reported where its statement is in the text the run
    // leaves (the import of the request-state module now sits above it), not at its line in the
    // codemod's own text.
    const [upgraded] = await upgradeV1([{ path: path.join(dir, 'src/server.ts'), text: source }]);
    const info = upgraded!.notes.find((n) => n.code === 'mcp-codemod-info')!;
    const statement = upgraded!.text.split('\n')[info.line - 1]!.trim().slice(0, 30);
    const reported = result.upgrades.find((u) => u.file === 'src/server.ts')!.notes.find((n) => n.code === 'mcp-codemod-info')!;
    const output = result.changed.find((c) => c.path === 'src/server.ts')!.output.split('\n');
    expect(reported.line).toBeGreaterThan(info.line);
    expect(output[reported.line - 1]!.trim().slice(0, 30)).toBe(statement);
    // The review page links the site to its row on the old side of the diff.
    const page = renderHtmlReport(result, { dryRun: true });
    const anchor = /<a class="where" href="#([^"]+)">line 11:/.exec(page)?.[1];
    expect(anchor).toBeDefined();
    expect(page).toMatch(new RegExp(`<tr class="diff-line diff-remove" id="${anchor}">.*elicitInput`));
    // It says what changed besides the handlers: the manifest, the v1-to-v2 pass, the module.
    const around = /<section class="around" id="around">([^]*?)<\/section>/.exec(page)?.[1] ?? '';
    expect(around).toContain(
      'package.json</code></a>: the v1 SDK (<code>@modelcontextprotocol/sdk</code>) has no multi round-trip requests, so the package moves to <code>@modelcontextprotocol/server</code>',
    );
    expect(around).toContain('src/server.ts</code></a>: moved from the v1 SDK to v2 by the official codemod before their handlers were migrated');
    expect(around).toContain('src/mrtr-request-state.ts</code></a>: new, the request-state helpers every migrated file imports');
    expect(page).toContain('<p class="upgraded">This file was on the v1 SDK');
    expect(page).toMatch(/<section class="next-steps" id="next-steps"><h2>Next steps<\/h2><ol>\n<li>Apply the change[^]*<li>Run `npm install`/);
  });

  it('reports each v1 file and leaves it on v1 (so does its package.json), and migrates the rest when the official codemod cannot run', async () => {
    await put('package.json', V1_MANIFEST);
    await put('src/server.ts', V1_SERVER);
    await put('src/v2.ts', ELICIT_SERVER);
    // No scratch directory can be made under a file.
    await put('blocker', '');
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir, v1ScratchDir: path.join(dir, 'blocker', 'scratch') });
    expect(result.errors).toEqual([
      {
        file: 'src/server.ts',
        stage: 'transform',
        message: expect.stringMatching(/^the official v1-to-v2 codemod failed: .*ENOTDIR.*; the file was left as it is$/),
      },
    ]);
    expect(await readFile(path.join(dir, 'src/server.ts'), 'utf8')).toBe(V1_SERVER);
    // The manifest keeps the v1 SDK; it gets the server the request-state module imports.
    expect(JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')).dependencies).toEqual({
      '@modelcontextprotocol/sdk': '^1.32.2',
      '@modelcontextprotocol/server': '^2.4.0',
      zod: '^4.2.0',
    });
    expect(result.changed.map((c) => [c.path, c.written]).sort()).toEqual([
      ['package.json', true],
      ['src/mrtr-request-state.ts', true],
      ['src/v2.ts', true],
    ]);
    expect(result.sites).toMatchObject([{ file: 'src/v2.ts', status: 'migrated' }]);
  });

  it("drops the official codemod's marker about a destructured context once the migration leaves nothing of it", async () => {
    await put('package.json', V1_MANIFEST);
    await put(
      'src/server.ts',
      V1_SERVER.replace('async ({ target }) => {', 'async ({ target }, { sendRequest }) => {')
        .replace(
          "await server.server.elicitInput({ message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } })",
          "await sendRequest({ method: 'elicitation/create', params: { message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema)",
        )
        .replace("import { z } from 'zod';", "import { z } from 'zod';\nimport { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';"),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.status, s.handler])).toEqual([['migrated', 'tool:go']]);
    const server = result.changed.find((c) => c.path === 'src/server.ts')!.output;
    expect(server).not.toContain('@mcp-codemod-error');
    expect(server).not.toContain('ElicitResultSchema');
    expect(result.upgrades.flatMap((u) => u.notes).filter((n) => n.code === 'mcp-codemod-error')).toEqual([]);
  });

  it('cuts only the destructuring message from a marker the official codemod joined with another, and reports the rest as open', async () => {
    await put('package.json', V1_MANIFEST);
    await put('src/shape.ts', "import { z } from 'zod';\nexport const shape = { target: z.string() };\n");
    // A schema it cannot verify on the same line as the destructured context: one marker, two messages.
    await put(
      'src/server.ts',
      V1_SERVER.replace('{ inputSchema: { target: z.string() } }, async ({ target }) => {', '{ inputSchema: shape }, async ({ target }, { sendRequest }) => {')
        .replace(
          "await server.server.elicitInput({ message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } })",
          "await sendRequest({ method: 'elicitation/create', params: { message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema)",
        )
        .replace("import { z } from 'zod';", "import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';\nimport { shape } from './shape.js';"),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.status, s.handler])).toEqual([['migrated', 'tool:go']]);
    const schemaMessage =
      'Could not verify `inputSchema` is a schema object. Raw shapes are deprecated in v2 — pass a Standard Schema object (e.g. z.object({ … })); no change is needed if it already is one.';
    const lines = result.changed.find((c) => c.path === 'src/server.ts')!.output.split('\n');
    const at = lines.findIndex((l) => l.includes('@mcp-codemod-error'));
    expect(lines.slice(at, at + 2)).toEqual([
      `  /* @mcp-codemod-error ${schemaMessage} */`,
      "  server.registerTool('go', { inputSchema: shape }, async ({ target }, ctx) => {",
    ]);
    expect(lines.filter((l) => l.includes('@mcp-codemod-error'))).toHaveLength(1);
    const open = result.upgrades.flatMap((u) => u.notes.filter((n) => n.code === 'mcp-codemod-error').map((n) => [u.file, n.line, n.message]));
    expect(open).toEqual([['src/server.ts', at + 1, schemaMessage]]);
  });

  it('lists what the official codemod left for a person in every report: text, JSON and the HTML page', async () => {
    await put('package.json', V1_MANIFEST);
    // Imported by the server whose tool asks: the upgrade takes it.
    await put('src/server.ts', `import type { Options } from './tasks.js';\nexport type ServerOptions = Options;\n${V1_SERVER}`);
    await put(
      'src/tasks.ts',
      "import type { CreateTaskOptions } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';\nexport type Options = CreateTaskOptions;\n",
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    const open = result.upgrades.flatMap((u) => u.notes.filter((n) => n.code === 'mcp-codemod-error').map((n) => ({ file: u.file, line: n.line })));
    expect(open).toEqual([{ file: 'src/tasks.ts', line: 1 }]);
    expect(formatSummary(result, { dryRun: true })).toContain('src/tasks.ts:1');
    const json = JSON.parse(formatJsonSummary(result, { dryRun: true })) as { upgrades: { open: Array<{ file: string; line: number; code: string }> } };
    expect(json.upgrades.open.filter((n) => n.code === 'mcp-codemod-error').map((n) => [n.file, n.line])).toEqual([['src/tasks.ts', 1]]);
    const page = renderHtmlReport(result, { dryRun: true });
    expect(page).toContain('src/tasks.ts');
    expect(page).toContain('mcp-codemod-error');
  });

  it('keeps the v1 SDK in package.json while a file under it still imports the SDK, read or not by the run', async () => {
    await put('package.json', V1_MANIFEST);
    await put('src/server.ts', V1_SERVER);
    // Outside the paths migrated: read for the manifest only.
    await put('scripts/seed.ts', "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nexport const client = Client;\n");
    const outside = await runCodemod({ paths: ['src'], write: false, cwd: dir });
    expect(outside.errors).toEqual([]);
    expect(dependenciesOf(outside)).toEqual({ '@modelcontextprotocol/sdk': '^1.32.2', '@modelcontextprotocol/server': '^2.4.0', zod: '^4.2.0' });

    // Read by the run, and too large to upgrade: still on v1.
    await rm(path.join(dir, 'scripts'), { recursive: true });
    await put('src/big.ts', `import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nexport const S = Server;\n${'// padding\n'.repeat(500)}`);
    const tooLarge = await runCodemod({ paths: ['src'], write: false, cwd: dir, maxFileBytes: 4096 });
    expect(tooLarge.errors).toEqual([]);
    expect(tooLarge.skipped?.map((s) => [s.file, s.candidate])).toEqual([['src/big.ts', true]]);
    expect(dependenciesOf(tooLarge)).toEqual({ '@modelcontextprotocol/sdk': '^1.32.2', '@modelcontextprotocol/server': '^2.4.0', zod: '^4.2.0' });
  });
});

describe('a helper module that asks', () => {
  it('is marked, and so is every handler in another module that calls it', async () => {
    await put('src/confirm.ts', CONFIRM);
    await put(
      'src/tools.ts',
      [
        "import { McpServer } from '@modelcontextprotocol/server';",
        "import { confirm as ask } from './confirm.js';",
        '',
        'export function register(server: McpServer): void {',
        "  server.registerTool('wipe', { description: 'Wipe after asking' }, async (ctx) => {",
        "    if (!(await ask(ctx, 'Wipe?'))) return { content: [] };",
        "    return { content: [{ type: 'text', text: 'wiped' }] };",
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.line, s.code])).toEqual([
      ['src/confirm.ts', 4, 'in-helper'],
      ['src/tools.ts', 6, 'via-helper'],
    ]);
    expect(result.sites[1]!.reason).toContain('this handler reaches a server→client request through `confirm()` (src/confirm.ts:5)');
    const tools = result.changed.find((c) => c.path === 'src/tools.ts')!;
    expect(tools.output).toContain(
      "    // @mrtr-todo(via-helper): `confirm()` asks at confirm.ts:5 — build inputRequired.elicit(...) in it, ask in the handler\n    if (!(await ask(ctx, 'Wipe?')))",
    );
  });

  it('is found through every specifier that names it (no extension, a folder index), and only there', async () => {
    await put('src/ask/index.ts', CONFIRM);
    await put('src/prompt.ts', CONFIRM.replace('confirm', 'prompt'));
    await put('src/a.ts', toolsCalling('confirm', './ask'));
    await put('src/b.ts', toolsCalling('prompt', './prompt'));
    // Names a helper without importing it (a local function of the same name).
    await put(
      'src/c.ts',
      toolsCalling('confirm', './ask').replace("import { confirm } from './ask';", 'async function confirm(_ctx: unknown, _m: string) { return true; }'),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    const viaHelper = result.sites.filter((s) => s.code === 'via-helper');
    expect(viaHelper.map((s) => s.file)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(viaHelper[0]!.reason).toContain('through `confirm()` (src/ask/index.ts:5)');
    expect(viaHelper[1]!.reason).toContain('through `prompt()` (src/prompt.ts:5)');
    expect(result.changed.find((c) => c.path === 'src/a.ts')!.output).toContain('// @mrtr-todo(via-helper): `confirm()` asks at index.ts:5 — ');
    expect(result.changed.find((c) => c.path === 'src/b.ts')!.output).toContain('// @mrtr-todo(via-helper): `prompt()` asks at prompt.ts:5 — ');
  });

  it('has the handlers that call it transformed again together, so their type questions share one round', async () => {
    await put('src/confirm.ts', CONFIRM);
    for (const name of ['a', 'b', 'c']) await put(`src/${name}.ts`, LIFTING_CALLER);
    const { types, rounds } = roundCountingTypes();
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir, types });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code === 'via-helper').map((s) => s.file)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(result.sites.filter((s) => s.status === 'migrated').map((s) => [s.file, s.lifted])).toEqual([
      ['src/a.ts', ['count']],
      ['src/b.ts', ['count']],
      ['src/c.ts', ['count']],
    ]);
    // One round for the main pass, one for the cross-module pass (not one a file).
    expect(rounds()).toBe(2);
  });

  it('writes a module that both passes change with what both make: its own migration and the marker for the helper it calls', async () => {
    await put('src/confirm.ts', CONFIRM);
    await put(
      'src/tools.ts',
      [
        "import { McpServer } from '@modelcontextprotocol/server';",
        "import { confirm } from './confirm.js';",
        '',
        'export function register(server: McpServer): void {',
        "  server.registerTool('wipe', { description: 'Wipe after asking' }, async (ctx) => {",
        "    if (!(await confirm(ctx, 'Wipe?'))) return { content: [] };",
        "    return { content: [{ type: 'text', text: 'wiped' }] };",
        '  });',
        "  server.registerTool('ask', { description: 'Ask directly' }, async (ctx) => {",
        "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });",
        "    return { content: [{ type: 'text', text: answer.action }] };",
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    const dry = await runCodemod({ paths: [dir], write: false, cwd: dir });
    const written = await runCodemod({ paths: [dir], write: true, cwd: dir });
    // The first pass writes the module's own migration; the second (knowing the helper) must
    // not take that write for someone else's edit.
    expect(written.errors).toEqual([]);
    const tools = written.changed.find((c) => c.path === 'src/tools.ts')!;
    expect(tools.written).toBe(true);
    expect(tools.output).toBe(dry.changed.find((c) => c.path === 'src/tools.ts')!.output);
    expect(tools.output).toContain('// @mrtr-todo(via-helper)');
    expect(tools.output).toContain("return mrtr.ask('answer'");
    expect(await readFile(path.join(dir, 'src/tools.ts'), 'utf8')).toBe(tools.output);
  });
});

/** The dependencies of the package.json a (dry) run computed. */
function dependenciesOf(result: RunResult): unknown {
  const manifest = result.changed.find((c) => c.path === 'package.json');
  return manifest ? JSON.parse(manifest.output).dependencies : undefined;
}

/**
 * A helper module whose exported function asks the client, after doing something (which a
 * retry would do again): it cannot be split, so every call of it stays, marked.
 */
// A helper that asks inside a try: not split (its finally block would run on the first call).
const CONFIRM = [
  "import type { ServerContext } from '@modelcontextprotocol/server';",
  'export async function confirm(ctx: ServerContext, message: string): Promise<boolean> {',
  '  try {',
  "    const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });",
  "    return answer.action === 'accept';",
  '  } finally {',
  "    console.error('asked');",
  '  }',
  '}',
  '',
].join('\n');

/** A module whose only tie to the legacy surface is a call of `helper` (it does not pass the prefilter). */
function toolsCalling(helper: string, from: string): string {
  return [
    "import { McpServer } from '@modelcontextprotocol/server';",
    `import { ${helper} } from '${from}';`,
    '',
    'export function register(server: McpServer): void {',
    "  server.registerTool('wipe', { description: 'Wipe after asking' }, async (ctx) => {",
    `    if (!(await ${helper}(ctx, 'Wipe?'))) return { content: [] };`,
    "    return { content: [{ type: 'text', text: 'wiped' }] };",
    '  });',
    '}',
    '',
  ].join('\n');
}

/** Handlers of one module: one calls the helper, the other lifts an unannotated local (its type is asked). */
const LIFTING_CALLER = [
  "import { McpServer } from '@modelcontextprotocol/server';",
  "import { confirm } from './confirm.js';",
  '',
  'export function register(server: McpServer, db: { count(table: string): number }): void {',
  "  server.registerTool('wipe', { description: 'Wipe after asking' }, async (ctx) => {",
  "    if (!(await confirm(ctx, 'Wipe?'))) return { content: [] };",
  "    return { content: [{ type: 'text', text: 'wiped' }] };",
  '  });',
  "  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {",
  "    const count = db.count('logs');",
  "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });",
  "    return { content: [{ type: 'text', text: `${count} ${answer.action}` }] };",
  '  });',
  '}',
  '',
].join('\n');

/**
 * Type facts answered as the checker's thread answers them: once flushed, the questions that
 * came in the same turn of the event loop are answered together, as one round.
 */
function roundCountingTypes(): { types: TypeFactsSource; rounds: () => number } {
  const facts: TypeFacts = { local: () => ({ text: 'number', jsonSafe: true }), fromSdk: () => true };
  let waiting: Array<() => void> = [];
  let flushed = false;
  let scheduled = false;
  let rounds = 0;
  const schedule = () => {
    if (!flushed || scheduled || waiting.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      rounds++;
      const batch = waiting;
      waiting = [];
      for (const answer of batch) answer();
    });
  };
  const types: TypeFactsSource = {
    forFile: () =>
      new Promise<TypeFacts>((resolve) => {
        waiting.push(() => resolve(facts));
        schedule();
      }),
    flush: () => {
      flushed = true;
      schedule();
    },
  };
  return { types, rounds: () => rounds };
}

describe('helpers of a module that other modules ask through', () => {
  // `confirm` is a const function, which cannot stay under its name for a call that cannot ask
  // through its halves as a plain function would (plan/legacy-entry.ts, test/legacy-entry.test.ts).
  const PROMPT = [
    "import type { McpServer } from '@modelcontextprotocol/server';",
    '',
    'export const confirm = async (server: McpServer, message: string): Promise<boolean> => {',
    "  const result = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });",
    "  return result.action === 'accept';",
    '};',
    '',
    'export async function confirmDestructive(server: McpServer, what: string): Promise<boolean> {',
    '  return confirm(server, `This cannot be undone: ${what}.`);',
    '}',
    '',
  ].join('\n');
  const tools = (name: string, helper: string) =>
    [
      "import type { McpServer } from '@modelcontextprotocol/server';",
      `import { ${helper} } from './prompt.js';`,
      '',
      'export function register(server: McpServer): void {',
      `  server.registerTool('${name}', { description: 'd' }, async () => {`,
      `    if (!(await ${helper}(server, 'it'))) return { content: [] };`,
      "    return { content: [{ type: 'text', text: 'done' }] };",
      '  });',
      '}',
      '',
    ].join('\n');

  it('are split, and every calling handler in the other modules asks through their halves', async () => {
    await put('src/prompt.ts', PROMPT);
    await put('src/a.ts', tools('wipe', 'confirmDestructive'));
    await put('src/b.ts', tools('move', 'confirm'));
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.handler])).toEqual([
      ['src/prompt.ts', 'migrated', 'helper:confirm'],
    ]);
    const prompt = await readFile(path.join(dir, 'src/prompt.ts'), 'utf8');
    expect(prompt).toContain('export function confirmRequest(message: string) {');
    expect(prompt).toContain('export function confirmDestructiveRequest(what: string) {\n  return confirmRequest(`This cannot be undone: ${what}.`);');
    expect(prompt).not.toMatch(/async function confirm\b/);
    const a = await readFile(path.join(dir, 'src/a.ts'), 'utf8');
    expect(a).toContain("import { confirmDestructiveRequest, confirmDestructiveResult } from './prompt.js';");
    expect(a).toContain("answer: confirmDestructiveRequest('it'),");
    const b = await readFile(path.join(dir, 'src/b.ts'), 'utf8');
    expect(b).toContain("import { confirmRequest, confirmResult } from './prompt.js';");
    expect(typecheck(['src/prompt.ts', 'src/a.ts', 'src/b.ts'].map((f) => path.join(dir, f))).filter((d) => !d.includes('mrtrCodec'))).toEqual([]);
    // A second run changes nothing.
    expect((await runCodemod({ paths: [dir], write: false, cwd: dir })).changed).toEqual([]);
  });

  it('stay whole, and every call is marked, when one call cannot ask through them', async () => {
    await put('src/prompt.ts', PROMPT);
    await put('src/a.ts', tools('wipe', 'confirmDestructive'));
    // Outside any handler: a timer.
    await put(
      'src/b.ts',
      "import type { McpServer } from '@modelcontextprotocol/server';\nimport { confirm } from './prompt.js';\nexport const nag = (server: McpServer) => setInterval(() => void confirm(server, 'still there?'), 1000);\n",
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/a.ts', 'marked', 'via-helper'],
      ['src/prompt.ts', 'marked', 'in-helper'],
    ]);
    expect(result.changed.find((c) => c.path === 'src/prompt.ts')!.output).toContain('export const confirm = async (');
  });

  it.each([
    ['a namespace import', "import * as prompt from './prompt.js';", 'prompt.confirm', '', [['src/a.ts', 'marked', 'via-helper']]],
    [
      'an index module that re-exports it all',
      "import { confirm } from './lib.js';",
      'confirm',
      "export * from './prompt.js';\n",
      [['src/a.ts', 'marked', 'via-helper']],
    ],
    [
      'an index module that re-exports it renamed',
      "import { ask } from './lib.js';",
      'ask',
      "export { confirm as ask } from './prompt.js';\n",
      [['src/a.ts', 'marked', 'via-helper']],
    ],
    ['a dynamic import', "const { confirm } = await import('./prompt.js');", 'confirm', '', [['src/a.ts', 'marked', 'via-helper']]],
  ])(
    'stay whole where a module reaches them through %s, whose calls their split would break, and mark those calls',
    async (_name, imports, call, lib, callers) => {
      await put('src/prompt.ts', PROMPT);
      if (lib) await put('src/lib.ts', lib);
      await put('src/b.ts', tools('move', 'confirm'));
      await put(
        'src/a.ts',
        tools('wipe', 'confirm')
          .replace("import { confirm } from './prompt.js';", imports)
          .replace("await confirm(server, 'it')", `await ${call}(server, 'it')`),
      );
      const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
      expect(result.errors).toEqual([]);
      expect(result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.code])).toEqual([
        ...callers,
        ['src/b.ts', 'marked', 'via-helper'],
        ['src/prompt.ts', 'marked', 'in-helper'],
      ]);
      expect(result.changed.find((c) => c.path === 'src/prompt.ts')!.output).toContain('export const confirm = async (');
    },
  );

  it.each([
    ['a module imports it by a path alias', "import { confirm } from '@/prompt.js';", ['.']],
    ['the module that imports it is not among the paths given', "import { confirm } from './prompt.js';", ['src/prompt.ts']],
  ])('stay whole where no module of the run imports them: %s', async (_name, imports, paths) => {
    await put('tsconfig.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'] } } }));
    await put('src/prompt.ts', PROMPT);
    await put('src/a.ts', tools('wipe', 'confirm').replace("import { confirm } from './prompt.js';", imports));
    const result = await runCodemod({ paths, write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/prompt.ts', 'marked', 'in-helper'],
    ]);
    expect(result.changed.find((c) => c.path === 'src/prompt.ts')!.output).toContain('export const confirm = async (');
  });

  it('include methods of an exported class, called through an instance held in a field', async () => {
    await put(
      'src/prompter.ts',
      [
        "import type { McpServer } from '@modelcontextprotocol/server';",
        'export class Prompter {',
        '  constructor(private readonly server: McpServer) {}',
        '  async confirm(message: string): Promise<boolean> {',
        "    const result = await this.server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });",
        "    return result.action === 'accept';",
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    await put(
      'src/server.ts',
      [
        "import { McpServer } from '@modelcontextprotocol/server';",
        "import { Prompter } from './prompter.js';",
        'export class App {',
        "  readonly server = new McpServer({ name: 'app', version: '1' });",
        '  private readonly prompter: Prompter;',
        '  constructor() {',
        '    this.prompter = new Prompter(this.server);',
        "    this.server.registerTool('archive', { description: 'd' }, async () => {",
        "      if (!(await this.prompter.confirm('Archive?'))) return { content: [] };",
        "      return { content: [{ type: 'text', text: 'archived' }] };",
        '    });',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status])).toEqual([['src/prompter.ts', 'migrated']]);
    const server = await readFile(path.join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain("answer: this.prompter.confirmRequest('Archive?'),");
    expect(server).toContain('if (!(this.prompter.confirmResult(mrtrAnswer))) return { content: [] };');
    expect(typecheck(['src/prompter.ts', 'src/server.ts'].map((f) => path.join(dir, f)))).toEqual([]);
  });
});

describe('a module that reaches the v1 SDK through a module of the project', () => {
  const MCP = "// The SDK classes the server uses, in one place.\nexport { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n";
  const TOOLS = [
    "import { z } from 'zod';",
    "import type { McpServer } from '../mcp.js';",
    '',
    'export function register(server: McpServer) {',
    "  server.tool('go', 'Go somewhere', { target: z.string() }, async ({ target }) => {",
    "    const answer = await server.server.elicitInput({ message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } });",
    "    return { content: [{ type: 'text', text: answer.action }] };",
    '  });',
    '}',
    '',
  ].join('\n');

  it('is upgraded with it, keeping its own import, and migrated', async () => {
    await put('package.json', V1_MANIFEST);
    await put('src/mcp.ts', MCP);
    await put('src/tools/go.ts', TOOLS);
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code !== 'server-elsewhere')).toMatchObject([{ file: 'src/tools/go.ts', status: 'migrated', handler: 'tool:go' }]);
    const tools = await readFile(path.join(dir, 'src/tools/go.ts'), 'utf8');
    expect(tools).toContain("import type { McpServer } from '../mcp.js';");
    expect(tools).toContain("server.registerTool('go', { description: 'Go somewhere', inputSchema: z.object({ target: z.string() }) }");
    expect(await readFile(path.join(dir, 'src/mcp.ts'), 'utf8')).toContain("export { McpServer } from '@modelcontextprotocol/server';");
    expect(typecheck([path.join(dir, 'src/mcp.ts'), path.join(dir, 'src/tools/go.ts')]).filter((d) => !d.includes('mrtrCodec'))).toEqual([]);
  });

  it('is marked when the module is a copy of the v1 SDK kept in the project', async () => {
    await put(
      'vendor/mcp-sdk/server/mcp.js',
      'export class McpServer {\n  constructor(info) {\n    this.info = info;\n  }\n  registerTool(name, config, cb) {\n    return { name, config, cb };\n  }\n}\n',
    );
    await put(
      'src/tools.ts',
      TOOLS.replace("import type { McpServer } from '../mcp.js';", "import { McpServer } from '../vendor/mcp-sdk/server/mcp.js';").replace(
        "server.tool('go', 'Go somewhere', { target: z.string() },",
        "server.registerTool('go', { inputSchema: { target: z.string() } },",
      ),
    );
    const result = await runCodemod({ paths: ['src'], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/tools.ts', 'marked', 'legacy-sdk']]);
  });

  it('is marked, not half-migrated to v2 calls, where v1 files are left as they are', async () => {
    await put('package.json', V1_MANIFEST);
    await put('src/mcp.ts', MCP);
    await put('src/tools/go.ts', TOOLS);
    await put('src/direct.ts', V1_SERVER);
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir, v1: false });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/direct.ts', 'marked', 'legacy-sdk'],
      ['src/tools/go.ts', 'marked', 'legacy-sdk'],
    ]);
    expect(result.changed.map((c) => c.output).join('\n')).not.toContain('inputRequired');
  });

  it('is migrated where v1 files are left, when the module it reaches takes only v1 utilities', async () => {
    await put('package.json', V1_MANIFEST);
    await put(
      'src/schemas.ts',
      "import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';\nexport const asJsonSchema = (schema: unknown) => toJsonSchemaCompat(schema as never);\n",
    );
    await put(
      'src/tools/go.ts',
      [
        "import { McpServer } from '@modelcontextprotocol/server';",
        "import * as z from 'zod/v4';",
        "import { asJsonSchema } from '../schemas.js';",
        '',
        "export const server = new McpServer({ name: 'go', version: '1.0.0' });",
        'export const described = asJsonSchema(z.object({ target: z.string() }));',
        "server.registerTool('go', { inputSchema: z.object({ target: z.string() }) }, async ({ target }, ctx) => {",
        "  const answer = await ctx.mcpReq.elicitInput({ message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } });",
        "  return { content: [{ type: 'text' as const, text: answer.action }] };",
        '});',
        '',
      ].join('\n'),
    );
    const result = await runCodemod({ paths: ['src/tools'], write: false, cwd: dir, v1: false });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/tools/go.ts', 'migrated', undefined]]);
  });
});

it('migrates a handler exported by one module and registered by another', async () => {
  await put(
    'src/tools/search.ts',
    [
      "import { McpServer } from '@modelcontextprotocol/server';",
      '',
      "export const server = new McpServer({ name: 'search', version: '1' });",
      '',
      'export async function searchHandler({ query }: { query: string }) {',
      "  const picked = await server.server.elicitInput({ message: `Search ${query}?`, requestedSchema: { type: 'object', properties: {} } });",
      "  return { content: [{ type: 'text' as const, text: picked.action }] };",
      '}',
      '',
    ].join('\n'),
  );
  await put(
    'src/index.ts',
    [
      "import * as z from 'zod/v4';",
      "import { searchHandler, server } from './tools/search.js';",
      "server.registerTool('search', { inputSchema: z.object({ query: z.string() }) }, searchHandler);",
      '',
    ].join('\n'),
  );
  const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
  expect(result.errors).toEqual([]);
  expect(result.sites.map((s) => [s.file, s.status, s.handler])).toEqual([['src/tools/search.ts', 'migrated', 'tool:search']]);
  const search = await readFile(path.join(dir, 'src/tools/search.ts'), 'utf8');
  expect(search).toContain('export async function searchHandler({ query }: { query: string }, ctx: ServerContext) {');
  expect(search).toContain("const mrtr = await mrtrResume(ctx, 'tool:search', ['picked'], { query });");
  expect(await readFile(path.join(dir, 'src/index.ts'), 'utf8')).toContain(
    "server.registerTool('search', { inputSchema: z.object({ query: z.string() }) }, searchHandler);",
  );
  expect(typecheck([path.join(dir, 'src/tools/search.ts'), path.join(dir, 'src/index.ts')])).toEqual([]);
});

describe('a v2 server module that still imports a v1 utility', () => {
  const SERVER = (utility: string) =>
    [
      "import { McpServer } from '@modelcontextprotocol/server';",
      "import * as z from 'zod/v4';",
      utility,
      '',
      "const server = new McpServer({ name: 'go', version: '1.0.0' });",
      'export const targetSchema = toJsonSchemaCompat(z.object({ target: z.string() }));',
      '',
      "server.registerTool('go', { inputSchema: z.object({ target: z.string() }) }, async ({ target }, ctx) => {",
      "  const answer = await ctx.mcpReq.elicitInput({ message: `Go to ${target}?`, requestedSchema: { type: 'object', properties: {} } });",
      "  return { content: [{ type: 'text' as const, text: answer.action }] };",
      '});',
      '',
    ].join('\n');

  it.each([
    [
      'a utility (toJsonSchemaCompat): migrated',
      "import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';",
      'migrated',
      undefined,
    ],
    [
      'the v1 server class beside it: refused',
      "import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';\nimport type { McpServer as V1Server } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport type Old = V1Server;",
      'marked',
      'legacy-sdk',
    ],
    [
      "a require of the v1 SDK's package.json: migrated",
      "// eslint-disable-next-line @typescript-eslint/no-require-imports\nconst { version } = require('@modelcontextprotocol/sdk/package.json');\nexport const v1Version: string = version;\nconst toJsonSchemaCompat = (s: unknown) => s;",
      'migrated',
      undefined,
    ],
    [
      'a v1 utility taken by require: migrated',
      "// eslint-disable-next-line @typescript-eslint/no-require-imports\nconst { toJsonSchemaCompat } = require('@modelcontextprotocol/sdk/server/zod-json-schema-compat.js');",
      'migrated',
      undefined,
    ],
    [
      'the v1 server class taken by require: refused',
      "// eslint-disable-next-line @typescript-eslint/no-require-imports\nconst { McpServer: V1Server } = require('@modelcontextprotocol/sdk/server/mcp.js');\nexport const Old = V1Server;\nconst toJsonSchemaCompat = (s: unknown) => s;",
      'marked',
      'legacy-sdk',
    ],
    [
      'the whole v1 module taken by require: refused',
      "// eslint-disable-next-line @typescript-eslint/no-require-imports\nconst sdk = require('@modelcontextprotocol/sdk/server/mcp.js');\nexport const old = sdk;\nconst toJsonSchemaCompat = (s: unknown) => s;",
      'marked',
      'legacy-sdk',
    ],
    [
      'a namespace of a v1 utility module: migrated',
      "import * as compat from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';\nconst toJsonSchemaCompat = compat.toJsonSchemaCompat;",
      'migrated',
      undefined,
    ],
    [
      'a namespace of the v1 server path: refused',
      "import * as sdk from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const old = sdk;\nconst toJsonSchemaCompat = (s: unknown) => s;",
      'marked',
      'legacy-sdk',
    ],
  ])('%s', async (_name, utility, status, code) => {
    await put('src/server.ts', SERVER(utility));
    const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, v1: false });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/server.ts', status, code]]);
  });
});

describe('a module whose only request names its method from another module', () => {
  const PARAMS = "{ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }";
  const tool = (imports: string, body: string) =>
    [
      "import { McpServer } from '@modelcontextprotocol/server';",
      imports,
      "export const server = new McpServer({ name: 's', version: '1' });",
      "server.registerTool('t', { description: 'd' }, async (ctx) => {",
      body,
      "  return { content: [{ type: 'text', text: String(ctx.mcpReq.id) + JSON.stringify(r) }] };",
      '});',
      '',
    ].join('\n');

  it.each([
    [
      'a destructured send',
      "import { ELICIT } from './methods.js';",
      `  const { send } = ctx.mcpReq;\n  const r = await send({ method: ELICIT, params: ${PARAMS} });`,
      'unknown-request',
    ],
    [
      'the request context in a local',
      "import { ELICIT } from './methods.js';",
      `  const req = ctx.mcpReq;\n  const r = await req.send({ method: ELICIT, params: ${PARAMS} });`,
      'unknown-request',
    ],
    [
      'an optional send',
      "import { ELICIT } from './methods.js';",
      `  const r = await ctx.mcpReq?.send({ method: ELICIT, params: ${PARAMS} });`,
      'optional-call',
    ],
    [
      'the low-level request()',
      "import { ELICIT } from './methods.js';",
      `  const r = await server.server.request({ method: ELICIT, params: ${PARAMS} });`,
      'unknown-request',
    ],
    ['a method named in brackets', "import { Names } from './methods.js';", `  const r = await ctx.mcpReq[Names.ask](${PARAMS});`, 'unfollowed-reference'],
  ])('is still checked: %s', async (_name, imports, body, code) => {
    await put('src/methods.ts', "export const ELICIT = 'elicitation/create' as const;\nexport const Names = { ask: 'elicitInput' } as const;\n");
    await put('src/server.ts', tool(imports, body));
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/server.ts', 'marked', code]]);
  });
});
