// One-shot safety through the real entry (node bin/mrtr-codemod.js), in throwaway git
// repositories under the project's git-ignored .tmp/: the dirty-tree guard, .gitignore,
// --include/--exclude, the handler summary line, --json, and the progress line.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { createProgress } from '../src/cli/progress.ts';
import { discoverFiles, rebasePattern } from '../src/engine/discover.ts';
import { parsePorcelainZ } from '../src/engine/git.ts';
import { ELICIT_SERVER, MIXED_SERVER, PLAIN_MODULE } from './engine-samples.ts';
import { cli, git } from './support/cli.ts';

const PROJECT_TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));

async function tree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** A git repository (own .git, so the project's .gitignore does not apply) with `files` committed. */
async function repo(files: Record<string, string>, exclude?: string): Promise<string> {
  await tree(dir, files);
  await git(dir, 'init', '-q');
  if (exclude !== undefined) await writeFile(path.join(dir, '.git/info/exclude'), exclude);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'start');
  return dir;
}

/** Content and mtime of every file outside .git, to prove nothing was written. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, file);
    if (relative.split(path.sep)[0] === '.git') continue;
    out[relative] = `${(await stat(file)).mtimeMs} ${await readFile(file, 'utf8')}`;
  }
  return out;
}

const read = (file: string) => readFile(path.join(dir, file), 'utf8');
const isMigrated = async (file: string) => (await read(file)).includes('inputRequired.elicit(');

let dir: string;

beforeEach(async () => {
  await mkdir(PROJECT_TMP, { recursive: true });
  dir = await mkdtemp(path.join(PROJECT_TMP, 'safety-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('dirty git tree', () => {
  it('refuses to write when a file under the paths has uncommitted changes (exit 2, nothing written)', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER, 'src/other.ts': ELICIT_SERVER, 'src/util.ts': PLAIN_MODULE });
    await writeFile(path.join(dir, 'src/util.ts'), `${PLAIN_MODULE}// edited\n`);
    await writeFile(path.join(dir, 'src/new.ts'), PLAIN_MODULE);
    const before = await snapshot(dir);

    const result = await cli(dir, 'migrate', 'src');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        'mrtr-codemod: refusing to write: 2 files have uncommitted changes in git under the given paths:',
        '  ?? src/new.ts',
        '   M src/util.ts',
        'Commit or stash them first, so that `git diff` shows exactly what the codemod changed and `git checkout` undoes it;',
        'or review with --dry-run; or pass --force to write anyway.',
        '',
      ].join('\n'),
    );
    expect(await snapshot(dir)).toEqual(before);

    // A staged change counts too, and a dry run is always allowed (it writes nothing).
    await git(dir, 'add', 'src/util.ts');
    expect((await cli(dir, 'migrate', 'src/util.ts', 'src/server.ts')).stderr).toContain('\n  M  src/util.ts\n');
    const dry = await cli(dir, 'migrate', '--dry-run', 'src');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('--- a/src/server.ts\n');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('names a few dirty files and counts the rest', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER });
    for (let i = 0; i < 8; i++) await writeFile(path.join(dir, `src/extra${i}.ts`), PLAIN_MODULE);
    const result = await cli(dir, 'migrate', '.');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to write: 8 files have uncommitted changes');
    expect(result.stderr).toContain('  ?? src/extra4.ts\n  ... and 3 more (git status lists them)\n');
    expect(result.stderr).not.toContain('extra5');
  });

  it('--force writes on a dirty tree', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER });
    await writeFile(path.join(dir, 'src/server.ts'), `${ELICIT_SERVER}// work in progress\n`);
    const result = await cli(dir, 'migrate', '--force', 'src');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(await isMigrated('src/server.ts')).toBe(true);
    expect(await read('src/server.ts')).toContain('// work in progress\n');
  });

  it('writes on a clean tree, and only the migrated files show in git status afterwards', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER, 'src/util.ts': PLAIN_MODULE, 'README.md': '# demo\n' });
    const result = await cli(dir, 'migrate', 'src');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Files changed: 2\n  src/server.ts\n  src/mrtr-request-state.ts\n');
    // The migrated file, and the request-state module it imports, new beside it.
    expect(await git(dir, 'status', '--porcelain')).toBe(' M src/server.ts\n?? src/mrtr-request-state.ts\n');
  });

  it('only looks under the given paths: a dirty file elsewhere does not block', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER, 'README.md': '# demo\n' });
    await writeFile(path.join(dir, 'README.md'), '# edited\n');
    await writeFile(path.join(dir, 'notes.ts'), PLAIN_MODULE);
    expect((await cli(dir, 'migrate', 'src')).code).toBe(0);
    expect(await isMigrated('src/server.ts')).toBe(true);
  });

  it('a git-ignored file does not make the tree dirty', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER, '.gitignore': '*.log\n' });
    await writeFile(path.join(dir, 'src/debug.log'), 'noise\n');
    expect((await cli(dir, 'migrate', 'src')).code).toBe(0);
  });

  it('outside any git work tree it writes without a check', async (ctx) => {
    const plain = await mkdtemp(path.join(os.tmpdir(), 'mrtr-safety-nogit-'));
    try {
      const inRepo = await git(plain, 'rev-parse', '--is-inside-work-tree').then(() => true, () => false);
      if (inRepo) ctx.skip('the system temp directory is inside a git work tree');
      await tree(plain, { 'server.ts': ELICIT_SERVER });
      const result = await cli(plain, 'migrate', 'server.ts');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(await readFile(path.join(plain, 'server.ts'), 'utf8')).toContain('inputRequired.elicit(');
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  });

  it('reads git status output with renames', () => {
    expect(parsePorcelainZ('R  new.ts\0old.ts\0 M a b.ts\0?? c.ts\0')).toEqual([
      { status: 'R ', path: 'new.ts' },
      { status: ' M', path: 'a b.ts' },
      { status: '??', path: 'c.ts' },
    ]);
  });
});

describe('.gitignore', () => {
  it('leaves git-ignored files alone: root, nested and info/exclude rules, negations, from a subdirectory too', async () => {
    await repo({
      '.gitignore': 'generated/\n*.gen.ts\n',
      'src/.gitignore': '# local rules\nvendor/\n!keep.gen.ts\n/only-here.ts\n',
      'src/server.ts': ELICIT_SERVER,
      'src/a.gen.ts': ELICIT_SERVER,
      'src/keep.gen.ts': ELICIT_SERVER,
      'src/only-here.ts': ELICIT_SERVER,
      'src/deeper/only-here.ts': ELICIT_SERVER,
      'src/vendor/lib.ts': ELICIT_SERVER,
      'src/deeper/vendor/lib.ts': ELICIT_SERVER,
      'generated/server.ts': ELICIT_SERVER,
      'src/generated/x.ts': ELICIT_SERVER,
      'local/scratch.ts': ELICIT_SERVER,
    }, 'local/\n');

    const result = await cli(dir, 'migrate', '--json', '.');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { changedFiles: { path: string }[] };
    expect(summary.changedFiles.map((f) => f.path)).toEqual(['src/deeper/only-here.ts', 'src/keep.gen.ts', 'src/server.ts', 'src/mrtr-request-state.ts']);
    for (const untouched of ['src/a.gen.ts', 'src/only-here.ts', 'src/vendor/lib.ts', 'src/deeper/vendor/lib.ts', 'generated/server.ts', 'src/generated/x.ts', 'local/scratch.ts']) {
      expect(await read(untouched)).toBe(ELICIT_SERVER);
    }

    // Rules above the directory named on the command line still apply.
    const { files } = await discoverFiles(['src/deeper'], dir);
    expect(files.map((f) => path.relative(dir, f))).toEqual(['src/deeper/only-here.ts']);
  });

  it('processes an ignored file named on the command line, and walks an ignored directory named on it', async () => {
    await repo({ '.gitignore': 'scripts/\n', 'scripts/one.ts': ELICIT_SERVER, 'scripts/two.ts': ELICIT_SERVER, 'scripts/sub/three.ts': ELICIT_SERVER });
    expect((await cli(dir, 'migrate', '.')).stdout).toMatch(/^Files scanned: 0 /);
    expect((await cli(dir, 'migrate', 'scripts/one.ts')).code).toBe(0);
    expect(await isMigrated('scripts/one.ts')).toBe(true);
    expect(await isMigrated('scripts/two.ts')).toBe(false);
    const named = await cli(dir, 'migrate', 'scripts');
    expect(named.stdout).toContain('Files changed: 2\n  scripts/sub/three.ts\n  scripts/two.ts\n');
    // The request-state module the first run wrote beside one.ts serves them too, as it is.
    expect(named.stdout).not.toContain('mrtr-request-state');
  });

  it('rebases nested patterns onto the work tree root', () => {
    expect(rebasePattern('*.log', '')).toBe('*.log');
    expect(rebasePattern('*.log', 'src')).toBe('src/**/*.log');
    expect(rebasePattern('vendor/', 'src')).toBe('src/**/vendor/');
    expect(rebasePattern('/top.ts', 'src')).toBe('src/top.ts');
    expect(rebasePattern('a/b', 'src')).toBe('src/a/b');
    expect(rebasePattern('!keep.ts', 'src')).toBe('!src/**/keep.ts');
    expect(rebasePattern('# comment', 'src')).toBeUndefined();
    expect(rebasePattern('   ', 'src')).toBeUndefined();
  });
});

