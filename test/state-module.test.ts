// The request-state module: its three forms made from templates/request-state.ts, what its
// verifier claims, and the engine's step that writes it once a package (refreshing an
// outdated one, leaving an edited one, refusing a path that holds another file), in
// TypeScript, ES module and CommonJS packages, within the bounds every write of a run keeps.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chmod, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { requestCapabilities } from '../src/rewrite/client-capabilities.ts';
import { STATE_MODULE_SENTINEL, stateModuleStatus, stateModuleText, TEMPLATE_PATH } from '../src/rewrite/state-module.ts';
import { packageVersion } from '../src/package-version.ts';
import { ELICIT_SERVER, olderStateModule, SPLIT_SERVER } from './engine-samples.ts';
import { git } from './support/cli.ts';
import { putFile, checkoutScratch } from './support/scratch.ts';
import { callOverStdio } from './support/stdio-client.ts';

let scratch: string;
const savedKey = process.env.MCP_REQUEST_STATE_KEY;
beforeAll(async () => {
  process.env.MCP_REQUEST_STATE_KEY = 'state-module-test-key-0123456789abcdef';
  // Under the project, so the modules written there resolve @modelcontextprotocol/server.
  scratch = checkoutScratch('state-module-');
});
afterAll(async () => {
  if (savedKey === undefined) delete process.env.MCP_REQUEST_STATE_KEY;
  else process.env.MCP_REQUEST_STATE_KEY = savedKey;
  await rm(scratch, { recursive: true, force: true });
});

const dirOf = async (name: string) => {
  const dir = path.join(scratch, name);
  await mkdir(dir, { recursive: true });
  return dir;
};

describe('the module text', () => {
  it('is the template under a header naming the codemod version and a digest of the text', async () => {
    const template = await readFile(TEMPLATE_PATH, 'utf8');
    const text = stateModuleText('ts');
    expect(text.split('\n')[0]).toMatch(
      new RegExp(`^// ${STATE_MODULE_SENTINEL}, mrtr-codemod ${packageVersion().replace(/\./g, '\\.')}, sha256:[0-9a-f]{16}\\.$`),
    );
    expect(text.endsWith(template)).toBe(true);
    expect(stateModuleText('ts', '\r\n')).toBe(text.replace(/\n/g, '\r\n'));
  });

  it('reads the capabilities a request carries with the expression the capability-check rewrite writes', async () => {
    expect(await readFile(TEMPLATE_PATH, 'utf8')).toContain(`const caps = ${requestCapabilities('ctx', true)} ?? `);
  });

  it('is the same module as JavaScript: the ES module imports and the CommonJS one requires, with the same exports', async () => {
    const dir = await dirOf('forms');
    await writeFile(path.join(dir, 'm.mjs'), stateModuleText('esm'));
    await writeFile(path.join(dir, 'm.cjs'), stateModuleText('cjs'));
    const esm = (await import(pathToFileURL(path.join(dir, 'm.mjs')).href)) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(path.join(dir, 'm.cjs')) as Record<string, unknown>;
    for (const exports of [esm, cjs]) {
      expect(
        Object.keys(exports)
          .filter((k) => k !== '__esModule')
          .sort(),
      ).toEqual(['mrtrCodec', 'mrtrConfigure', 'mrtrRedisRounds', 'mrtrResume', 'mrtrVerify']);
    }
    expect(stateModuleText('esm')).not.toMatch(/: (string|unknown|ServerContext)\b|<MrtrState>|\bas T\b/);
    expect(stateModuleText('cjs')).toContain('require("@modelcontextprotocol/server")');
  });

  it('names the round store several instances share wherever its header names instances', () => {
    const text = stateModuleText('ts');
    const paragraphs = text.slice(0, text.indexOf('\nimport ')).split('\n//\n');
    // Instances of the server (not a class instance, one of the values JSON cannot carry).
    const naming = paragraphs.filter((paragraph) => /(?<!class )\binstances?\b/.test(paragraph));
    expect(naming.length).toBeGreaterThan(1);
    for (const paragraph of naming) expect(paragraph).toMatch(/round store/);
    expect(text).toContain('//   mrtrConfigure({ rounds: mrtrRedisRounds(redis) })');
  });

  it('tells a current module from an outdated one, one a person edited, and a file it did not write', () => {
    const text = stateModuleText('ts');
    expect(stateModuleStatus(text, 'ts')).toEqual({ kind: 'current' });
    expect(stateModuleStatus(text.replace(/\n/g, '\r\n'), 'ts')).toEqual({ kind: 'current' });
    expect(stateModuleStatus(text, 'esm')).toEqual({ kind: 'outdated', version: packageVersion() });
    expect(stateModuleStatus(text.replace('const MRTR_STATE_PREFIX', '// mine\nconst MRTR_STATE_PREFIX'), 'ts')).toEqual({
      kind: 'edited',
      version: packageVersion(),
    });
    expect(stateModuleStatus('export const x = 1;\n', 'ts')).toEqual({ kind: 'foreign' });
  });
});

