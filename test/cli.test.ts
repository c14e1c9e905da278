// The real entry (node bin/mrtr-codemod.js) on temporary copies of small legacy servers.
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROKEN_SERVER, ELICIT_SERVER, MIXED_SERVER, PLAIN_MODULE } from './engine-samples.ts';
import { stripAnsi } from '../src/report/color.ts';
import { cli, git, runCli } from './support/cli.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tree(files: Record<string, string>, root = dir): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** Content, mode and mtime of every file under `root`, to prove nothing was touched. */
async function snapshot(root: string): Promise<Record<string, { text: string; mode: number; mtimeMs: number }>> {
  const out: Record<string, { text: string; mode: number; mtimeMs: number }> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (path.relative(root, file).startsWith('.git')) continue;
    const info = await stat(file);
    out[path.relative(root, file)] = { text: await readFile(file, 'latin1'), mode: info.mode, mtimeMs: info.mtimeMs };
  }
  return out;
}

describe('mrtr-codemod migrate', () => {
  it('rewrites in place, prints the summary, and a second run changes nothing', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER, 'src/util.ts': PLAIN_MODULE });

    const first = await cli(dir, 'migrate', 'src');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      [
        'Files scanned: 2 (1 mention server→client requests)',
        'Files changed: 2',
        '  src/server.ts',
        '  src/mrtr-request-state.ts',
        'Request-state module:',
        '  src/mrtr-request-state.ts: new, the request-state helpers every migrated file imports',
        'Sites migrated: 1',
        'Markers left: 0',
        'Errors: 0',
        'migrated 1/1 handler',
        'Next steps:',
        '  1. Set MCP_REQUEST_STATE_KEY (at least 32 random bytes, the same on every instance that may receive a retry) where the server runs; without it each process signs with its own random key, which only works while one process serves every round of a call. Give several instances (or one that restarts while a flow is open) one round store too, or a round answered on one can be replayed on another: mrtrConfigure({ rounds: mrtrRedisRounds(redis) }) from the request-state module.',
        '  2. Run your formatter on the changed files: untouched code is kept byte for byte, new code is written in a plain style that does not know your line width.',
        '',
      ].join('\n'),
    );
    const migrated = await readFile(path.join(dir, 'src/server.ts'), 'utf8');
    expect(migrated).not.toContain('ctx.mcpReq.elicitInput(');
    expect(migrated).toContain("inputRequired.elicit({ message: 'Go?'");
    expect(migrated).toContain('{ requestState: { verify: mrtrVerify() } }');
    expect(migrated).toContain("import { mrtrResume, mrtrVerify } from './mrtr-request-state.js';");
    expect(await readFile(path.join(dir, 'src/mrtr-request-state.ts'), 'utf8')).toMatch(/^\/\/ @mrtr-generated request-state module, mrtr-codemod /);
    expect(await readFile(path.join(dir, 'src/util.ts'), 'utf8')).toBe(PLAIN_MODULE);

    const before = await snapshot(dir);
    const second = await cli(dir, 'migrate', 'src');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Files changed: 0\n');
    expect(second.stdout).toContain('Sites migrated: 0\n');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('--dry-run prints a patch git apply accepts, equal to what migrate writes, and touches nothing', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER, 'src/tools/mixed.ts': MIXED_SERVER, 'src/util.ts': PLAIN_MODULE });
    await chmod(path.join(dir, 'src/server.ts'), 0o640);
    await git(dir, 'init', '-q');
    const before = await snapshot(dir);

    const dry = await cli(dir, 'migrate', '--dry-run', '.');
    expect(dry.code).toBe(1); // the change would leave a marker in mixed.ts
    expect(await snapshot(dir)).toEqual(before);

    const cut = dry.stdout.indexOf('Files scanned:');
    const patch = dry.stdout.slice(0, cut);
    expect(patch.startsWith('--- a/src/server.ts\n+++ b/src/server.ts\n@@ ')).toBe(true);
    expect(patch).toContain('--- a/src/tools/mixed.ts\n+++ b/src/tools/mixed.ts\n');
    expect(patch).toContain('--- /dev/null\n+++ b/src/mrtr-request-state.ts\n');
    expect(dry.stdout.slice(cut)).toContain('Files to change: 3 (dry run: nothing written)\n');
    await writeFile(path.join(os.tmpdir(), `${path.basename(dir)}.patch`), patch);
    const patchFile = path.join(os.tmpdir(), `${path.basename(dir)}.patch`);
    try {
      await git(dir, 'apply', '--check', patchFile);
      // The whole stdout (summary included) is still an acceptable patch.
      await writeFile(patchFile, dry.stdout);
      await git(dir, 'apply', '--check', patchFile);

      // Applying the dry-run patch gives exactly what a real run writes.
      const copy = await mkdtemp(path.join(os.tmpdir(), 'mrtr-cli-copy-'));
      try {
        await cp(dir, copy, { recursive: true });
        await git(copy, 'apply', patchFile);
        // The tree is a fresh, uncommitted repository: writing needs --force.
        expect((await cli(dir, 'migrate', '--force', '.')).code).toBe(1);
        for (const file of ['src/server.ts', 'src/tools/mixed.ts', 'src/mrtr-request-state.ts']) {
          expect(await readFile(path.join(copy, file), 'utf8')).toBe(await readFile(path.join(dir, file), 'utf8'));
        }
      } finally {
        await rm(copy, { recursive: true, force: true });
      }
    } finally {
      await rm(patchFile, { force: true });
    }
  });

  it('reports a file that does not parse with its path and line, migrates the others, exits 2', async () => {
    await tree({ 'a/broken.ts': BROKEN_SERVER, 'a/good.ts': ELICIT_SERVER, 'z/good.mts': ELICIT_SERVER });

    const result = await cli(dir, 'migrate', 'a', 'z');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^Errors: 1\n {2}a\/broken\.ts:3:24 {2}cannot parse: Unexpected token/m);
    expect(result.stdout).toContain('Sites migrated: 2\n');
    expect(await readFile(path.join(dir, 'a/broken.ts'), 'utf8')).toBe(BROKEN_SERVER);
    expect(await readFile(path.join(dir, 'a/good.ts'), 'utf8')).toContain('inputRequired.elicit(');
    expect(await readFile(path.join(dir, 'z/good.mts'), 'utf8')).toContain('inputRequired.elicit(');
  });

  it('exits 2 for a path that does not exist, still processing the rest', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER });
    const result = await cli(dir, 'migrate', 'missing', 'src');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('  missing  no such file or directory\n');
    expect(await readFile(path.join(dir, 'src/server.ts'), 'utf8')).toContain('inputRequired.elicit(');
  });

  it('skips node_modules (and dist, build, .git)', async () => {
    await tree({
      'src/server.ts': ELICIT_SERVER,
      'node_modules/dep/server.ts': ELICIT_SERVER,
      'src/node_modules/dep/server.js': ELICIT_SERVER,
      'dist/server.js': ELICIT_SERVER,
      'build/server.js': ELICIT_SERVER,
    });
    const result = await cli(dir, 'migrate', '.');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Files scanned: 1 /);
    for (const skipped of ['node_modules/dep/server.ts', 'src/node_modules/dep/server.js', 'dist/server.js', 'build/server.js']) {
      expect(await readFile(path.join(dir, skipped), 'utf8')).toBe(ELICIT_SERVER);
    }
  });

  it('keeps file mode bits', async () => {
    await tree({ 'exec.ts': ELICIT_SERVER, 'private.ts': ELICIT_SERVER });
    await chmod(path.join(dir, 'exec.ts'), 0o755);
    await chmod(path.join(dir, 'private.ts'), 0o600);
    expect((await cli(dir, 'migrate', 'exec.ts', 'private.ts')).code).toBe(0);
    expect((await stat(path.join(dir, 'exec.ts'))).mode & 0o7777).toBe(0o755);
    expect((await stat(path.join(dir, 'private.ts'))).mode & 0o7777).toBe(0o600);
    // No temporary file left; the request-state module beside them is new.
    expect(await readdir(dir)).toEqual(['exec.ts', 'mrtr-request-state.ts', 'private.ts']);
  });

  it('summarises migrated sites, each marker with where, why and next, and each note once', async () => {
    await tree({ 'mixed.ts': MIXED_SERVER, 'other.ts': ELICIT_SERVER });
    const result = await cli(dir, 'migrate', '.');
    expect(result.code).toBe(1); // a marker is left for a person
    expect(result.stdout).toBe(
      [
        'Files scanned: 2 (2 mention server→client requests)',
        'Files changed: 3',
        '  mixed.ts',
        '  other.ts',
        '  mrtr-request-state.ts',
        'Request-state module:',
        '  mrtr-request-state.ts: new, the request-state helpers every migrated file imports',
        'Sites migrated: 3',
        'Markers left: 1',
        '  mixed.ts:6:29  closure  the request is made inside a function nested in the handler, which the handler cannot suspend.  ' +
          'Next: lift the request out of the nested function into the handler body, or migrate by hand: return inputRequired({ inputRequests, requestState }) and resume from ctx.mcpReq.requestState() on the retry.',
        'Errors: 0',
        'Notes:',
        '  sampling is deprecated in MCP 2026-07-28 (SEP-2577): prefer calling your LLM provider API directly from the server. (2 sites)',
        'migrated 3/4 handlers; 1 needs manual work: tool:later (mixed.ts:6, closure)',
        'Next steps:',
        '  1. Set MCP_REQUEST_STATE_KEY (at least 32 random bytes, the same on every instance that may receive a retry) where the server runs; without it each process signs with its own random key, which only works while one process serves every round of a call. Give several instances (or one that restarts while a flow is open) one round store too, or a round answered on one can be replayed on another: mrtrConfigure({ rounds: mrtrRedisRounds(redis) }) from the request-state module.',
        '  2. Run your formatter on the changed files: untouched code is kept byte for byte, new code is written in a plain style that does not know your line width.',
        '  3. Work through the 1 marker left (grep -rn @mrtr-todo), then run `mrtr-codemod check`.',
        '',
      ].join('\n'),
    );
    const mixed = await readFile(path.join(dir, 'mixed.ts'), 'utf8');
    expect(mixed).toContain('// @mrtr-todo(closure):');

    // The marker stays reported on the next run (further down, below the added import), and nothing changes.
    const again = await cli(dir, 'migrate', '.');
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('Files changed: 0\n');
    expect(again.stdout).toMatch(/^Markers left: 1\n {2}mixed\.ts:\d+:29 {2}closure /m);
  });
});