describe('--include / --exclude', () => {
  beforeEach(async () => {
    await repo({
      'src/server.ts': ELICIT_SERVER,
      'src/legacy/old.ts': ELICIT_SERVER,
      'src/legacy/keep.ts': ELICIT_SERVER,
      'tools/cli.mts': ELICIT_SERVER,
      'test/server.test.ts': ELICIT_SERVER,
    });
  });
  // The files migrated: each builds its own server, so the request-state module they import
  // goes in the deepest folder that holds them all (listed apart).
  const changed = async (...args: string[]) => {
    const result = await cli(dir, 'migrate', '--dry-run', '--json', ...args);
    expect(result.code).toBe(0);
    return (JSON.parse(result.stdout) as { changedFiles: { path: string }[] }).changedFiles.map((f) => f.path).filter((f) => !f.endsWith('mrtr-request-state.ts'));
  };

  it('includes by glob, excludes by glob, exclude wins, a directory glob covers what is below it', async () => {
    expect(await changed('.')).toEqual(['src/legacy/keep.ts', 'src/legacy/old.ts', 'src/server.ts', 'test/server.test.ts', 'tools/cli.mts']);
    expect(await changed('--include', 'src/**', '.')).toEqual(['src/legacy/keep.ts', 'src/legacy/old.ts', 'src/server.ts']);
    expect(await changed('--include', 'src/**', '--include', '**/*.mts', '.')).toEqual(['src/legacy/keep.ts', 'src/legacy/old.ts', 'src/server.ts', 'tools/cli.mts']);
    expect(await changed('--exclude', '**/*.test.ts', '--exclude', 'src/legacy', '.')).toEqual(['src/server.ts', 'tools/cli.mts']);
    expect(await changed('--include', 'src/legacy/**', '--exclude', 'src/legacy/old.ts', '.')).toEqual(['src/legacy/keep.ts']);
    expect(await changed('--include=src', '--exclude=src/legacy/*', '.')).toEqual(['src/server.ts']);
    // Globs are relative to the current directory, and also filter files named explicitly.
    expect(await changed('--exclude', 'src/server.ts', 'src/server.ts', 'tools/cli.mts')).toEqual(['tools/cli.mts']);
  });

  it('writes only the selected files', async () => {
    const result = await cli(dir, 'migrate', '--include', 'src/**', '--exclude', 'src/legacy/**', '.');
    expect(result.code).toBe(0);
    expect(await isMigrated('src/server.ts')).toBe(true);
    for (const file of ['src/legacy/old.ts', 'src/legacy/keep.ts', 'tools/cli.mts', 'test/server.test.ts']) expect(await read(file)).toBe(ELICIT_SERVER);
  });

  it('an option without a glob is a usage error', async () => {
    const result = await cli(dir, 'migrate', '.', '--include');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Not enough arguments following: include/);
  });
});

