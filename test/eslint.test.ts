// The ESLint plugin (src/eslint, `mrtr-codemod/eslint`) under real ESLint 9 with a flat config,
// in a temporary project, against `mrtr-codemod check --format json` on the same files: the
// same findings (file, line, column, rule, message), the same files it could not check, and
// each rule documented where its link points; and the recommended config alone on TypeScript,
// with the project's own typescript-eslint setup or with none. (The packed tarball's plugin,
// loaded from an eslint.config.mjs in a CommonJS project, is run by test/package.test.ts.)
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin, { eslintRuleName } from '../src/eslint/index.ts';
import { docsAnchor, messageWithHint, type CheckReport } from '../src/report/formats/check-report.ts';
import { ELICIT_SERVER } from './engine-samples.ts';
import { cli } from './support/cli.ts';
import { FIXTURES } from './support/fixtures.ts';
import { putFile } from './support/scratch.ts';

const PROJECT_TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));
const README = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

/** What the official v1-to-v2 codemod leaves, in JavaScript (ESLint's own parser reads it). */
const OFFICIAL_MARKED = `/* @mcp-codemod-error Unknown SDK import path: @modelcontextprotocol/sdk/experimental/tasks/interfaces.js. Manual migration required. */
import { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';

export function make(server) {
  // @mcp-codemod-error 100% manual, see: the v2 guide
  server.registerTool('x', {}, async () => ({ content: [] }));
  return new TaskStore();
}
`;

const CONFIRM_HELPER = `import type { ServerContext } from '@modelcontextprotocol/server';
export async function confirm(ctx: ServerContext, message: string): Promise<boolean> {
  const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}
`;

/** Its only tie to the legacy surface is the helper it imports (it does not pass the prefilter). */
const CALLS_HELPER = `import { McpServer } from '@modelcontextprotocol/server';
import { confirm as ask } from './confirm.js';

export function register(server: McpServer): void {
  server.registerTool('wipe', { description: 'Wipe after asking' }, async (ctx) => {
    if (!(await ask(ctx, 'Wipe?'))) return { content: [] };
    return { content: [{ type: 'text', text: 'wiped' }] };
  });
}
`;

/** A handler that keeps a class instance across its question: migrate refuses it, with the checker's word. */
const NOT_JSON_LOCAL = `import { McpServer } from '@modelcontextprotocol/server';

class Connection {
  send(text: string): string {
    return text;
  }
}

export function register(server: McpServer): void {
  server.registerTool('send', { description: 'Send after asking' }, async (ctx) => {
    const connection = new Map<string, Connection>().get('main') ?? new Connection();
    const answer = await ctx.mcpReq.elicitInput({ message: 'Send?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: connection.send(answer.action) }] };
  });
}
`;

const CLEAN = `export function total(items: ReadonlyArray<{ price: number }>): number {
  return items.reduce((sum, item) => sum + item.price, 0);
}
`;

/** A candidate over check's size limit: check reports it as not analysed. */
const TOO_LARGE = `// reads ctx.mcpReq.elicitInput results from a log\n${'// padding padding padding padding padding padding padding padding\n'.repeat(17_000)}export const x = 1;\n`;

interface Reported {
  file: string;
  line: number;
  column: number;
  ruleId: string;
  message: string;
}

let dir: string;
let eslintResults: ESLint.LintResult[];
let report: CheckReport;

/** The recommended config as it is (its TypeScript files parsed by the project's typescript-eslint parser, which resolves here). */
async function lint(extra: Linter.Config[] = []): Promise<ESLint.LintResult[]> {
  return lintIn(dir, [plugin.configs.recommended, ...extra]);
}

function lintIn(cwd: string, config: Linter.Config[]): Promise<ESLint.LintResult[]> {
  return new ESLint({ cwd, overrideConfigFile: true, overrideConfig: config }).lintFiles(['.']);
}

function reported(results: readonly ESLint.LintResult[], root = dir): Reported[] {
  return results
    .flatMap((r) =>
      r.messages.map((m) => ({
        file: path.relative(root, r.filePath).split(path.sep).join('/'),
        line: m.line,
        column: m.column,
        ruleId: m.ruleId ?? '(fatal)',
        message: m.message,
      })),
    )
    .sort(byPlace);
}

function byPlace(a: Reported, b: Reported): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId);
}