describe('mrtr-codemod migrate with type facts', () => {
  // Lifting a local needs its type from the checker, so this server must resolve the SDK:
  // it lives under the project's git-ignored .tmp/ rather than the system temp directory.
  const LIFTING_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const counted: string[] = [];

/** Counts a table's rows (and notes that it did: it runs once). */
function rowsIn(table: string) {
  counted.push(table);
  return table.length * 2;
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'tables', version: '1.0.0' });
  server.registerTool('wipe', { description: 'Wipe a table', inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    const count = rowsIn(table);
    const answer = await ctx.mcpReq.elicitInput({ message: 'Wipe?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
    return { content: [{ type: 'text', text: \`\${count} \${answer.action}\` }] };
  });
  return server;
}
`;

  /** A folder with the server, under this checkout's .tmp/ (so the SDK resolves), removed after `use`. */
  async function inProject(use: (root: string) => Promise<void>): Promise<void> {
    const projectTmp = fileURLToPath(new URL('../.tmp/', import.meta.url));
    await mkdir(projectTmp, { recursive: true });
    const root = await mkdtemp(path.join(projectTmp, 'cli-typed-'));
    try {
      await tree({ 'server.ts': LIFTING_SERVER }, root);
      await use(root);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }

  it('lifts a local with its checked type through the real entry', async () => {
    await inProject(async (root) => {
      const result = await cli(root, 'migrate', 'server.ts');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain('Sites migrated: 1\n');
      const migrated = await readFile(path.join(root, 'server.ts'), 'utf8');
      expect(migrated).toContain("return mrtr.ask('answer', { count }, {");
      expect(migrated).toContain('const { count } = mrtr.locals<{ count: number }>();');
    });
  });

  it('--no-types never starts the checker: the unannotated local is marked, not guessed', async () => {
    await inProject(async (root) => {
      const result = await cli(root, 'migrate', '--no-types', '--json', 'server.ts');
      // A marked site is not an error of the run, but is left for a person: exit 1, as check.
      expect(result).toMatchObject({ code: 1, stderr: '' });
      const summary = JSON.parse(result.stdout) as { sites: { migrated: number; marked: number }; markers: Array<{ code: string }> };
      expect(summary.sites).toMatchObject({ migrated: 0, marked: 1 });
      expect(summary.markers.map((m) => m.code)).toEqual(['untyped-local']);
      const marked = await readFile(path.join(root, 'server.ts'), 'utf8');
      expect(marked).toContain('// @mrtr-todo(untyped-local):');
      expect(marked).toContain('const answer = await ctx.mcpReq.elicitInput(');
    });
  });
});

describe('mrtr-codemod usage', () => {
  it('--help prints usage and exits 0', async () => {
    const top = await cli(dir, '--help');
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('mrtr-codemod migrate <paths..>');
    const sub = await cli(dir, 'migrate', '--help');
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--dry-run');
  });

  it('a usage error is one line and a pointer to the help (exit 2); a mistyped option is answered with the nearest', async () => {
    const usage = (message: string, help = 'mrtr-codemod migrate --help') => ({
      code: 2,
      stdout: '',
      stderr: `mrtr-codemod: ${message}\nRun '${help}' for the options.\n`,
    });
    expect(await cli(dir, 'migrate', '--dryrun', 'src')).toEqual(usage('unknown option --dryrun; did you mean --dry-run?'));
    expect(await cli(dir, 'migrate', 'src', '--exlcude=x')).toEqual(usage('unknown option --exlcude; did you mean --exclude?'));
    expect(await cli(dir, 'migrate', '--dry-run', '--no-tyeps', 'src')).toEqual(usage('unknown option --no-tyeps; did you mean --no-types?'));
    expect(await cli(dir, 'check', '--formt', 'json', 'src')).toEqual(usage('unknown option --formt; did you mean --format?', 'mrtr-codemod check --help'));
    expect(await cli(dir, 'check', '--include', 'x', '--exclude', 'y', '--frobnicate', '.')).toEqual(
      usage('unknown option --frobnicate', 'mrtr-codemod check --help'),
    );
    expect(await cli(dir)).toEqual(usage('name a command: migrate or check', 'mrtr-codemod --help'));
    expect(await cli(dir, 'convert', '.')).toEqual(usage('unknown command convert: the commands are migrate and check', 'mrtr-codemod --help'));
    expect(await cli(dir, 'migrate')).toEqual(usage('Not enough non-option arguments: got 0, need at least 1'));
    // yargs's own message for a value not among the choices has a line break: it is one line here, with no literal `\n`.
    expect(await cli(dir, 'check', '--format=xml', '.')).toEqual(
      usage('--format xml is not one of the choices: text, json, sarif, github', 'mrtr-codemod check --help'),
    );
    expect(await cli(dir, 'migrate', '--sampling', 'maybe', '.')).toEqual(usage('--sampling maybe is not one of the choices: migrate, flag'));
    // An option that takes a value, given none, is not taken for its default.
    expect(await cli(dir, 'check', '.', '--format')).toEqual(usage('Not enough arguments following: format', 'mrtr-codemod check --help'));
    expect(await cli(dir, 'check', '.', '-f')).toEqual(usage('Not enough arguments following: f', 'mrtr-codemod check --help'));
    expect(await cli(dir, 'migrate', '.', '--sampling')).toEqual(usage('Not enough arguments following: sampling'));
    // Known spellings yargs accepts are not taken for typos.
    await tree({ 'src/server.ts': ELICIT_SERVER });
    expect((await cli(dir, 'migrate', '--dryRun', '--no-v1', '--types=false', 'src')).code).toBe(0);
  });
});

describe('control characters from the repository never reach a terminal raw', () => {
  // A file name, a tool name and source text, each carrying an escape sequence that erases the
  // line (`ESC [2K`), a carriage return that rewrites it, and a bidirectional override.
  const ESC = '\u001b[2K';
  // (The carriage return is written as an escape in the tool name: a raw one would end the string.)
  const evilServer = MIXED_SERVER.replace("'later'", `'later${ESC}\\r\u202e'`);
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it('the summary, the check formats and every message escape them; a patch keeps the file exact', async () => {
    await tree({ [`src/evil${ESC}\r.ts`]: evilServer, [`src/broken${ESC}.ts`]: BROKEN_SERVER });

    const dry = await cli(dir, 'migrate', '--dry-run', 'src');
    const summary = dry.stdout.slice(dry.stdout.indexOf('Files scanned:'));
    expect(summary).not.toMatch(RAW);
    expect(dry.stderr).not.toMatch(RAW);
    expect(summary).toContain('  src/evil\\x1b[2K\\r.ts\n');
    expect(summary).toContain('  src/broken\\x1b[2K.ts:3:24  cannot parse');
    expect(summary).toContain('tool:later\\x1b[2K\\r\\u202e (src/evil\\x1b[2K\\r.ts:6, closure)');
    // The patch itself (stdout is a pipe) carries the code byte for byte.
    expect(dry.stdout.slice(0, dry.stdout.indexOf('Files scanned:'))).toContain(`registerTool('later${ESC}\\r\u202e'`);
    const json = await cli(dir, 'migrate', '--dry-run', '--json', 'src');
    expect(json.stdout).not.toMatch(RAW);
    // The same value, escaped: JSON readers get the tool name as it is.
    expect((JSON.parse(json.stdout) as { handlers: { needManualWork: Array<{ handler: string }> } }).handlers.needManualWork[0]!.handler).toBe(
      `tool:later${ESC}\r\u202e`,
    );

    for (const format of ['text', 'github', 'json', 'sarif']) {
      const run = await cli(dir, 'check', '--format', format, 'src');
      expect(run.stdout, format).not.toMatch(RAW);
      expect(run.stderr, format).not.toMatch(RAW);
    }
    const report = JSON.parse((await cli(dir, 'check', '--format', 'json', 'src')).stdout) as { findings: Array<{ file: string }> };
    expect(report.findings.map((f) => f.file)).toContain(`src/evil${ESC}\r.ts`);

    // Coloured for a person, the diff shows the source's escapes as text too.
    const coloured = await runCli(dir, ['migrate', '--dry-run', 'src'], { FORCE_COLOR: '1' });
    expect(stripAnsi(coloured.stdout)).not.toMatch(RAW);
  });
});

describe('unusual file names and arguments', () => {
  it('--patch quotes names as git does (tab, newline, quote, backslash, space): git apply takes it and gives what migrate writes', async () => {
    const names = ['src/tab\there.ts', 'src/new\nline.ts', 'src/q"uote.ts', 'src/back\\slash.ts', 'src/sp ace.ts', 'src/naïve.ts'];
    await tree(Object.fromEntries(names.map((name) => [name, ELICIT_SERVER])));
    await git(dir, 'init', '-q');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'start');

    const dry = await cli(dir, 'migrate', '--dry-run', '--patch', '../mrtr.patch', 'src');
    expect(dry.code).toBe(0);
    const patchFile = path.join(dir, '..', 'mrtr.patch');
    try {
      const patch = await readFile(patchFile, 'utf8');
      expect(patch).toContain('--- "a/src/tab\\there.ts"\n+++ "b/src/tab\\there.ts"\n');
      expect(patch).toContain('--- "a/src/new\\nline.ts"\n');
      expect(patch).toContain('--- "a/src/q\\"uote.ts"\n');
      expect(patch).toContain('--- "a/src/back\\\\slash.ts"\n');
      expect(patch).toContain('--- a/src/sp ace.ts\t\n+++ b/src/sp ace.ts\t\n');
      expect(patch).toContain('--- a/src/naïve.ts\n');
      expect(patch).toContain('--- /dev/null\n+++ b/src/mrtr-request-state.ts\n');
      await git(dir, 'apply', patchFile);
      const written = [...names, 'src/mrtr-request-state.ts'];
      const applied = await Promise.all(written.map((name) => readFile(path.join(dir, name), 'utf8')));
      // Back to the commit: the module the patch created is untracked, and would count as a change.
      await git(dir, 'checkout', '-q', '.');
      await git(dir, 'clean', '-q', '-f');
      expect((await cli(dir, 'migrate', 'src')).code).toBe(0);
      expect(await Promise.all(written.map((name) => readFile(path.join(dir, name), 'utf8')))).toEqual(applied);
      expect(applied.slice(0, names.length).every((text) => text.includes('inputRequired.elicit('))).toBe(true);
    } finally {
      await rm(patchFile, { force: true });
    }
  });

  it('names the request-state module as it does other files: escaped in the summary, quoted as git does in the patch that creates it', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER });
    await git(dir, 'init', '-q');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'start');
    // A tab, a quote and an escape sequence, in a folder that does not exist yet.
    const name = 'lib/st\tate"\u001b[2K.ts';

    const dry = await cli(dir, 'migrate', '--dry-run', '--state-module', name, 'src');
    expect(dry.code, dry.stderr).toBe(0);
    const cut = dry.stdout.indexOf('Files scanned:');
    const patch = dry.stdout.slice(0, cut);
    expect(patch).toContain('--- /dev/null\n+++ "b/lib/st\\tate\\"\\033[2K.ts"\n');
    expect(dry.stdout.slice(cut)).toContain('  lib/st\\tate"\\x1b[2K.ts: new, the request-state helpers every migrated file imports\n');
    expect(dry.stdout.slice(cut)).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);

    const patchFile = path.join(dir, '..', `${path.basename(dir)}.patch`);
    try {
      await writeFile(patchFile, patch);
      await git(dir, 'apply', patchFile);
      const applied = await readFile(path.join(dir, name), 'utf8');
      await git(dir, 'checkout', '-q', '.');
      await git(dir, 'clean', '-q', '-f', '-d');
      expect((await cli(dir, 'migrate', '--state-module', name, 'src')).code).toBe(0);
      expect(await readFile(path.join(dir, name), 'utf8')).toBe(applied);
    } finally {
      await rm(patchFile, { force: true });
    }
  });

  it('takes every path after `--`, including one that starts with a dash', async () => {
    await tree({ '-dash.ts': ELICIT_SERVER, 'src/server.ts': ELICIT_SERVER });
    const dry = await cli(dir, 'migrate', '--dry-run', 'src', '--', '-dash.ts');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Files to change: 3 (dry run: nothing written)\n  -dash.ts\n  src/server.ts\n  mrtr-request-state.ts\n');
    const only = await cli(dir, 'check', '--', '-dash.ts');
    expect(only.code).toBe(1);
    expect(only.stdout).toMatch(/^-dash\.ts:6:\d+ {2}legacy-request /);
    expect(only.stdout).toContain('1 file checked');
  });

  it('refuses an option that is also the name of a file here, as a shell glob passes it; after `--` it is a path', async () => {
    await tree({ '--patch=.env': '', '--force': '', 'server.ts': ELICIT_SERVER, '.env': 'SECRET=1\n' });
    const before = await snapshot(dir);
    // What `mrtr-codemod migrate --dry-run *` runs in that folder.
    const globbed = await cli(dir, 'migrate', '--dry-run', '--force', '--patch=.env', 'server.ts');
    expect(globbed).toMatchObject({ code: 2, stdout: '' });
    expect(globbed.stderr).toBe(
      "mrtr-codemod: --force is an option and also the name of a file here (a shell glob such as * passes file names as they are); it is not taken as either: pass file names after -- (mrtr-codemod migrate -- *), or rename the file\nRun 'mrtr-codemod --help' for the options.\n",
    );
    expect(await snapshot(dir)).toEqual(before);
    const dashed = await cli(dir, 'migrate', '--dry-run', '--', '--force', '--patch=.env', 'server.ts');
    expect(dashed.code).toBe(0);
    expect(dashed.stdout).toContain('Files to change: 2 (dry run: nothing written)\n  server.ts\n');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('reads the first pattern of a .gitignore that starts with a byte-order mark, at the root and below', async () => {
    await tree({
      '.gitignore': '\ufeffignored.ts\n',
      'ignored.ts': ELICIT_SERVER,
      'sub/.gitignore': '\ufeff/anchored.ts\n',
      'sub/anchored.ts': ELICIT_SERVER,
      'deep/.gitignore': '\ufeff# a comment, then a pattern\nlost.ts\n',
      'deep/lost.ts': ELICIT_SERVER,
      'kept.ts': ELICIT_SERVER,
    });
    await git(dir, 'init', '-q');
    const run = await cli(dir, 'check', '.');
    expect(run.stdout).toContain('1 file checked');
    expect(run.stdout).toMatch(/^kept\.ts:/);
  });
});

describe('--quiet', () => {
  it('migrate --dry-run -q prints the diff and nothing else; migrate -q prints nothing; errors still go to stderr', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER, 'other/server.ts': ELICIT_SERVER, 'other/broken.ts': BROKEN_SERVER });
    const dry = await cli(dir, 'migrate', '--dry-run', 'src');
    const patch = dry.stdout.slice(0, dry.stdout.indexOf('\nFiles scanned:'));
    expect(patch.startsWith('--- a/src/server.ts\n+++ b/src/server.ts\n@@ ')).toBe(true);

    for (const quiet of ['-q', '--quiet']) {
      expect(await cli(dir, 'migrate', '--dry-run', quiet, 'src'), quiet).toEqual({ code: 0, stdout: patch, stderr: '' });
    }
    // With --patch the file is written as ever, without the "written" line.
    const patchFile = path.join(dir, 'mrtr.patch');
    expect(await cli(dir, 'migrate', '--dry-run', '-q', '--patch', 'mrtr.patch', 'src')).toEqual({ code: 0, stdout: patch, stderr: '' });
    expect(await readFile(patchFile, 'utf8')).toBe(patch);
    await rm(patchFile);

    // A file that does not parse: no summary to hold the error, so it is said on stderr; same exit code.
    expect(await cli(dir, 'migrate', '-q', 'other')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'mrtr-codemod: other/broken.ts:3:24: cannot parse: Unexpected token\n',
    });
    expect(await readFile(path.join(dir, 'other/server.ts'), 'utf8')).toContain('inputRequired.elicit(');

    expect(await cli(dir, 'migrate', '--quiet', 'src')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await readFile(path.join(dir, 'src/server.ts'), 'utf8')).toContain('inputRequired.elicit(');
  });

  it('check -q prints the findings and what could not be checked: no skipped notes, no total line', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER, 'src/broken.ts': BROKEN_SERVER, 'src/vendor/lib.ts': ELICIT_SERVER, 'clean/util.ts': PLAIN_MODULE });
    const finding =
      'src/server.ts:6:26  legacy-request  elicitation request still awaited from the client in tool:go; MCP 2026-07-28 removed server→client requests (`mrtr-codemod migrate src/server.ts` can rewrite it)';
    const parse = 'src/broken.ts:3:24  parse-error  cannot parse: Unexpected token';
    expect(await cli(dir, 'check', 'src')).toEqual({
      code: 2,
      stdout: [
        finding,
        parse,
        'src/vendor  skipped  vendored code; name the folder to take it (1 legacy request in it)',
        'mrtr-codemod check: 1 finding in 1 file (1 can be rewritten by `mrtr-codemod migrate`), 1 error, 2 files checked, 1 skipped',
        '',
      ].join('\n'),
      stderr: '',
    });
    for (const quiet of ['-q', '--quiet']) {
      expect(await cli(dir, 'check', quiet, 'src'), quiet).toEqual({ code: 2, stdout: `${finding}\n${parse}\n`, stderr: '' });
    }
    const github = await cli(dir, 'check', '-q', '--format', 'github', 'src');
    expect(github.stdout.split('\n')).toEqual([
      expect.stringMatching(/^::error file=src\/server\.ts,line=6,col=26,title=mrtr-codemod legacy-request::elicitation request /),
      '::error file=src/broken.ts,line=3,col=24,title=mrtr-codemod parse-error::cannot parse: Unexpected token',
      '',
    ]);
    // Nothing found: nothing printed, exit 0.
    expect(await cli(dir, 'check', '-q', 'clean')).toEqual({ code: 0, stdout: '', stderr: '' });
    // The machine formats stay whole documents.
    expect(JSON.parse((await cli(dir, 'check', '-q', '--json', 'clean')).stdout)).toMatchObject({ summary: { exitCode: 0 } });
  });
});