describe('summary', () => {
  it('gives the handler line (migrated N/M handlers, and which need manual work), then the next steps', async () => {
    await repo({ 'mixed.ts': MIXED_SERVER, 'other.ts': ELICIT_SERVER });
    const result = await cli(dir, 'migrate', '--dry-run', '.');
    expect(result.code).toBe(0);
    const handlerLine = (stdout: string) => stdout.split('\n').find((line) => line.startsWith('migrated '));
    expect(handlerLine(result.stdout)).toBe('migrated 3/4 handlers; 1 needs manual work: tool:later (mixed.ts:6, closure)');
    // Then the next steps, the last of them the markers left.
    expect(result.stdout).toMatch(/\nmigrated 3\/4 handlers[^\n]*\nNext steps:\n {2}1\. Apply the change: [^\n]*\n(?: {2}\d\. [^\n]*\n)* {2}\d\. Work through the 1 marker left [^\n]*\n$/);

    await writeFile(path.join(dir, 'mixed.ts'), PLAIN_MODULE);
    expect(handlerLine((await cli(dir, 'migrate', '--dry-run', '.')).stdout)).toBe('migrated 1/1 handler');
  });

  it('--json prints only the JSON summary, with the counts', async () => {
    await repo({ 'src/mixed.ts': MIXED_SERVER, 'src/other.ts': ELICIT_SERVER, 'src/util.ts': PLAIN_MODULE, 'src/broken.ts': 'ctx.mcpReq.elicitInput(;\n' });
    const result = await cli(dir, 'migrate', '--json', 'src', 'missing');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      version: 1,
      dryRun: false,
      filesScanned: 4,
      candidates: 3,
      changedFiles: [
        { path: 'src/mixed.ts', written: true },
        { path: 'src/other.ts', written: true },
        { path: 'src/mrtr-request-state.ts', written: true },
      ],
      sites: { total: 4, migrated: 3, marked: 1 },
      handlers: { total: 4, migrated: 3, manual: 1, needManualWork: [{ handler: 'tool:later', file: 'src/mixed.ts', line: 6, codes: ['closure'] }] },
      markers: [{ file: 'src/mixed.ts', line: 6, column: 29, kind: 'elicit', handler: 'tool:later', code: 'closure' }],
      notes: [{ note: expect.stringContaining('sampling is deprecated'), sites: 2 }],
    });
    expect(summary.errors).toEqual([
      { file: 'missing', stage: 'discover', message: 'no such file or directory' },
      { file: 'src/broken.ts', stage: 'parse', message: expect.stringContaining('cannot parse'), line: 1, column: expect.any(Number) },
    ]);
    expect(await isMigrated('src/other.ts')).toBe(true);

    // A dry run with --json prints no diff either: stdout is one JSON document.
    const dry = await cli(dir, 'migrate', '--json', '--dry-run', 'src');
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, changedFiles: [] });
  });
});