beforeAll(async () => {
  // Inside the project, so the servers' imports resolve (the checker is asked about a look-alike's receiver).
  await mkdir(PROJECT_TMP, { recursive: true });
  dir = await mkdtemp(path.join(PROJECT_TMP, 'eslint-'));
  const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
  await putFile(dir, '_support/world.ts', fixture('_support/world.ts'));
  await putFile(dir, 'legacy/server.ts', ELICIT_SERVER);
  await putFile(dir, 'legacy/server.mjs', fixture('javascript-server/input.mjs'));
  await putFile(dir, 'todo/refused.ts', fixture('refused-sites/output.ts'));
  await putFile(dir, 'official/v1.js', OFFICIAL_MARKED);
  await putFile(dir, 'lookalike/input.ts', fixture('unrelated-look-alikes/input.ts'));
  await putFile(dir, 'helpers/confirm.ts', CONFIRM_HELPER);
  await putFile(dir, 'helpers/tools.ts', CALLS_HELPER);
  await putFile(dir, 'todo/connection.ts', NOT_JSON_LOCAL);
  await putFile(dir, 'clean/total.ts', CLEAN);
  await putFile(dir, 'big/huge.js', TOO_LARGE);
  // Passed over by check's walk (vendored, minified): linted by ESLint, reported by neither.
  await putFile(dir, 'vendor/sdk-copy.mjs', fixture('javascript-server/input.mjs'));
  await putFile(dir, 'public/app.min.js', OFFICIAL_MARKED);

  const checked = await cli(dir, 'check', '--format', 'json', '.');
  expect(checked.code, checked.stderr).toBe(1); // findings, and every file checked
  report = JSON.parse(checked.stdout) as CheckReport;
  eslintResults = await lint();
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the ESLint plugin under ESLint 9 (flat config)', () => {
  it('reports exactly what check reports: each finding at its place, under its rule, in its words', () => {
    const fromCheck: Reported[] = [
      ...report.findings.map((f) => ({
        file: f.file,
        line: f.line,
        column: f.column,
        ruleId: `mrtr-codemod/${eslintRuleName(f.ruleId)}`,
        message: messageWithHint(f),
      })),
      ...report.errors.map((e) => ({
        file: e.file,
        line: e.line ?? 1,
        column: e.column ?? 1,
        ruleId: 'mrtr-codemod/not-checked',
        message: `mrtr-codemod could not check this file: ${e.message}`,
      })),
    ].sort(byPlace);
    expect(reported(eslintResults)).toEqual(fromCheck);
  });

  it('covers every kind of finding: legacy requests (TypeScript and JavaScript), a local the checker finds is not JSON, @mrtr-todo and @mcp-codemod-error markers, a helper of another module, a file too large to analyse; a clean file, vendored and minified code have none', () => {
    const byFile = new Map<string, string[]>();
    for (const r of reported(eslintResults)) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r.ruleId]);
    expect(byFile.get('legacy/server.ts')).toEqual(['mrtr-codemod/legacy-request']);
    expect(byFile.get('legacy/server.mjs')!.length).toBeGreaterThan(0);
    expect(new Set(byFile.get('legacy/server.mjs'))).toEqual(new Set(['mrtr-codemod/legacy-request', 'mrtr-codemod/mrtr-todo-unserialisable-local']));
    expect(byFile.get('todo/refused.ts')!.filter((id) => id.startsWith('mrtr-codemod/mrtr-todo-')).length).toBeGreaterThanOrEqual(4);
    // A local that is not JSON: the checker says so where the site would migrate.
    expect(byFile.get('todo/connection.ts')).toEqual(['mrtr-codemod/mrtr-todo-unserialisable-local']);
    expect(byFile.get('official/v1.js')).toEqual(['mrtr-codemod/mcp-codemod-error', 'mrtr-codemod/mcp-codemod-error']);
    // The helper another module's handler calls is split: its request migrates, and the handler
    // asks through the halves (its server is built elsewhere).
    expect(byFile.get('helpers/tools.ts')).toEqual(['mrtr-codemod/mrtr-todo-server-elsewhere']);
    expect(byFile.get('helpers/confirm.ts')).toEqual(['mrtr-codemod/legacy-request']);
    expect(byFile.get('big/huge.js')).toEqual(['mrtr-codemod/not-analysed']);
    expect(byFile.has('clean/total.ts')).toBe(false);
    expect(byFile.has('vendor/sdk-copy.mjs')).toBe(false);
    expect(byFile.has('public/app.min.js')).toBe(false);
    expect(report.skipped?.map((s) => s.file).sort()).toEqual(['public/app.min.js', 'vendor']);
    // The look-alike fixture's real SDK request is reported; its LLM client's createMessage (the checker says so) is not.
    expect(byFile.get('lookalike/input.ts')).toEqual(
      report.findings.filter((f) => f.file === 'lookalike/input.ts').map((f) => `mrtr-codemod/${eslintRuleName(f.ruleId)}`),
    );
    // Nothing fatal: every file parsed under ESLint's parsers.
    expect(eslintResults.every((r) => r.fatalErrorCount === 0)).toBe(true);
  });

  it('turns one refusal off on its own', async () => {
    const quieter = await lint([{ rules: { 'mrtr-codemod/mrtr-todo-server-elsewhere': 'off' } }]);
    const all = reported(eslintResults);
    expect(reported(quieter)).toEqual(all.filter((r) => r.ruleId !== 'mrtr-codemod/mrtr-todo-server-elsewhere'));
    expect(all.some((r) => r.ruleId === 'mrtr-codemod/mrtr-todo-server-elsewhere')).toBe(true);
  });

  it("describes each rule from check's table and links to the README section that explains it", () => {
    // Explicit anchors, and the headings' own (as GitHub and npm make them).
    const headings = [...README.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    );
    const anchors = new Set([...[...README.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!), ...headings]);
    for (const [name, rule] of Object.entries(plugin.rules)) {
      const url = rule.meta!.docs!.url!;
      expect(url, name).toMatch(/^https:\/\/www\.npmjs\.com\/package\/mrtr-codemod#[a-z-]+$/);
      expect(anchors, `${name}: README anchor ${url}`).toContain(url.slice(url.indexOf('#') + 1));
      expect(rule.meta!.docs!.description, name).not.toBe('');
    }
    expect(plugin.rules['mrtr-todo-closure']!.meta!.docs!.url).toBe(`https://www.npmjs.com/package/mrtr-codemod#${docsAnchor('mrtr-todo/closure')}`);
    expect(plugin.configs.recommended.rules).toEqual(Object.fromEntries(Object.keys(plugin.rules).map((name) => [`mrtr-codemod/${name}`, 'error'])));
  });
});

