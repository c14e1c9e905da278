// `mrtr-codemod check`: the CI lint mode, through the real entry (node bin/mrtr-codemod.js) on
// temporary trees under .tmp/ (git-ignored). Every format is checked on the same tree: JSON
// parses and says the same as text, SARIF validates against the official SARIF 2.1.0 schema
// (test/schemas), GitHub annotations are well-formed workflow commands. No run writes anything.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { markersInComment } from '../src/analyse/markers.ts';
import { findingsForFile, scanAnalysis, scanSource } from '../src/report/check-findings.ts';
import type { RunSite } from '../src/engine/run.ts';
import { isCheckReport } from '../src/report/check-output.ts';
import { buildCheckReport, CHECK_FORMATS, type CheckReport } from '../src/report/formats/check-report.ts';
import { formatCheckReport } from '../src/report/formats/index.ts';
import { escapeData, escapeProperty } from '../src/report/formats/github.ts';
import { fileUri, sarifLog } from '../src/report/formats/sarif.ts';
import { BROKEN_SERVER, MIXED_SERVER, PLAIN_MODULE } from './engine-samples.ts';

import { cli, type CliRun } from './support/cli.ts';
import { ROOT } from './support/fixtures.ts';

const TMP = path.join(ROOT, '.tmp');
const SCHEMA = fileURLToPath(new URL('./schemas/sarif-schema-2.1.0.json', import.meta.url));

// ajv-formats is CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const dirs: string[] = [];
beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
});
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A fresh directory under .tmp/ holding `files`. */
async function tree(files: Record<string, string | Buffer>): Promise<string> {
  const root = await mkdtemp(path.join(TMP, 'check-'));
  dirs.push(root);
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return root;
}

/** Bytes, mode and mtime of every file under `root`, to prove check touched nothing. */
async function snapshot(root: string): Promise<Record<string, { bytes: string; mode: number; mtimeMs: number }>> {
  const out: Record<string, { bytes: string; mode: number; mtimeMs: number }> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file);
    out[path.relative(root, file)] = { bytes: (await readFile(file)).toString('base64'), mode: info.mode, mtimeMs: info.mtimeMs };
  }
  return out;
}

/** Runs check and asserts it left the tree exactly as it was. */
async function check(root: string, ...args: string[]): Promise<CliRun> {
  const before = await snapshot(root);
  const result = await cli(root, 'check', ...args);
  expect(await snapshot(root)).toEqual(before);
  return result;
}

// --- sample sources -----------------------------------------------------------------------------

/** The same connection kept across two calls of a helper that asks. */
const NOT_JSON_HELPER_SERVER = `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';

class Connection {
  constructor(readonly url: string) {}
  async send(text: string): Promise<string> {
    return \`\${this.url}: \${text}\`;
  }
}

async function connect(): Promise<Connection> {
  return new Connection('https://example.test');
}

async function confirm(ctx: ServerContext, message: string): Promise<boolean> {
  const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}

export const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.registerTool('send', { description: 'Send a note', inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  const connection = await connect();
  const first = await confirm(ctx, 'Send?');
  if (!first) return { content: [{ type: 'text', text: 'kept' }] };
  const second = await confirm(ctx, 'Really send?');
  if (!second) return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: await connection.send(text) }] };
});
`;

/** A handler that keeps a connection (a class instance, not JSON) across two questions. */
const NOT_JSON_LOCAL_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