describe('progress', () => {
  /** One legacy server among 249 plain modules: a run long enough for the progress line. */
  async function manyFiles(): Promise<void> {
    const files: Record<string, string> = { 'src/server.ts': ELICIT_SERVER };
    for (let i = 0; i < 249; i++) files[`src/m/${String(i).padStart(3, '0')}.ts`] = PLAIN_MODULE;
    await tree(dir, files);
  }

  it('prints nothing on stderr when it is not a terminal', async () => {
    await manyFiles();
    const result = await cli(dir, 'migrate', '--dry-run', 'src');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Files scanned: 250 ');
  });

  it('draws one updating line on a terminal, erased at the end; never with --json', async () => {
    await manyFiles();
    const io = (stderrIsTTY: boolean) => {
      const out = { stdout: '', stderr: '' };
      return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), cwd: dir, stderrIsTTY, stderrColumns: 80 } };
    };
    const tty = io(true);
    expect(await main(['migrate', '--dry-run', 'src'], tty.io)).toBe(0);
    expect(tty.out.stderr).not.toContain('\n');
    expect(tty.out.stderr).toMatch(/^\r\x1b\[2Kmrtr-codemod \[\.+\] 0\/250 files {3}0%/);
    expect(tty.out.stderr).toContain('mrtr-codemod [##############################] 250/250 files 100%');
    expect(tty.out.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(tty.out.stdout).toContain('Files scanned: 250 (1 mention server→client requests)\n');

    const json = io(true);
    expect(await main(['migrate', '--dry-run', '--json', 'src'], json.io)).toBe(0);
    expect(json.out.stderr).toBe('');
    expect(JSON.parse(json.out.stdout)).toMatchObject({ filesScanned: 250, changedFiles: [{ path: 'src/server.ts', written: false }, { path: 'src/mrtr-request-state.ts', written: false }] });
  });

  it('shows a short run only once it has taken a second, and never when disabled', () => {
    let clock = 0;
    let text = '';
    const progress = createProgress({ enabled: true, write: (t) => void (text += t), now: () => clock, columns: 80 });
    progress.start(10);
    progress.tick();
    clock = 500;
    progress.tick();
    expect(text).toBe('');
    clock = 1200;
    progress.tick();
    expect(text).toBe('\r\x1b[2Kmrtr-codemod [#########.....................] 3/10 files  30%');
    clock = 1250;
    progress.tick(); // within the redraw interval: not drawn
    expect(text.split('\r').length).toBe(2);
    for (let i = 0; i < 6; i++) progress.tick();
    expect(text).toContain('10/10 files 100%');
    progress.done();
    expect(text.endsWith('\r\x1b[2K')).toBe(true);

    let off = '';
    const disabled = createProgress({ enabled: false, write: (t) => void (off += t) });
    disabled.start(1000);
    for (let i = 0; i < 1000; i++) disabled.tick();
    disabled.done();
    expect(off).toBe('');
  });
});