describe('--color and --no-color', () => {
  it('win over NO_COLOR and FORCE_COLOR for the diff; check takes them too', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER });
    const ESC = '\u001b[';
    const plain = await runCli(dir, ['migrate', '--dry-run', '-q', 'src'], {});
    expect(plain.stdout).not.toContain(ESC); // a pipe, and no environment: the patch as it is
    expect((await runCli(dir, ['migrate', '--dry-run', '-q', 'src'], { FORCE_COLOR: '1' })).stdout).toContain(ESC);

    const forced = await runCli(dir, ['migrate', '--dry-run', '-q', '--color', 'src'], { NO_COLOR: '1' });
    expect(forced.code).toBe(0);
    expect(forced.stdout.split('\n').slice(0, 2)).toEqual([`${ESC}1m--- a/src/server.ts${ESC}0m`, `${ESC}1m+++ b/src/server.ts${ESC}0m`]);
    expect(stripAnsi(forced.stdout)).toBe(plain.stdout);
    expect(await runCli(dir, ['migrate', '--dry-run', '-q', '--no-color', 'src'], { FORCE_COLOR: '1' })).toEqual(plain);
    expect(await runCli(dir, ['migrate', '--dry-run', '-q', '--color=false', 'src'], { FORCE_COLOR: '1' })).toEqual(plain);
    // As git, ripgrep and ast-grep spell it: always, never, and auto (the environment and the terminal decide).
    expect(await runCli(dir, ['migrate', '--dry-run', '-q', '--color=always', 'src'], { NO_COLOR: '1' })).toEqual(forced);
    expect(await runCli(dir, ['migrate', '--dry-run', '-q', '--color=never', 'src'], { FORCE_COLOR: '1' })).toEqual(plain);
    expect(await runCli(dir, ['migrate', '--dry-run', '-q', '--color=auto', 'src'], { FORCE_COLOR: '1' })).toEqual(
      await runCli(dir, ['migrate', '--dry-run', '-q', 'src'], { FORCE_COLOR: '1' }),
    );
    expect(await runCli(dir, ['migrate', '--dry-run', '-q', '--color=auto', 'src'], {})).toEqual(plain);

    const check = await cli(dir, 'check', 'src');
    expect(check.code).toBe(1);
    expect(await cli(dir, 'check', '--no-color', 'src')).toEqual(check);
    expect(await runCli(dir, ['check', '--color', 'src'], {})).toEqual(check);
  });
});