describe('the verifier', () => {
  type Verify = (state: string, ctx: unknown) => unknown;
  let module: { mrtrVerify(next?: Verify): Verify; mrtrCodec(): { mint(p: unknown, ctx?: unknown): Promise<string> } };
  beforeAll(async () => {
    module = (await import('../fixtures/_support/mrtr-request-state.ts')) as unknown as typeof module;
  });
  const ctx = { mcpReq: {}, http: undefined };

  it('claims the state the module minted, and refuses it tampered', async () => {
    const minted = `mrtr-${await module.mrtrCodec().mint({ handler: 'tool:t', step: 's', args: 'd', locals: {}, ask: {}, round: 'r1', born: Math.floor(Date.now() / 1000) }, ctx)}`;
    expect(await module.mrtrVerify()(minted, ctx)).toMatchObject({ handler: 'tool:t', step: 's' });
    await expect(async () => module.mrtrVerify()(`${minted.slice(0, -2)}AA`, ctx)).rejects.toThrow('mac');
  });

  it('hands any other state to the verifier it is given, or leaves it as it came', async () => {
    const theirs = createRequestStateCodec<{ n: number }>({ key: 'their-own-key-0123456789abcdef0123456789' });
    const state = await theirs.mint({ n: 7 });
    expect(await module.mrtrVerify(theirs.verify as Verify)(state, ctx)).toEqual({ n: 7 });
    expect(await module.mrtrVerify()(state, ctx)).toBeUndefined(); // the handler reads the raw string
    // Their state is not ours just because it verifies: without the prefix it never reaches our codec.
    await expect(async () => module.mrtrVerify(theirs.verify as Verify)(`mrtr-${state}`, ctx)).rejects.toThrow('mac');
  });
});