class Connection {
  constructor(readonly url: string) {}
  async send(text: string): Promise<string> {
    return \`\${this.url}: \${text}\`;
  }
}

async function connect(): Promise<Connection> {
  return new Connection('https://example.test');
}

export const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.registerTool('send', { description: 'Send a note', inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  const connection = await connect();
  if (text.length === 0) {
    const first = await ctx.mcpReq.elicitInput({ message: 'Text?', requestedSchema: { type: 'object', properties: { text: { type: 'string' } } } });
    if (first.action !== 'accept') return { content: [{ type: 'text', text: 'cancelled' }] };
  }
  const second = await ctx.mcpReq.elicitInput({ message: 'Send?', requestedSchema: { type: 'object', properties: {} } });
  if (second.action !== 'accept') return { content: [{ type: 'text', text: 'kept' }] };
  return { content: [{ type: 'text', text: await connection.send(text) }] };
});
`;

/** A v2 server: one tool that elicits (migratable), and an oninitialized hook asking for roots (refused). */
const LEGACY_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  server.registerTool('t', { inputSchema: z.object({ x: z.string() }) }, async ({ x }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ message: x, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  server.server.oninitialized = async () => {
    const { roots } = await server.server.listRoots();
    console.log(roots.length);
  };
  return server;
}
`;

/** What the official v1-to-v2 codemod leaves: a block and a line marker. */
const OFFICIAL_MARKED = `import { McpServer } from '@modelcontextprotocol/server';
/* @mcp-codemod-error Unknown SDK import path: @modelcontextprotocol/sdk/experimental/tasks/interfaces.js. Manual migration required. */
import type { CreateTaskOptions } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';

export function make(server: McpServer, options: CreateTaskOptions): void {
  // @mcp-codemod-error 100% manual, see: the v2 guide
  server.registerTool('x', {}, async () => ({ content: [] }));
}
`;

/** Notes, and marker text that is not in a comment: none of it is a finding. */
const NOT_FINDINGS = `// @mrtr-note: sampling is deprecated in MCP 2026-07-28 (SEP-2577): prefer calling your LLM provider API directly from the server.
export const expected = \`
  // @mrtr-todo(closure): text in a string is not a marker
\`;
/** Mentions @mrtr-todo in prose, which is not a marker either. */
export const n = 1;
`;

/** A leftover marker whose site is gone, in a file whose name needs escaping. */
const LEFTOVER_MARKER = `export function later() {
  // @mrtr-todo(closure): the request is made inside a nested function, 100% of it. Next: inline it, then run again.
  return 1;
}
`;

const ODD_NAME = 'src/odd, name:1.ts';

// --- exit codes and text ------------------------------------------------------------------------

describe('mrtr-codemod check', () => {
  it('exits 0 on a clean tree, prints only the total, and writes nothing', async () => {
    const root = await tree({
      'src/util.ts': PLAIN_MODULE,
      'src/notes.ts': NOT_FINDINGS,
      'README.md': 'Run `grep -rn @mrtr-todo` to list markers (@mrtr-todo(closure): not source).\n',
    });
    const result = await check(root, '.');
    expect(result).toEqual({ code: 0, stdout: 'mrtr-codemod check: 0 findings in 0 files, 0 errors, 2 files checked\n', stderr: '' });
  });

  it('exits 1 on a legacy site and lists it (text)', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER, 'src/util.ts': PLAIN_MODULE });
    const result = await check(root, 'src');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      'src/server.ts:7:26  legacy-request  elicitation request still awaited from the client in tool:t; MCP 2026-07-28 removed server→client requests (`mrtr-codemod migrate src/server.ts` can rewrite it)',
      'src/server.ts:11:29  mrtr-todo/no-request-to-answer  this server→client request runs outside a tools/call, prompts/get or resources/read handler, and only those may answer input_required in MCP 2026-07-28. Next: ask from inside a tool, prompt or resource handler with inputRequired(...), or stop asking (take roots or other input as tool parameters). See https://www.npmjs.com/package/mrtr-codemod#mrtr-todo-no-request-to-answer',
      'mrtr-codemod check: 2 findings in 1 file (1 can be rewritten by `mrtr-codemod migrate`), 0 errors, 2 files checked',
      '',
    ]);
  });

  it('takes handlers and a helper written with a `this` parameter for migratable sites', async () => {
    const input = readFileSync(path.join(ROOT, 'fixtures/this-parameter-handlers/input.ts'), 'utf8');
    const root = await tree({ 'src/notes.ts': input });
    const result = await check(root, '--format', 'json', 'src');
    const report = JSON.parse(result.stdout) as CheckReport;
    // Line 26 carries `count`, typed `any` (the fixture declares no `world`): migrate marks it,
    // and so does check, which asks the checker where a site would migrate.
    expect(report.findings.map((f) => [f.line, f.ruleId])).toEqual([
      [26, 'mrtr-todo/untyped-local'],
      [43, 'legacy-request'],
      [49, 'legacy-request'],
    ]);
    expect(report.summary).toMatchObject({ findings: 3, fixable: 2, exitCode: 1 });
  });

  it('after migrate, a refused site still fails check, once (site and its marker are one finding)', async () => {
    const root = await tree({ 'src/server.ts': LEGACY_SERVER, 'src/tools/mixed.ts': MIXED_SERVER });
    const migrated = await cli(root, 'migrate', 'src');
    expect(migrated.code).toBe(1); // markers left, as check then says
    const server = await readFile(path.join(root, 'src/server.ts'), 'utf8');
    expect(server).toContain('// @mrtr-todo(no-request-to-answer):');
    expect(await readFile(path.join(root, 'src/tools/mixed.ts'), 'utf8')).toContain('// @mrtr-note: sampling is deprecated');

    const result = await check(root, '--format', 'json', 'src');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as CheckReport;
    const markerLine = server.split('\n').findIndex((line) => line.includes('@mrtr-todo(no-request-to-answer)')) + 1;
    expect(report.findings.map((f) => [f.file, f.line, f.ruleId, f.markerLine])).toEqual([
      ['src/server.ts', markerLine + 1, 'mrtr-todo/no-request-to-answer', markerLine],
      ['src/tools/mixed.ts', expect.any(Number), 'mrtr-todo/closure', expect.any(Number)],
    ]);
    // The marker is the short form; check gives the full reason and next step, and the docs.
    expect(server).not.toContain(' Next: ');
    expect(report.findings[0]).toMatchObject({
      message: expect.stringContaining('. Next: ask from inside a tool, prompt or resource handler'),
      docs: 'https://www.npmjs.com/package/mrtr-codemod#mrtr-todo-no-request-to-answer',
    });
    // The sampling sites were migrated: their @mrtr-note comments are not findings.
    expect(report.summary).toMatchObject({
      findings: 2,
      fixable: 0,
      errors: 0,
      byRule: { 'mrtr-todo/closure': 1, 'mrtr-todo/no-request-to-answer': 1 },
      exitCode: 1,
    });
  });

  it('before and after migrate, check says what migrate does with a local that is not JSON', async () => {
    const root = await tree({ 'src/server.ts': NOT_JSON_LOCAL_SERVER });
    // Where a site would migrate, check asks the checker what migrate asks: neither request is
    // called fixable, for the reasons migrate then writes.
    const before = JSON.parse((await check(root, '--format', 'json', 'src')).stdout) as CheckReport;
    expect(before.summary).toMatchObject({
      findings: 2,
      fixable: 0,
      byRule: { 'mrtr-todo/blocked-by-sibling': 1, 'mrtr-todo/unserialisable-local': 1 },
    });
    expect(before.findings[0]!.message).toContain('`connection` (line 18) lives across a question but is an instance of class Connection');
    const migrated = await cli(root, 'migrate', 'src');
    expect(migrated.stdout).toContain(
      'Work through the 2 findings `mrtr-codemod check src` will then report (1 mrtr-todo/blocked-by-sibling, 1 mrtr-todo/unserialisable-local)',
    );
    const text = await readFile(path.join(root, 'src/server.ts'), 'utf8');
    const lineOf = (needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;
    const result = await check(root, '--format', 'json', 'src');
    const report = JSON.parse(result.stdout) as CheckReport;
    // Each site is one finding with the marker migrate wrote above it, under the marker's code,
    // not a marker plus a request the lint would call fixable.
    expect(report.findings.map((f) => [f.line, f.ruleId, f.markerLine])).toEqual([
      [lineOf("message: 'Text?'"), 'mrtr-todo/unserialisable-local', lineOf('@mrtr-todo(unserialisable-local)')],
      [lineOf("message: 'Send?'"), 'mrtr-todo/blocked-by-sibling', lineOf('@mrtr-todo(blocked-by-sibling)')],
    ]);
    // The same full reason as before the run; the marker holds its short form.
    expect(report.findings[0]!.message).toBe(before.findings[0]!.message);
    expect(text).toContain('`connection` (line 18) is not JSON');
    expect(report.summary).toMatchObject({
      findings: 2,
      fixable: 0,
      byRule: { 'mrtr-todo/blocked-by-sibling': 1, 'mrtr-todo/unserialisable-local': 1 },
    });
  });

  it('with --no-types, says what migrate --no-types does: an unannotated local that travels is untyped-local', async () => {
    const root = await tree({ 'src/server.ts': NOT_JSON_LOCAL_SERVER });
    const report = JSON.parse((await check(root, '--no-types', '--format', 'json', 'src')).stdout) as CheckReport;
    const dry = await cli(root, 'migrate', '--dry-run', '--no-types', '--json', 'src');
    const { markers, sites } = JSON.parse(dry.stdout) as { markers: Array<{ line: number; code: string }>; sites: { migrated: number } };
    expect(sites.migrated).toBe(0);
    expect(report.findings.map((f) => [f.line, f.ruleId])).toEqual(markers.map((site) => [site.line, `mrtr-todo/${site.code}`]));
    expect(report.findings.map((f) => f.ruleId)).toEqual(['mrtr-todo/untyped-local', 'mrtr-todo/blocked-by-sibling']);
    // Without the flag, the checker's answer: a class instance, not JSON.
    const typed = JSON.parse((await check(root, '--format', 'json', 'src')).stdout) as CheckReport;
    expect(typed.findings.map((f) => f.ruleId)).toEqual(['mrtr-todo/unserialisable-local', 'mrtr-todo/blocked-by-sibling']);
  });

  it('a helper kept whole because its one caller keeps a local that is not JSON: the markers name the local', async () => {
    const root = await tree({ 'src/server.ts': NOT_JSON_HELPER_SERVER });
    const migrated = await cli(root, 'migrate', 'src');
    expect(migrated.stdout).toContain(
      'Work through the 3 findings `mrtr-codemod check src` will then report (1 mrtr-todo/blocked-by-sibling, 1 mrtr-todo/in-helper, 1 mrtr-todo/unserialisable-local)',
    );
    const text = await readFile(path.join(root, 'src/server.ts'), 'utf8');
    // confirm() could be split: the handler is what fails, so no via-helper marker sends the
    // reader to rewrite the helper, and the sibling's marker points at a marker that is there.
    expect(text.split('\n').flatMap((line, i) => (line.includes('@mrtr-todo') ? [`${i + 1}: ${line.trim()}`] : []))).toEqual([
      '16: // @mrtr-todo(in-helper): `confirm()` asks here, and tool:send calling it could not be migrated — see the marker there',
      '25: // @mrtr-todo(unserialisable-local): `connection` (line 24) is not JSON — --idempotent connect if safe to rerun, to make it again',
      '28: // @mrtr-todo(blocked-by-sibling): left whole: `confirm(…)` (line 26) is refused (unserialisable-local) — fix that first (its marker)',
    ]);
    const report = JSON.parse((await check(root, '--format', 'json', 'src')).stdout) as CheckReport;
    expect(report.summary).toMatchObject({
      findings: 3,
      fixable: 0,
      byRule: { 'mrtr-todo/blocked-by-sibling': 1, 'mrtr-todo/in-helper': 1, 'mrtr-todo/unserialisable-local': 1 },
    });
  });

  it('a file whose server is built elsewhere: the server-elsewhere marker is one finding, before and after migrate', async () => {
    const source = `import type { McpServer } from '@modelcontextprotocol/server';

export function registerTools(server: McpServer): void {
  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`;
    const root = await tree({ 'src/tools.ts': source });
    const before = JSON.parse((await check(root, '--format', 'json', '.')).stdout) as CheckReport;
    expect(before.findings.map((f) => [f.line, f.ruleId, f.markerLine])).toEqual([
      [1, 'mrtr-todo/server-elsewhere', undefined],
      [5, 'legacy-request', undefined],
    ]);
    expect((await cli(root, 'migrate', '.')).code).toBe(1);
    const after = await check(root, '--format', 'json', '.');
    expect(after.code).toBe(1);
    const migrated = (await readFile(path.join(root, 'src/tools.ts'), 'utf8')).split('\n');
    const line = migrated.findIndex((l) => l.includes('@mrtr-todo(server-elsewhere)')) + 1;
    expect((JSON.parse(after.stdout) as CheckReport).findings.map((f) => [f.line, f.column, f.ruleId, f.markerLine])).toEqual([
      [line, 4, 'mrtr-todo/server-elsewhere', line],
    ]);
  });

  it('a carried local that looks like a secret is a finding before migrate, and its marker after, until removed', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';

declare function setting(name: string): string;

export const server = new McpServer({ name: 's', version: '1' });
server.registerTool('go', { description: 'Ask first' }, async (ctx) => {
  const dbUrl = setting('DATABASE_URL');
  const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action + dbUrl.length }] };
});
`;
    const root = await tree({ 'src/server.ts': source });
    const before = JSON.parse((await check(root, '--format', 'json', '.')).stdout) as CheckReport;
    expect(before.findings.map((f) => [f.line, f.ruleId])).toEqual([
      [8, 'legacy-request'],
      [8, 'mrtr-todo/secret-in-state'],
    ]);
    expect(before.findings[1]!.message).toContain('`dbUrl` (its name) looks like a secret');
    const migrated = await cli(root, 'migrate', '.');
    expect(migrated.code).toBe(1); // migrated, with a marker left for a person
    expect(migrated.stdout).toContain('secret-in-state');
    const text = await readFile(path.join(root, 'src/server.ts'), 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes('@mrtr-todo(secret-in-state)')) + 1;
    expect(text).toContain("return mrtr.ask('answer', { dbUrl }, {");
    const after = JSON.parse((await check(root, '--format', 'json', '.')).stdout) as CheckReport;
    expect(after.findings.map((f) => [f.line, f.ruleId, f.markerLine])).toEqual([[line, 'mrtr-todo/secret-in-state', line]]);
    // Not a secret after all: deleting the comment is the whole fix.
    await writeFile(
      path.join(root, 'src/server.ts'),
      text
        .split('\n')
        .filter((_l, i) => i !== line - 1)
        .join('\n'),
    );
    expect((await check(root, '.')).code).toBe(0);
  });

  it('an @mcp-codemod-error comment fails check; an @mrtr-note does not', async () => {
    const root = await tree({ 'src/official.ts': OFFICIAL_MARKED, 'src/notes.ts': NOT_FINDINGS });
    const result = await check(root, 'src');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'src/official.ts:2:4  mcp-codemod-error  Unknown SDK import path: @modelcontextprotocol/sdk/experimental/tasks/interfaces.js. Manual migration required.',
        'src/official.ts:6:6  mcp-codemod-error  100% manual, see: the v2 guide',
        'mrtr-codemod check: 2 findings in 1 file, 0 errors, 2 files checked',
        '',
      ].join('\n'),
    );
    const notesOnly = await check(root, 'src/notes.ts');
    expect(notesOnly.code).toBe(0);
  });

  it('exits 2 on unparsable or unreadable input, still listing what it could check', async () => {
    const root = await tree({
      'src/broken.ts': BROKEN_SERVER,
      'src/binary.ts': Buffer.from([0x65, 0x78, 0x00, 0x70]),
      'src/latin1.ts': Buffer.from('export const caf\xe9 = 1; // @mrtr-todo(closure): x\n', 'latin1'),
      'src/marker-broken.ts': '// @mrtr-todo(closure): left for later. Next: fix it.\nexport const x = (;\n',
      'src/server.ts': LEGACY_SERVER,
    });
    const result = await check(root, 'src', 'missing-dir');
    expect(result.code).toBe(2);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(
      'src/marker-broken.ts:1:4  mrtr-todo/closure  left for later. Next: fix it. See https://www.npmjs.com/package/mrtr-codemod#mrtr-todo-closure',
    );
    expect(lines.filter((l) => l.startsWith('src/server.ts:'))).toHaveLength(2);
    expect(lines).toContainEqual(expect.stringMatching(/^src\/broken\.ts:3:\d+ {2}parse-error {2}cannot parse: /));
    expect(lines).toContainEqual(expect.stringMatching(/^src\/marker-broken\.ts:2:\d+ {2}parse-error {2}cannot parse: /));
    expect(lines).toContain('src/binary.ts  read-error  binary file (contains NUL bytes); skipped');
    expect(lines).toContain('src/latin1.ts  read-error  not valid UTF-8; skipped (convert the file to UTF-8 to migrate it)');
    expect(lines).toContain('missing-dir  discover-error  no such file or directory');
    expect(lines.at(-2)).toBe('mrtr-codemod check: 3 findings in 2 files (1 can be rewritten by `mrtr-codemod migrate`), 5 errors, 5 files checked');

    // The machine formats keep stdout one document and say on stderr what failed.
    const json = await check(root, '--format', 'json', 'src', 'missing-dir');
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as CheckReport;
    expect(report.errors.map((e) => [e.file, e.stage])).toEqual([
      ['missing-dir', 'discover'],
      ['src/binary.ts', 'read'],
      ['src/broken.ts', 'parse'],
      ['src/latin1.ts', 'read'],
      ['src/marker-broken.ts', 'parse'],
    ]);
    expect(json.stderr.trim().split('\n')).toHaveLength(5);
  });

  it('exits 2 on usage errors', async () => {
    const root = await tree({ 'src/util.ts': PLAIN_MODULE });
    expect((await check(root)).code).toBe(2);
    const badFormat = await check(root, '--format', 'xml', 'src');
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toBe(
      "mrtr-codemod: --format xml is not one of the choices: text, json, sarif, github\nRun 'mrtr-codemod check --help' for the options.\n",
    );
    expect((await check(root, '--no-such-option', 'src')).code).toBe(2);
  });
});

// --- formats ------------------------------------------------------------------------------------

describe('check formats on one tree', () => {
  let root: string;
  const outputs: Record<string, CliRun> = {};

  beforeAll(async () => {
    root = await tree({
      'src/server.ts': LEGACY_SERVER,
      'src/official.ts': OFFICIAL_MARKED,
      [ODD_NAME]: LEFTOVER_MARKER,
      'src/notes.ts': NOT_FINDINGS,
    });
    const before = await snapshot(root);
    await Promise.all(
      ['text', 'json', 'sarif', 'github'].map(async (format) => {
        outputs[format] = await cli(root, 'check', '--format', format, '.');
      }),
    );
    expect(await snapshot(root)).toEqual(before);
  });

  const expected = [
    {
      file: ODD_NAME,
      line: 2,
      column: 6,
      ruleId: 'mrtr-todo/closure',
      message: 'the request is made inside a nested function, 100% of it. Next: inline it, then run again.',
    },
    {
      file: 'src/official.ts',
      line: 2,
      column: 4,
      ruleId: 'mcp-codemod-error',
      message: 'Unknown SDK import path: @modelcontextprotocol/sdk/experimental/tasks/interfaces.js. Manual migration required.',
    },
    { file: 'src/official.ts', line: 6, column: 6, ruleId: 'mcp-codemod-error', message: '100% manual, see: the v2 guide' },
    {
      file: 'src/server.ts',
      line: 7,
      column: 26,
      ruleId: 'legacy-request',
      message: 'elicitation request still awaited from the client in tool:t; MCP 2026-07-28 removed server→client requests',
    },
    {
      file: 'src/server.ts',
      line: 11,
      column: 29,
      ruleId: 'mrtr-todo/no-request-to-answer',
      message: expect.stringMatching(/^this server→client request runs outside .* Next: ask from inside/),
    },
  ];

  it('every format exits 1 and prints nothing on stderr', () => {
    for (const format of ['text', 'json', 'sarif', 'github']) expect([format, outputs[format]!.code, outputs[format]!.stderr]).toEqual([format, 1, '']);
  });

  it('json: a stable documented object that says what text says', () => {
    const report = JSON.parse(outputs.json!.stdout) as CheckReport;
    expect(Object.keys(report)).toEqual(['version', 'findings', 'errors', 'skipped', 'summary']);
    expect(report.version).toBe(1);
    expect(report.findings).toMatchObject(expected);
    expect(report.findings.every((f) => f.severity === 'error')).toBe(true);
    expect(report.findings[3]).toEqual({
      file: 'src/server.ts',
      line: 7,
      column: 26,
      ruleId: 'legacy-request',
      severity: 'error',
      message: 'elicitation request still awaited from the client in tool:t; MCP 2026-07-28 removed server→client requests',
      hint: '`mrtr-codemod migrate src/server.ts` can rewrite it',
      kind: 'elicit',
      handler: 'tool:t',
    });
    expect(report.errors).toEqual([]);
    expect(report.summary).toEqual({
      filesScanned: 4,
      filesWithFindings: 3,
      findings: 5,
      fixable: 1,
      errors: 0,
      skipped: 0,
      byRule: { 'legacy-request': 1, 'mcp-codemod-error': 2, 'mrtr-todo/closure': 1, 'mrtr-todo/no-request-to-answer': 1 },
      exitCode: 1,
    });
    // text: the same findings, one line each, in the same order.
    const textLines = outputs.text!.stdout.trimEnd().split('\n');
    expect(textLines.slice(0, -1).map((l) => l.split('  ').slice(0, 2))).toEqual(report.findings.map((f) => [`${f.file}:${f.line}:${f.column}`, f.ruleId]));
    expect(textLines.at(-1)).toBe('mrtr-codemod check: 5 findings in 3 files (1 can be rewritten by `mrtr-codemod migrate`), 0 errors, 4 files checked');
  });

  it('sarif: valid against the official SARIF 2.1.0 schema, with rules, levels and relative locations', () => {
    const log = JSON.parse(outputs.sarif!.stdout) as SarifLog;
    expectValidSarif(log);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('mrtr-codemod');
    expect(run.tool.driver.version).toBe(packageVersion());
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['legacy-request', 'mcp-codemod-error', 'mrtr-todo/closure', 'mrtr-todo/no-request-to-answer']);
    for (const rule of run.tool.driver.rules) {
      expect(rule.shortDescription.text).not.toBe('');
      expect(rule.help.text).not.toBe('');
    }
    expect(run.invocations[0]).toEqual({ executionSuccessful: true, exitCode: 1 });
    expect(run.results.map((r) => [r.ruleId, run.tool.driver.rules[r.ruleIndex]!.id, r.level])).toEqual(expected.map((e) => [e.ruleId, e.ruleId, 'error']));
    expect(run.results.map((r) => r.locations[0]!.physicalLocation)).toEqual(
      expected.map((e) => ({
        artifactLocation: { uri: e.file === ODD_NAME ? 'src/odd,%20name%3A1.ts' : e.file, uriBaseId: '%SRCROOT%' },
        region: { startLine: e.line, startColumn: e.column },
      })),
    );
    expect(run.results[3]!.message.text).toBe(
      'elicitation request still awaited from the client in tool:t; MCP 2026-07-28 removed server→client requests (`mrtr-codemod migrate src/server.ts` can rewrite it)',
    );
  });

  it('github: one well-formed ::error command per finding, properties and data escaped', () => {
    const lines = outputs.github!.stdout.trimEnd().split('\n');
    const commands = lines.filter((l) => l.startsWith('::'));
    expect(commands).toHaveLength(expected.length);
    expect(lines.slice(expected.length)).toEqual([
      'mrtr-codemod check: 5 findings in 3 files (1 can be rewritten by `mrtr-codemod migrate`), 0 errors, 4 files checked',
    ]);
    const wellFormed = /^::error file=([^,:\r\n]*),line=(\d+),col=(\d+),title=([^,:\r\n]*)::([^\r\n]*)$/;
    commands.forEach((line, i) => {
      const m = wellFormed.exec(line);
      expect(m, line).not.toBeNull();
      const unescape = (s: string) => s.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
      // Every % in the data is an escape: no bare % is left.
      expect(m![5]!.replace(/%(25|0D|0A)/g, '')).not.toContain('%');
      expect(unescape(m![1]!)).toBe(expected[i]!.file);
      expect([Number(m![2]), Number(m![3])]).toEqual([expected[i]!.line, expected[i]!.column]);
      expect(unescape(m![4]!)).toBe(`mrtr-codemod ${expected[i]!.ruleId}`);
    });
    expect(commands[0]).toBe(
      '::error file=src/odd%2C name%3A1.ts,line=2,col=6,title=mrtr-codemod mrtr-todo/closure::the request is made inside a nested function, 100%25 of it. Next: inline it, then run again.',
    );
  });
});

// --- units: markers, escaping, SARIF with errors --------------------------------------------------

describe('check building blocks', () => {
  it("a handler's marker speaks for its later sites, under its own code (one marker per handler and reason)", async () => {
    const text = [
      "server.registerTool('sync', {}, async (ctx) => {",
      '  const connection = await openConnection();',
      '  // @mrtr-todo(untyped-local): `connection` (line 2) may not be JSON (and 1 more below) — --idempotent openConnection if safe to rerun',
      "  const project = await pickProject(ctx, connection, 'Project?');",
      "  const team = await pickTeam(ctx, connection, 'Team?');",
      '  return { content: [] };',
      '});',
      "server.registerTool('plain', {}, async (ctx) => {",
      "  const team = await pickTeam(ctx, undefined, 'Team?');",
      '  return { content: [] };',
      '});',
      '',
    ].join('\n');
    const site = (line: number, handler: string): RunSite => ({
      file: 'src/tools.ts',
      line,
      column: 23,
      kind: 'elicit',
      handler,
      status: 'marked',
      code: 'via-helper',
      reason: 'this handler reaches a server→client request through a helper',
    });
    const scan = await scanSource(text, 'src/tools.ts');
    // A lint sees via-helper where migrate, with the types, saw a local that may not be JSON.
    const findings = findingsForFile('src/tools.ts', [site(4, 'tool:sync'), site(5, 'tool:sync'), site(9, 'tool:plain')], scan);
    expect(findings.map((f) => [f.line, f.ruleId, f.markerLine])).toEqual([
      [4, 'mrtr-todo/untyped-local', 3],
      [5, 'mrtr-todo/untyped-local', 3],
      [9, 'mrtr-todo/via-helper', undefined],
    ]);
    expect(findings[1]!.message).toContain('`connection` (line 2) may not be JSON');
  });

  it("scans a file from the run's analysis: every marker line, and each site's statement just below its marker", () => {
    let sites = 0;
    for (const name of ['handler-by-name/output.ts', 'helper-chain-refused/output.ts', 'javascript-server/output.mjs']) {
      const file = path.join(ROOT, 'fixtures', name);
      const text = readFileSync(file, 'utf8');
      // Found apart from the parser: the lines that are a `// @mrtr-todo(code)` comment.
      const expected = text.split('\n').flatMap((line, i) => {
        const m = /^\s*\/\/ @mrtr-todo\(([a-z-]+)\)/.exec(line);
        return m ? [{ line: i + 1, code: m[1]! }] : [];
      });
      const analysis = analyseFile(text, file);
      const scan = scanAnalysis(analysis);
      expect(expected.length).toBeGreaterThan(0);
      expect(scan.markers.map((m) => ({ line: m.line, code: m.code }))).toEqual(expected);
      // What is left of the legacy surface in an output is marked: the marker sits on the line
      // above the statement that holds the call.
      const markerLines = new Set(expected.map((m) => m.line));
      for (const site of analysis.sites) {
        const { line, column } = site.call.loc!.start;
        expect(markerLines.has(scan.statementLine(line, column + 1)! - 1)).toBe(true);
        sites++;
      }
    }
    expect(sites).toBeGreaterThan(0);
  });

  it('reads markers at the start of comment lines only, including JSDoc-style block comments', () => {
    const block = {
      type: 'CommentBlock' as const,
      value: '*\n * Some text @mrtr-todo(x) in prose.\n * @mcp-codemod-error Manual migration\n *   required here.\n ',
      loc: { start: { line: 10, column: 2 } },
    };
    expect(markersInComment(block as never)).toEqual([{ kind: 'official', line: 12, column: 4, reason: 'Manual migration required here.' }]);
    const line = { type: 'CommentLine' as const, value: ' @mrtr-todo(nested-site): inside an if. Next: move it out.', loc: { start: { line: 3, column: 4 } } };
    expect(markersInComment(line as never)).toEqual([{ kind: 'todo', line: 3, column: 8, code: 'nested-site', reason: 'inside an if.', next: 'move it out.' }]);
    const note = { type: 'CommentLine' as const, value: ' @mrtr-note: roots are deprecated', loc: { start: { line: 1, column: 0 } } };
    expect(markersInComment(note as never)).toEqual([]);
  });

  it('escapes workflow-command data and properties as @actions/core does', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('a,b:c%d\ne')).toBe('a%2Cb%3Ac%25d%0Ae');
  });

  it('encodes file paths as relative URI references', () => {
    expect(fileUri('src/a b/c#d?.ts')).toBe('src/a%20b/c%23d%3F.ts');
    expect(fileUri('x:y/é.ts')).toBe('x%3Ay/%C3%A9.ts');
  });

  it('knows its own reports in every format (what --output-file may overwrite), and nothing else', () => {
    const reports = [
      buildCheckReport([], [], 0),
      buildCheckReport(
        [{ file: 'a.ts', line: 1, column: 1, ruleId: 'legacy-request', severity: 'error', message: 'm', hint: 'h' }],
        [{ file: 'missing', stage: 'discover', message: 'no such file or directory' }],
        2,
        [{ file: 'src/vendor', reason: 'vendored code; name the folder to take it' }],
      ),
    ];
    for (const report of reports) {
      for (const format of CHECK_FORMATS) expect(isCheckReport(formatCheckReport(report, format)), format).toBe(true);
    }
    expect(isCheckReport('')).toBe(true); // an empty file holds nothing to lose
    for (const other of [
      'my notes\n',
      '{"version": 1}\n',
      '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "eslint"}}}]}',
      '{ not json',
      '[]',
      'mrtr-codemod check: 1 finding in 1 file, 0 errors, 1 file checked\nand a line after it\n',
    ]) {
      expect(isCheckReport(other), other).toBe(false);
    }
  });

  it('a SARIF log with unreadable inputs and no findings is valid too', () => {
    const report = buildCheckReport(
      [],
      [
        { file: 'missing', stage: 'discover', message: 'no such file or directory' },
        { file: 'src/broken.ts', stage: 'parse', message: 'cannot parse: Unexpected token', line: 3, column: 24 },
      ],
      1,
    );
    const log = sarifLog(report, { version: '1.2.3' }) as unknown as SarifLog;
    expectValidSarif(log);
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 2 });
  });

  it('a SARIF log with a file too large to analyse and folders passed over is valid: a result, and notes', () => {
    const report = buildCheckReport(
      [
        {
          file: 'web/bundle.js',
          line: 1,
          column: 1,
          ruleId: 'not-analysed',
          severity: 'error',
          message: 'too large to analyse (1.2 MiB, the limit is 1.0 MiB)',
        },
      ],
      [],
      2,
      [
        { file: 'src/vendor', reason: 'vendored code; name the folder to take it', legacyRequests: 2 },
        { file: 'src/app.min.js', reason: 'minified code; name the file to take it' },
      ],
    );
    const log = sarifLog(report, { version: '1.2.3' }) as unknown as SarifLog;
    expectValidSarif(log);
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toEqual(['not-analysed']);
    expect(log.runs[0]!.invocations[0]).toMatchObject({
      executionSuccessful: true,
      exitCode: 1,
      toolExecutionNotifications: [
        { level: 'note', message: { text: 'src/app.min.js: skipped: minified code; name the file to take it' } },
        {
          level: 'note',
          message: { text: 'src/vendor: skipped: vendored code; name the folder to take it (2 legacy requests in it)' },
          properties: { legacyRequests: 2 },
        },
      ],
    });
  });

  it('the schema check is not vacuous: broken logs are refused', () => {
    const good = sarifLog(buildCheckReport([{ file: 'a.ts', line: 1, column: 1, ruleId: 'legacy-request', severity: 'error', message: 'm' }], [], 1), {
      version: '1.0.0',
    });
    expectValidSarif(good);
    const broken = (mutate: (log: SarifLog) => void) => {
      const copy = structuredClone(good) as unknown as SarifLog;
      mutate(copy);
      return copy;
    };
    for (const bad of [
      broken((log) => ((log.runs[0]!.results[0]! as { level: string }).level = 'fatal')),
      broken((log) => ((log.runs[0]!.results[0]!.locations[0]!.physicalLocation as { region: unknown }).region = { startLine: 0 })),
      broken((log) => ((log.runs[0]!.tool.driver as { name?: string }).name = undefined)),
      broken((log) => ((log.runs[0]!.results[0]! as { message: unknown }).message = {})),
      broken((log) => ((log.runs[0]!.results[0]!.locations[0]!.physicalLocation as { artifactLocation: unknown }).artifactLocation = { uri: 'a b.ts' })),
    ]) {
      expect(validator!(JSON.parse(JSON.stringify(bad)))).toBe(false);
    }
  });
});