describe('check -o / --output-file', () => {
  it('writes the report there instead of stdout, and replaces it on the next run', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER, 'src/vendor/lib.ts': ELICIT_SERVER });
    const total = 'mrtr-codemod check: 1 finding in 1 file (1 can be rewritten by `mrtr-codemod migrate`), 0 errors, 1 file checked, 1 skipped';
    const text = await cli(dir, 'check', 'src');
    expect(text.code).toBe(1);
    expect(text.stdout.endsWith(`${total}\n`)).toBe(true);

    expect(await cli(dir, 'check', '-o', 'mrtr.txt', 'src')).toEqual({ code: 1, stdout: `${total}\nReport written: mrtr.txt\n`, stderr: '' });
    expect(await readFile(path.join(dir, 'mrtr.txt'), 'utf8')).toBe(text.stdout);
    // Its own earlier report is replaced; quiet, nothing is printed, and the file is still the whole report.
    await writeFile(path.join(dir, 'src/other.ts'), ELICIT_SERVER);
    expect(await cli(dir, 'check', '-q', '--output-file', 'mrtr.txt', 'src')).toEqual({ code: 1, stdout: '', stderr: '' });
    expect(await readFile(path.join(dir, 'mrtr.txt'), 'utf8')).toBe((await cli(dir, 'check', 'src')).stdout);
    expect(await readFile(path.join(dir, 'mrtr.txt'), 'utf8')).toContain('src/other.ts:6:');

    for (const format of ['json', 'sarif', 'github']) {
      const file = `mrtr.${format}`;
      const expected = (await cli(dir, 'check', '-f', format, 'src')).stdout;
      for (let run = 0; run < 2; run++) {
        expect((await cli(dir, 'check', '-f', format, '-o', file, 'src')).code, format).toBe(1);
        expect(await readFile(path.join(dir, file), 'utf8'), format).toBe(expected);
      }
    }
    // An empty file holds nothing to lose: it is written.
    await writeFile(path.join(dir, 'empty.json'), '');
    expect((await cli(dir, 'check', '--json', '-o', 'empty.json', 'src')).code).toBe(1);
    expect(JSON.parse(await readFile(path.join(dir, 'empty.json'), 'utf8'))).toMatchObject({ summary: { exitCode: 1 } });
    // What could not be checked is said on stderr too: the report is not on the screen.
    expect(await cli(dir, 'check', '-q', '-o', 'mrtr.txt', 'src', 'nope')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'mrtr-codemod check: nope: no such file or directory\n',
    });
  });

  it('never writes through a symbolic link, nor over a file that is not one of its reports (exit 2, before the run)', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER, 'notes.txt': 'my notes\n', 'other.json': '{"version": 1}\n', 'out/keep': '' });
    expect((await cli(dir, 'check', '-o', 'report.txt', 'src')).code).toBe(1);
    await symlink('report.txt', path.join(dir, 'link.txt'));
    const before = await snapshot(dir);
    const refused = (file: string, why: string) => ({ code: 2, stdout: '', stderr: `mrtr-codemod: --output-file ${file}: ${why}\n` });
    const notOurs = 'exists and is not a report of mrtr-codemod check; it is not overwritten (remove it or name another file)';
    expect(await cli(dir, 'check', '-o', 'notes.txt', 'src')).toEqual(refused('notes.txt', notOurs));
    expect(await cli(dir, 'check', '-f', 'json', '-o', 'other.json', 'src')).toEqual(refused('other.json', notOurs));
    // Even when the link leads to an earlier report.
    expect(await cli(dir, 'check', '-o', 'link.txt', 'src')).toEqual(
      refused('link.txt', 'is a symbolic link; it is not written through (remove the link or name another file)'),
    );
    expect(await cli(dir, 'check', '-o', 'out', 'src')).toEqual(refused('out', 'is a directory'));
    expect(await cli(dir, 'check', '-o', 'no/such/dir.txt', 'src')).toEqual(refused('no/such/dir.txt', 'its folder does not exist'));
    expect(await snapshot(dir)).toEqual(before);
    expect(await readdir(dir)).toEqual(['link.txt', 'notes.txt', 'other.json', 'out', 'report.txt', 'src']);
  });
});