describe('the engine writes it once a package', () => {
  it('refreshes a module an older run wrote, leaves one a person edited, and refuses a path holding another file', async () => {
    const dir = await dirOf('refresh');
    await putFile(dir, 'src/server.ts', ELICIT_SERVER);
    const module = path.join(dir, 'src/mrtr-request-state.ts');
    const older = olderStateModule();
    await writeFile(module, older);
    const refreshed = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(refreshed.errors).toEqual([]);
    expect(refreshed.stateModules).toEqual([{ file: 'src/mrtr-request-state.ts', form: 'ts', status: 'refreshed', wiredIn: [] }]);
    expect(refreshed.changed.find((c) => c.path === 'src/mrtr-request-state.ts')).toMatchObject({ original: older, written: true });
    expect(await readFile(module, 'utf8')).toBe(stateModuleText('ts'));

    const edited = stateModuleText('ts').replace('const MRTR_STATE_PREFIX', '// tuned by hand\nconst MRTR_STATE_PREFIX');
    await writeFile(module, edited);
    const left = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(left.stateModules).toEqual([{ file: 'src/mrtr-request-state.ts', form: 'ts', status: 'edited', wiredIn: [] }]);
    expect(await readFile(module, 'utf8')).toBe(edited);

    await putFile(dir, 'src/server.ts', ELICIT_SERVER);
    await writeFile(module, 'export const mine = 1;\n');
    const refused = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(refused.errors).toEqual([
      {
        file: 'src/server.ts',
        stage: 'write',
        message: expect.stringMatching(
          /^the request-state module's path src\/mrtr-request-state\.ts holds a file mrtr-codemod did not write; the file was left as it is/,
        ),
      },
    ]);
    expect(await readFile(path.join(dir, 'src/server.ts'), 'utf8')).toBe(ELICIT_SERVER);
    expect(await readFile(module, 'utf8')).toBe('export const mine = 1;\n');
    // An analysis-only run (as `check` makes) uses no output: it reports the site, no error.
    const analysed = await runCodemod({ paths: ['src'], write: false, verify: false, cwd: dir, types: false });
    expect(analysed.errors).toEqual([]);
    expect(analysed.sites).toMatchObject([{ file: 'src/server.ts', status: 'migrated' }]);
    expect(analysed.stateModules).toEqual([]);
  });

  it('puts it where --state-module says, a file or a folder', async () => {
    const dir = await dirOf('option');
    await putFile(dir, 'src/a/server.ts', ELICIT_SERVER);
    const named = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false, stateModule: 'lib/state.ts' });
    expect(named.changed.map((c) => c.path)).toEqual(['src/a/server.ts', 'lib/state.ts']);
    expect(named.changed[0]!.output).toContain("import { mrtrResume, mrtrVerify } from '../../lib/state.js';");
    await mkdir(path.join(dir, 'shared'));
    const folder = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false, stateModule: 'shared' });
    expect(folder.changed.map((c) => c.path)).toEqual(['src/a/server.ts', 'shared/mrtr-request-state.ts']);
  });

  it('leaves server-elsewhere on the tools when the module that builds the server passes options it cannot extend', async () => {
    const dir = await dirOf('unwirable');
    await putFile(
      dir,
      'src/server.ts',
      [
        "import { McpServer, type ServerOptions } from '@modelcontextprotocol/server';",
        "import { registerTools } from './tools.js';",
        'export function createServer(options: ServerOptions): McpServer {',
        "  const server = new McpServer({ name: 's', version: '1' }, options);",
        '  registerTools(server);',
        '  return server;',
        '}',
        '',
      ].join('\n'),
    );
    await putFile(
      dir,
      'src/tools.ts',
      [
        "import type { McpServer } from '@modelcontextprotocol/server';",
        'export function registerTools(server: McpServer): void {',
        "  server.registerTool('go', { description: 'd' }, async (ctx) => {",
        "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });",
        "    return { content: [{ type: 'text', text: answer.action }] };",
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false });
    expect(result.errors).toEqual([]);
    expect(result.changed.map((c) => c.path)).toEqual(['src/tools.ts', 'src/mrtr-request-state.ts']);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/tools.ts', 'migrated', undefined],
      ['src/tools.ts', 'marked', 'server-elsewhere'],
    ]);
    expect(result.changed[0]!.output).toContain('// @mrtr-todo(server-elsewhere):');
  });

  it('keeps the module a run over the tools placed when a later run over the package migrates more, and wires the server from it', async () => {
    const dir = await dirOf('later-run');
    const tool = (name: string) =>
      [
        "import type { McpServer } from '@modelcontextprotocol/server';",
        `export function register${name}(server: McpServer): void {`,
        `  server.registerTool('${name.toLowerCase()}', { description: 'd' }, async (ctx) => {`,
        "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });",
        "    return { content: [{ type: 'text', text: answer.action }] };",
        '  });',
        '}',
        '',
      ].join('\n');
    const server = [
      "import { McpServer } from '@modelcontextprotocol/server';",
      "import { registerGo } from './tools/go.js';",
      "import { registerStop } from './tools/stop.js';",
      'export function createServer(): McpServer {',
      "  const server = new McpServer({ name: 's', version: '1' });",
      '  registerGo(server);',
      '  registerStop(server);',
      '  return server;',
      '}',
      '',
    ].join('\n');
    await putFile(dir, 'src/server.ts', server);
    await putFile(dir, 'src/tools/go.ts', tool('Go'));
    const first = await runCodemod({ paths: ['src/tools'], write: true, cwd: dir, types: false });
    expect(first.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/tools/go.ts', 'migrated', undefined],
      ['src/tools/go.ts', 'marked', 'server-elsewhere'],
    ]);
    expect(first.changed.map((c) => c.path)).toEqual(['src/tools/go.ts', 'src/tools/mrtr-request-state.ts']);

    // A new tool meanwhile; the run over the package migrates it with the module the first run placed.
    await putFile(dir, 'src/tools/stop.ts', tool('Stop'));
    const second = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(second.errors).toEqual([]);
    // Which files change, not the order they are taken in (go.ts, with the generated code in it, may go first).
    expect(second.changed.map((c) => c.path).sort()).toEqual(['src/server.ts', 'src/tools/go.ts', 'src/tools/stop.ts']);
    expect(second.stateModules).toEqual([{ file: 'src/tools/mrtr-request-state.ts', form: 'ts', status: 'current', wiredIn: ['src/server.ts'] }]);
    expect(await readFile(path.join(dir, 'src/tools/stop.ts'), 'utf8')).toContain("import { mrtrResume } from './mrtr-request-state.js';");
    expect(await readFile(path.join(dir, 'src/server.ts'), 'utf8')).toContain("import { mrtrVerify } from './tools/mrtr-request-state.js';");
    expect(await readFile(path.join(dir, 'src/tools/go.ts'), 'utf8')).not.toContain('@mrtr-todo');
    expect(await readdir(path.join(dir, 'src'))).toEqual(['server.ts', 'tools']);

    const third = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(third.changed).toEqual([]);
    expect(third.stateModules).toEqual([{ file: 'src/tools/mrtr-request-state.ts', form: 'ts', status: 'current', wiredIn: [] }]);
  });

  it('writes a missing module that migrated files import (as a jscodeshift run leaves them)', async () => {
    const dir = await dirOf('missing');
    const first = await runCodemod({ paths: ['.'], write: false, cwd: await dirOfWith(dir, ELICIT_SERVER), types: false });
    const migrated = first.changed.find((c) => c.path === 'server.ts')!.output;
    await rm(path.join(dir, 'server.ts'));
    await putFile(dir, 'src/server.ts', migrated);
    const result = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: false });
    expect(result.errors).toEqual([]);
    expect(result.changed.map((c) => [c.path, c.created])).toEqual([['src/mrtr-request-state.ts', true]]);
  });

  it('gives a CommonJS package the CommonJS form, required by the migrated file, and the tool works on both eras', async () => {
    const dir = await dirOf('commonjs');
    await putFile(dir, 'package.json', '{ "name": "cjs-demo", "private": true }\n');
    const source = [
      "'use strict';",
      "const { McpServer } = require('@modelcontextprotocol/server');",
      '',
      'function createServer(log) {',
      "  const server = new McpServer({ name: 'cjs', version: '1.0.0' });",
      "  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {",
      "    log.push('asked');",
      "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });",
      '    log.push(`answer:${answer.action}`);',
      "    return { content: [{ type: 'text', text: answer.action }] };",
      '  });',
      '  return server;',
      '}',
      '',
      'module.exports = { createServer };',
      '',
    ].join('\n');
    await putFile(dir, 'src/server.js', source);
    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(result.errors).toEqual([]);
    expect(result.stateModules).toEqual([{ file: 'src/mrtr-request-state.js', form: 'cjs', status: 'created', wiredIn: [] }]);
    const migrated = await readFile(path.join(dir, 'src/server.js'), 'utf8');
    expect(migrated).toContain("const { McpServer, inputRequired } = require('@modelcontextprotocol/server');");
    expect(migrated).toContain("const { mrtrResume, mrtrVerify } = require('./mrtr-request-state.js');");
    // Served by a CommonJS process (the SDK's CommonJS build throughout), over stdio.
    await putFile(
      dir,
      'serve.cjs',
      [
        "const { serveStdio } = require('@modelcontextprotocol/server/stdio');",
        "const { createServer } = require('./src/server.js');",
        'const log = { push: (entry) => process.stderr.write(`LOG ${entry}\\n`) };',
        'serveStdio(() => createServer(log));',
        '',
      ].join('\n'),
    );
    for (const era of ['modern', 'legacy'] as const) {
      const { results, log } = await callOverStdio(path.join(dir, 'serve.cjs'), era);
      expect({ era, results, log }).toEqual({ era, results: [{ content: [{ type: 'text', text: 'accept' }], era }], log: ['asked', 'answer:accept'] });
    }
  });
});