// --- SARIF schema -------------------------------------------------------------------------------

interface SarifLog {
  runs: Array<{
    tool: { driver: { name: string; version: string; rules: Array<{ id: string; shortDescription: { text: string }; help: { text: string } }> } };
    invocations: Array<Record<string, unknown>>;
    results: Array<{
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: Array<{ physicalLocation: Record<string, unknown> }>;
    }>;
  }>;
}

let validator: (((data: unknown) => boolean) & { errors?: unknown }) | undefined;

function expectValidSarif(log: unknown): void {
  if (!validator) {
    // The official file declares draft 2020-12, is not valid against its own meta-schema, and
    // writes case-insensitivity as a leading `(?i)` (see test/schemas/README.md).
    const regExp = Object.assign(
      (pattern: string, flags: string) => (pattern.startsWith('^(?i)') ? new RegExp(`^${pattern.slice(5)}`, `${flags}i`) : new RegExp(pattern, flags)),
      { code: 'sarifRegExp' },
    );
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, code: { regExp } });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readSchema()));
  }
  const valid = validator(log);
  expect(validator.errors ?? [], 'SARIF schema errors').toEqual([]);
  expect(valid).toBe(true);
}

function readSchema(): string {
  return readFileSync(SCHEMA, 'utf8');
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string }).version;
}