describe('migrate and check answer alike', () => {
  it('exit by one rule: 0 nothing left, 1 left for a person, 2 something could not be done', async () => {
    await tree({
      'clean/server.ts': ELICIT_SERVER.replace(/await ctx\.mcpReq\.elicitInput\([^;]*\);/, "({ action: 'accept' });"),
      'open/mixed.ts': MIXED_SERVER,
      'broken/broken.ts': BROKEN_SERVER,
    });
    const codes = async (...paths: string[]) => [(await cli(dir, 'check', ...paths)).code, (await cli(dir, 'migrate', '--dry-run', ...paths)).code];
    expect(await codes('clean')).toEqual([0, 0]);
    expect(await codes('open')).toEqual([1, 1]); // check: findings; migrate: the change leaves a marker
    expect(await codes('nope/', 'clean')).toEqual([2, 2]); // a path that does not exist
    expect(await codes('broken', 'open')).toEqual([2, 2]); // a file that does not parse wins over findings
  });

  it('check takes --include and --exclude as migrate does', async () => {
    await tree({ 'src/a.ts': ELICIT_SERVER, 'src/b.ts': ELICIT_SERVER, 'src/gen/c.ts': ELICIT_SERVER });
    const checked = async (...args: string[]) => {
      const run = await cli(dir, 'check', '--format', 'json', ...args);
      return [...new Set((JSON.parse(run.stdout) as { findings: Array<{ file: string }> }).findings.map((f) => f.file))];
    };
    expect(await checked('src')).toEqual(['src/a.ts', 'src/b.ts', 'src/gen/c.ts']);
    expect(await checked('--include', 'src/*.ts', 'src')).toEqual(['src/a.ts', 'src/b.ts']);
    expect(await checked('--exclude', 'src/gen', '--exclude', '**/b.ts', 'src')).toEqual(['src/a.ts']);
  });

  it('check --json is --format json; with another format named it is a one-line usage error (exit 2)', async () => {
    await tree({ 'src/a.ts': ELICIT_SERVER });
    const json = await cli(dir, 'check', '--json', 'src');
    expect(json.code).toBe(1);
    expect(json.stdout).toBe((await cli(dir, 'check', '--format', 'json', 'src')).stdout);
    expect((JSON.parse(json.stdout) as { findings: Array<{ file: string }> }).findings.map((f) => f.file)).toContain('src/a.ts');
    const both = await cli(dir, 'check', '--json', '--format', 'sarif', 'src');
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toBe("mrtr-codemod: --json and --format sarif ask for two formats: give one\nRun 'mrtr-codemod check --help' for the options.\n");
  });

  it('takes the short flags linters and codemods use: -d for --dry-run, -f for --format, -q for --quiet', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER });
    const dry = await cli(dir, 'migrate', '--dry-run', 'src');
    expect(dry.stdout).toContain('Files to change: 2 (dry run: nothing written)\n');
    expect(await cli(dir, 'migrate', '-d', 'src')).toEqual(dry);
    expect(await cli(dir, 'migrate', '-dq', 'src')).toEqual(await cli(dir, 'migrate', '--dry-run', '--quiet', 'src'));
    const sarif = await cli(dir, 'check', '--format', 'sarif', 'src');
    expect(sarif.code).toBe(1);
    expect(await cli(dir, 'check', '-f', 'sarif', 'src')).toEqual(sarif);
    expect(await cli(dir, 'check', '-f=sarif', 'src')).toEqual(sarif);
    // Each is listed in the help beside its long name.
    const migrateHelp = (await cli(dir, 'migrate', '--help')).stdout;
    for (const flag of ['-d, --dry-run, --dry', '-q, --quiet', '--color', '-h, --help', '-v, --version']) expect(migrateHelp, flag).toContain(`  ${flag} `);
    const checkHelp = (await cli(dir, 'check', '--help')).stdout;
    for (const flag of ['-f, --format', '-o, --output-file', '-q, --quiet', '--color', '-h, --help', '-v, --version'])
      expect(checkHelp, flag).toContain(`  ${flag} `);
    // A short flag the command does not have is one usage line too (yargs would take src as its value).
    expect(await cli(dir, 'check', '-qx', 'src')).toEqual({
      code: 2,
      stdout: '',
      stderr: "mrtr-codemod: unknown option -x\nRun 'mrtr-codemod check --help' for the options.\n",
    });
    expect(await cli(dir, 'migrate', '-x', 'src')).toEqual({
      code: 2,
      stdout: '',
      stderr: "mrtr-codemod: unknown option -x\nRun 'mrtr-codemod migrate --help' for the options.\n",
    });
  });

  it('a flag given a value it does not take is a usage error, not a run: yargs would take --dry-run=yes for --no-dry-run and write', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER });
    const before = await snapshot(dir);
    const usage = (message: string) => ({ code: 2, stdout: '', stderr: `mrtr-codemod: ${message}\nRun 'mrtr-codemod migrate --help' for the options.\n` });
    expect(await cli(dir, 'migrate', '--dry-run=yes', 'src')).toEqual(usage('--dry-run=yes: --dry-run takes no value (or true or false)'));
    expect(await cli(dir, 'migrate', '-d=1', 'src')).toEqual(usage('-d=1: -d takes no value (or true or false)'));
    expect(await cli(dir, 'migrate', '-qd=on', 'src')).toEqual(usage('-d=on: -d takes no value (or true or false)'));
    expect(await cli(dir, 'migrate', '--dryRun=y', 'src')).toEqual(usage('--dryRun=y: --dryRun takes no value (or true or false)'));
    expect(await cli(dir, 'migrate', '--dry-run', '--no-v1=yes', 'src')).toEqual(usage('--no-v1=yes: --no-v1 takes no value (or true or false)'));
    expect(await cli(dir, 'migrate', '--dry-run', '--color=bright', 'src')).toEqual(
      usage('--color=bright: the values --color takes are always, never and auto'),
    );
    expect(await snapshot(dir)).toEqual(before);
    // true and false are a flag's values; after `--` an argument is a path.
    expect(await cli(dir, 'migrate', '--dry-run=true', '-q', 'src')).toEqual(await cli(dir, 'migrate', '--dry-run', '-q', 'src'));
    expect((await cli(dir, 'check', '--', '--quiet=yes')).stdout).toContain('--quiet=yes  discover-error  no such file or directory');
  });

  it("takes jscodeshift's --dry and the --ignore-pattern of ESLint and jscodeshift, and lists them in the help (--dry beside -d above)", async () => {
    await tree({ 'src/a.ts': ELICIT_SERVER, 'src/gen/b.ts': ELICIT_SERVER });
    const dry = await cli(dir, 'migrate', '--dry-run', 'src');
    expect(dry.stdout).toContain('Files to change: 3 (dry run: nothing written)\n');
    expect(await cli(dir, 'migrate', '--dry', 'src')).toEqual(dry);
    const excluded = await cli(dir, 'check', '--exclude', 'src/gen', 'src');
    expect(excluded.stdout).toContain('1 file checked');
    expect(await cli(dir, 'check', '--ignore-pattern', 'src/gen', 'src')).toEqual(excluded);
    expect(await cli(dir, 'migrate', '-d', '--ignore-pattern=src/gen', 'src')).toEqual(await cli(dir, 'migrate', '-d', '--exclude=src/gen', 'src'));
    expect((await cli(dir, 'check', '--help')).stdout).toContain('      --exclude, --ignore-pattern ');
  });

  it('-v prints the version as --version does', async () => {
    const short = await cli(dir, '-v');
    expect(short.code).toBe(0);
    expect(short.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(short.stdout).toBe((await cli(dir, '--version')).stdout);
  });

  it('a dry run whose patch goes to a file or a pipe still says its errors on stderr', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER, 'src/broken.ts': BROKEN_SERVER });
    const piped = await cli(dir, 'migrate', '--dry-run', 'src', 'nope');
    expect(piped.code).toBe(2);
    expect(piped.stdout).toContain('--- a/src/server.ts\n');
    expect(piped.stderr).toBe('mrtr-codemod: nope: no such file or directory\nmrtr-codemod: src/broken.ts:3:24: cannot parse: Unexpected token\n');
  });
});