describe("the request-state step keeps the run's guarantees", () => {
  it('writes the module before the first file that imports it, so a run stopped between writes leaves no import of a missing module', async () => {
    const dir = await dirOf('module-first');
    await putFile(dir, 'src/server.ts', SPLIT_SERVER['server.ts']);
    await putFile(dir, 'src/tools.ts', SPLIT_SERVER['tools.ts']);
    const module = path.join(dir, 'src/mrtr-request-state.ts');
    const seen: Array<[string, boolean]> = [];
    const result = await runCodemod({
      paths: ['src'],
      write: true,
      cwd: dir,
      types: false,
      onChanged: (file) => seen.push([file.path, existsSync(module)]),
    });
    expect(result.errors).toEqual([]);
    // Each file as it is written: the module it imports is already there.
    expect(seen).toEqual([
      ['src/tools.ts', true],
      ['src/server.ts', true],
      ['src/mrtr-request-state.ts', true],
    ]);
    expect(result.stateModules).toEqual([{ file: 'src/mrtr-request-state.ts', form: 'ts', status: 'created', wiredIn: ['src/server.ts'] }]);
    expect(result.changed.find((f) => f.path === 'src/mrtr-request-state.ts')).toMatchObject({ created: true, written: true, original: '' });
  });

  const refusal = (detail: string) => [
    {
      file: 'src/server.ts',
      stage: 'write',
      message: `the request-state module's path ${detail}, so it is not written there (name another path with --state-module)`,
    },
  ];

  it('never writes it through a symbolic link, nor outside the directory the run is in (a dry run says so too)', async () => {
    const dir = await dirOf('bounds');
    const project = path.join(dir, 'project');
    const outside = path.join(dir, 'outside');
    await putFile(project, 'src/server.ts', ELICIT_SERVER);
    const older = await putFile(outside, 'older.ts', olderStateModule());
    const run = (stateModule?: string, write = true) =>
      runCodemod({ paths: ['src'], write, cwd: project, types: false, ...(stateModule ? { stateModule } : {}) });

    // The module's place is a link to an older module elsewhere: refreshing it would write there.
    await symlink(older, path.join(project, 'src/mrtr-request-state.ts'));
    for (const write of [true, false])
      expect((await run(undefined, write)).errors).toEqual(refusal('src/mrtr-request-state.ts is a symbolic link; it is not written through'));
    await rm(path.join(project, 'src/mrtr-request-state.ts'));
    // Named outside, or in a folder that is a link leading out.
    expect((await run('../outside/state.ts')).errors).toEqual(refusal('../outside/state.ts is outside the directory the run is in'));
    await symlink(outside, path.join(project, 'lib'));
    expect((await run('lib')).errors).toEqual(refusal('lib/mrtr-request-state.ts is outside the directory the run is in'));

    expect(await readFile(path.join(project, 'src/server.ts'), 'utf8')).toBe(ELICIT_SERVER);
    expect(await readdir(outside)).toEqual(['older.ts']);
    expect(await readFile(older, 'utf8')).toBe(olderStateModule());
  });

  it('is put only inside the git work tree of every file that imports it', async () => {
    const dir = await dirOf('work-trees');
    for (const repo of ['a', 'b']) {
      await putFile(dir, `${repo}/src/server.ts`, ELICIT_SERVER);
      await git(path.join(dir, repo), 'init', '-q');
    }
    // One package (no package.json): its module would go in the folder above both work trees.
    const result = await runCodemod({ paths: ['a', 'b'], write: true, cwd: dir, types: false });
    expect(result.errors.map((e) => [e.file, e.message])).toEqual([
      [
        'a/src/server.ts',
        "the request-state module's path mrtr-request-state.ts is outside the git work tree of a/src/server.ts, so it is not written there (name another path with --state-module)",
      ],
      [
        'b/src/server.ts',
        "the request-state module's path mrtr-request-state.ts is outside the git work tree of a/src/server.ts, so it is not written there (name another path with --state-module)",
      ],
    ]);
    expect(result.changed).toEqual([]);
    expect(await readdir(dir)).toEqual(['a', 'b']);
  });

  it('makes the folder --state-module names inside the directory the run is in', async () => {
    const dir = await dirOf('new-folder');
    await putFile(dir, 'src/server.ts', ELICIT_SERVER);
    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false, stateModule: 'lib/state/mrtr.ts' });
    expect(result.errors).toEqual([]);
    expect(await readFile(path.join(dir, 'lib/state/mrtr.ts'), 'utf8')).toBe(stateModuleText('ts'));
  });

  it('leaves a read-only module that builds the server unwired, and a read-only module unrefreshed, unless asked to write read-only files', async () => {
    const dir = await dirOf('read-only');
    const server = await putFile(dir, 'src/server.ts', SPLIT_SERVER['server.ts'], 0o444);
    await putFile(dir, 'src/tools.ts', SPLIT_SERVER['tools.ts']);
    // A dry run writes nothing, so it has nothing to refuse.
    expect((await runCodemod({ paths: ['src'], write: false, cwd: dir, types: false })).errors).toEqual([]);
    const refused = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(refused.errors).toEqual([
      {
        file: 'src/server.ts',
        stage: 'write',
        message:
          'read-only file (no write permission bit); the request-state verifier was not wired: add requestState: { verify: mrtrVerify() } by hand, or run again once it is writable',
      },
    ]);
    expect(await readFile(server, 'utf8')).toBe(SPLIT_SERVER['server.ts']);

    // The refused run migrated tools.ts: back to its legacy text, so the next run wires again.
    await putFile(dir, 'src/tools.ts', SPLIT_SERVER['tools.ts']);
    const wired = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false, writeReadOnly: true });
    expect(wired.errors).toEqual([]);
    expect(await readFile(server, 'utf8')).toContain('{ requestState: { verify: mrtrVerify() } }');
    expect((await stat(server)).mode & 0o777).toBe(0o444);

    const module = path.join(dir, 'src/mrtr-request-state.ts');
    await writeFile(module, olderStateModule());
    await chmod(module, 0o444);
    const old = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: false });
    expect(old.errors).toEqual([
      {
        file: 'src/mrtr-request-state.ts',
        stage: 'write',
        message: 'read-only file (no write permission bit); the request-state module was left as it is (make it writable to refresh it)',
      },
    ]);
    expect(await readFile(module, 'utf8')).toBe(olderStateModule());
  });
});

async function dirOfWith(dir: string, server: string): Promise<string> {
  await putFile(dir, 'server.ts', server);
  return dir;
}