/** A TypeScript server with what the project's own TypeScript rules report: an `any`, and a promise left floating. */
const TYPED_SERVER = `${ELICIT_SERVER}
export function loose(value: any): void {
  Promise.resolve(value);
}
`;

/** Rule ids reported in each file, in order. */
function rulesByFile(results: readonly ESLint.LintResult[], root: string): Record<string, string[]> {
  const byFile: Record<string, string[]> = {};
  for (const r of reported(results, root)) (byFile[r.file] ??= []).push(r.ruleId);
  return byFile;
}

describe('the recommended config alone lints TypeScript', () => {
  it('in a project with no TypeScript parser: each kind of TypeScript file, JSX, its eslint-disable comments, and no JavaScript rule misreading the types', async () => {
    // Away from this checkout's node_modules: no typescript-eslint resolves from here.
    const bare = await mkdtemp(path.join(os.tmpdir(), 'mrtr-eslint-bare-'));
    try {
      await putFile(bare, 'package.json', '{ "name": "bare", "version": "1.0.0" }\n');
      await putFile(bare, 'src/server.ts', ELICIT_SERVER);
      await putFile(bare, 'src/server.cts', ELICIT_SERVER);
      await putFile(bare, 'src/server.mts', ELICIT_SERVER);
      await putFile(bare, 'src/view.tsx', `${ELICIT_SERVER}export const view = <T,>(x: T) => <p>{String(x)}</p>;\n`);
      await putFile(bare, 'src/view.jsx', `${ELICIT_SERVER.replace(': McpServer', '')}export const view = (x) => <p>{String(x)}</p>;\n`);
      await putFile(
        bare,
        'src/quiet.ts',
        ELICIT_SERVER.replace('    const answer', '    // eslint-disable-next-line mrtr-codemod/legacy-request\n    const answer'),
      );
      const results = await lintIn(bare, [js.configs.recommended, plugin.configs.recommended]);
      expect(results.every((r) => r.fatalErrorCount === 0)).toBe(true);
      expect(rulesByFile(results, bare)).toEqual({
        'src/server.cts': ['mrtr-codemod/legacy-request'],
        'src/server.mts': ['mrtr-codemod/legacy-request'],
        'src/server.ts': ['mrtr-codemod/legacy-request'],
        'src/view.jsx': ['mrtr-codemod/legacy-request'],
        'src/view.tsx': ['mrtr-codemod/legacy-request'],
      });
      expect(results.map((r) => path.relative(bare, r.filePath)).sort()).toContain(path.join('src', 'quiet.ts'));
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });

  it("beside the project's typescript-eslint config, before or after it: the project's own rules still report, type-aware ones too", async () => {
    // Under this checkout, where typescript-eslint resolves.
    const typed = await mkdtemp(path.join(PROJECT_TMP, 'eslint-typed-'));
    try {
      await putFile(typed, 'server.ts', TYPED_SERVER);
      const both = ['mrtr-codemod/legacy-request', '@typescript-eslint/no-explicit-any'];
      const recommended = tseslint.configs.recommended as Linter.Config[];
      expect(rulesByFile(await lintIn(typed, [...recommended, plugin.configs.recommended]), typed)).toEqual({ 'server.ts': both });
      expect(rulesByFile(await lintIn(typed, [plugin.configs.recommended, ...recommended]), typed)).toEqual({ 'server.ts': both });
      // A rule that needs the program's types gets them through the parserOptions of the project's config.
      const typeAware: Linter.Config[] = [
        tseslint.configs.base as Linter.Config,
        {
          languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['*.ts'] }, tsconfigRootDir: typed } },
          rules: { '@typescript-eslint/no-floating-promises': 'error' },
        },
        plugin.configs.recommended,
      ];
      expect(rulesByFile(await lintIn(typed, typeAware), typed)).toEqual({
        'server.ts': ['mrtr-codemod/legacy-request', '@typescript-eslint/no-floating-promises'],
      });
    } finally {
      await rm(typed, { recursive: true, force: true });
    }
  });
});