describe('vendored, minified and bundled code', () => {
  it('is skipped with a note, not an error; a bundle too large to parse that mentions a request is left for a person (exit 1)', async () => {
    const line = '// padding: the quick brown fox jumps over the lazy dog, again and again.\n';
    const js = ELICIT_SERVER.replace('(): McpServer', '()');
    const bundle = js + line.repeat(Math.ceil((1.2 * 1024 * 1024) / line.length));
    await tree({
      'src/server.ts': ELICIT_SERVER,
      'src/vendor/lib.js': js,
      'src/vendor/more/other.js': js.replace('createServer', 'createOther'),
      'src/vendor/plain.ts': PLAIN_MODULE,
      'third_party/x.ts': PLAIN_MODULE,
      'src/app.min.js': js,
      'web/bundle.js': bundle,
    });

    const dry = await cli(dir, 'migrate', '--dry-run', '.');
    expect(dry.code).toBe(1);
    const summary = dry.stdout.slice(dry.stdout.indexOf('Files scanned:'));
    expect(summary).toContain('Files to change: 2 (dry run: nothing written)\n  src/server.ts\n  src/mrtr-request-state.ts\n');
    expect(summary).toContain(
      [
        'Errors: 0',
        'Skipped: 4',
        '  src/app.min.js  minified code; name the file to take it',
        '  src/vendor  vendored code; name the folder to take it (2 legacy requests in it)',
        '  third_party  vendored code; name the folder to take it (no legacy request in it)',
        '  web/bundle.js  too large to analyse (1.2 MiB, the limit is 1.0 MiB): likely a bundle; migrate its sources and build it again',
        '',
      ].join('\n'),
    );

    const check = await cli(dir, 'check', '.');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('web/bundle.js:1:1  not-analysed  too large to analyse');
    expect(check.stdout).toContain('src/vendor  skipped  vendored code; name the folder to take it (2 legacy requests in it)\n');
    expect(check.stdout).toContain('third_party  skipped  vendored code; name the folder to take it (no legacy request in it)\n');
    expect(check.stdout).toMatch(/, 0 errors, 2 files checked, 3 skipped\n$/);
    expect(check.stdout).not.toContain('src/vendor/lib.js');

    // Without the bundle nothing is left: vendored and minified code is not the project's.
    await rm(path.join(dir, 'web'), { recursive: true });
    await writeFile(path.join(dir, 'src/server.ts'), PLAIN_MODULE);
    expect((await cli(dir, 'check', '.')).code).toBe(0);
    expect((await cli(dir, 'migrate', '--dry-run', '.')).code).toBe(0);
    // Named, they are taken.
    expect((await cli(dir, 'check', 'src/vendor', 'src/app.min.js')).stdout).toMatch(
      /^src\/app\.min\.js:6:\d+ {2}legacy-request [^\n]*\nsrc\/vendor\/lib\.js:6:\d+ {2}legacy-request /,
    );
  });

  it('says in every format of check, and in the summary of migrate, how many legacy requests each vendored folder holds', async () => {
    await tree({
      'src/server.ts': PLAIN_MODULE,
      'src/vendor/a.ts': ELICIT_SERVER,
      'src/vendor/deep/b.ts': ELICIT_SERVER.replace("'go'", "'again'"),
      'src/vendor/node_modules/c.ts': ELICIT_SERVER,
      'third_party/plain.ts': PLAIN_MODULE,
    });
    const note = 'vendored code; name the folder to take it';
    const json = await cli(dir, 'check', '--json', '.');
    // Notes, not findings: the project's own code is clean.
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).skipped).toEqual([
      { file: 'src/vendor', reason: note, legacyRequests: 2 },
      { file: 'third_party', reason: note, legacyRequests: 0 },
    ]);
    const sarif = JSON.parse((await cli(dir, 'check', '--format', 'sarif', '.')).stdout);
    expect(sarif.runs[0].invocations[0].toolExecutionNotifications).toEqual([
      expect.objectContaining({
        level: 'note',
        message: { text: `src/vendor: skipped: ${note} (2 legacy requests in it)` },
        properties: { legacyRequests: 2 },
      }),
      expect.objectContaining({
        level: 'note',
        message: { text: `third_party: skipped: ${note} (no legacy request in it)` },
        properties: { legacyRequests: 0 },
      }),
    ]);
    expect((await cli(dir, 'check', '--format', 'github', '.')).stdout.split('\n').slice(0, 2)).toEqual([
      `::notice file=src/vendor,title=mrtr-codemod skipped::${note} (2 legacy requests in it)`,
      `::notice file=third_party,title=mrtr-codemod skipped::${note} (no legacy request in it)`,
    ]);
    const migrate = await cli(dir, 'migrate', '--dry-run', '.');
    expect(migrate.stdout).toContain(`Skipped: 2\n  src/vendor  ${note} (2 legacy requests in it)\n  third_party  ${note} (no legacy request in it)\n`);
    expect(JSON.parse((await cli(dir, 'migrate', '--dry-run', '--json', '.')).stdout).skipped).toEqual([
      { file: 'src/vendor', reason: note, candidate: false, legacyRequests: 2 },
      { file: 'third_party', reason: note, candidate: false, legacyRequests: 0 },
    ]);
  });
});
