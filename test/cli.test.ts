// The real entry (node bin/mrtr-codemod.js) on temporary copies of small legacy servers.
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROKEN_SERVER, ELICIT_SERVER, MIXED_SERVER, PLAIN_MODULE } from './engine-samples.ts';
import { cli, git } from './support/cli.ts';


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
        '  1. Set MCP_REQUEST_STATE_KEY (at least 32 random bytes, the same on every instance that may receive a retry) where the server runs; without it each process signs with its own random key, which only works while one process serves every round of a call.',
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
    expect(dry.code).toBe(0);
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
        expect((await cli(dir, 'migrate', '--force', '.')).code).toBe(0);
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

  it('reports a file that does not parse with its path and line, migrates the others, exits 1', async () => {
    await tree({ 'a/broken.ts': BROKEN_SERVER, 'a/good.ts': ELICIT_SERVER, 'z/good.mts': ELICIT_SERVER });

    const result = await cli(dir, 'migrate', 'a', 'z');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Errors: 1\n {2}a\/broken\.ts:3:24 {2}cannot parse: Unexpected token/m);
    expect(result.stdout).toContain('Sites migrated: 2\n');
    expect(await readFile(path.join(dir, 'a/broken.ts'), 'utf8')).toBe(BROKEN_SERVER);
    expect(await readFile(path.join(dir, 'a/good.ts'), 'utf8')).toContain('inputRequired.elicit(');
    expect(await readFile(path.join(dir, 'z/good.mts'), 'utf8')).toContain('inputRequired.elicit(');
  });

  it('exits 1 for a path that does not exist, still processing the rest', async () => {
    await tree({ 'src/server.ts': ELICIT_SERVER });
    const result = await cli(dir, 'migrate', 'missing', 'src');
    expect(result.code).toBe(1);
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
    expect(result.code).toBe(0);
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
        '  1. Set MCP_REQUEST_STATE_KEY (at least 32 random bytes, the same on every instance that may receive a retry) where the server runs; without it each process signs with its own random key, which only works while one process serves every round of a call.',
        '  2. Run your formatter on the changed files: untouched code is kept byte for byte, new code is written in a plain style that does not know your line width.',
        '  3. Work through the 1 marker left (grep -rn @mrtr-todo), then run `mrtr-codemod check`.',
        '',
      ].join('\n'),
    );
    const mixed = await readFile(path.join(dir, 'mixed.ts'), 'utf8');
    expect(mixed).toContain('// @mrtr-todo(closure):');

    // The marker stays reported on the next run (further down, below the added import), and nothing changes.
    const again = await cli(dir, 'migrate', '.');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Files changed: 0\n');
    expect(again.stdout).toMatch(/^Markers left: 1\n {2}mixed\.ts:\d+:29 {2}closure /m);
  });
});

describe('mrtr-codemod migrate with type facts', () => {
  // Lifting a local needs its type from the checker, so this server must resolve the SDK:
  // it lives under the project's git-ignored .tmp/ rather than the system temp directory.
  const LIFTING_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'tables', version: '1.0.0' });
  server.registerTool('wipe', { description: 'Wipe a table', inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    const count = table.length * 2;
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
      // A marked site is not an error of the run (check reports it, with exit 1).
      expect(result).toMatchObject({ code: 0, stderr: '' });
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

  it('exits 2 on usage errors', async () => {
    const none = await cli(dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Name a command: migrate');
    const noPaths = await cli(dir, 'migrate');
    expect(noPaths.code).toBe(2);
    expect(noPaths.stderr).toContain('Not enough non-option arguments');
    const unknown = await cli(dir, 'migrate', '.', '--frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown argument: frobnicate');
    const command = await cli(dir, 'convert', '.');
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/Unknown arguments?: convert/);
    expect(command.stdout).toBe('');
  });
});
