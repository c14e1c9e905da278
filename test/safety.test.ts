// One-shot safety through the real entry (node bin/mrtr-codemod.js), in throwaway git
// repositories under the project's git-ignored .tmp/: the dirty-tree guard, .gitignore,
// --include/--exclude, the handler summary line, --json, and the progress line.
import { chmod, lchown, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { createProgress } from '../src/cli/progress.ts';
import { discoverFiles } from '../src/engine/discover.ts';
import { rebasePattern } from '../src/engine/gitignore-rules.ts';
import { parsePorcelainZ } from '../src/engine/git.ts';
import { ELICIT_SERVER, MIXED_SERVER, olderStateModule, PLAIN_MODULE, V1_MANIFEST, V1_SERVER } from './engine-samples.ts';
import { cli, git, runCli } from './support/cli.ts';

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

  it('a committed file named --force does not pass for the flag: `migrate *` leaves a dirty file as it is', async () => {
    await repo({ '--force': '', 'server.ts': ELICIT_SERVER });
    await writeFile(path.join(dir, 'server.ts'), `${ELICIT_SERVER}// work in progress\n`);
    const before = await snapshot(dir);
    // What `mrtr-codemod migrate *` runs in that folder.
    const globbed = await cli(dir, 'migrate', '--force', 'server.ts');
    expect(globbed).toMatchObject({ code: 2, stdout: '' });
    expect(globbed.stderr).toMatch(/^mrtr-codemod: --force is an option and also the name of a file here /);
    expect(await snapshot(dir)).toEqual(before);
    // After `--`, it is a path like the others, and the dirty-tree guard holds.
    const dashed = await cli(dir, 'migrate', '--', '--force', 'server.ts');
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toContain('refusing to write: 1 file has uncommitted changes');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('writes on a clean tree, and only the migrated files show in git status afterwards', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER, 'src/util.ts': PLAIN_MODULE, 'README.md': '# demo\n' });
    const result = await cli(dir, 'migrate', 'src');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Files changed: 2\n  src/server.ts\n  src/mrtr-request-state.ts\n');
    // The migrated file, and the request-state module it imports, new beside it.
    expect(await git(dir, 'status', '--porcelain')).toBe(' M src/server.ts\n?? src/mrtr-request-state.ts\n');
  });

  it('covers the request-state module --state-module names outside the paths', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER });
    // Untracked: refreshing it could not be undone by git.
    await tree(dir, { 'lib/state.ts': olderStateModule() });
    const before = await snapshot(dir);
    const result = await cli(dir, 'migrate', '--state-module', 'lib/state.ts', 'src');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('1 file has uncommitted changes in git under the given paths:\n  ?? lib/state.ts\n');
    expect(await snapshot(dir)).toEqual(before);
    // Committed, it is refreshed.
    await git(dir, 'add', 'lib/state.ts');
    await git(dir, 'commit', '-q', '-m', 'module');
    const refreshed = await cli(dir, 'migrate', '--state-module', 'lib/state.ts', 'src');
    expect(refreshed).toMatchObject({ code: 0, stderr: '' });
    expect(refreshed.stdout).toContain('  lib/state.ts: refreshed to this version of the codemod\n');
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
      const inRepo = await git(plain, 'rev-parse', '--is-inside-work-tree').then(
        () => true,
        () => false,
      );
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
    await repo(
      {
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
      },
      'local/\n',
    );

    const result = await cli(dir, 'migrate', '--json', '.');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { changedFiles: { path: string }[] };
    expect(summary.changedFiles.map((f) => f.path)).toEqual(['src/deeper/only-here.ts', 'src/keep.gen.ts', 'src/server.ts', 'src/mrtr-request-state.ts']);
    for (const untouched of [
      'src/a.gen.ts',
      'src/only-here.ts',
      'src/vendor/lib.ts',
      'src/deeper/vendor/lib.ts',
      'generated/server.ts',
      'src/generated/x.ts',
      'local/scratch.ts',
    ]) {
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
    return (JSON.parse(result.stdout) as { changedFiles: { path: string }[] }).changedFiles
      .map((f) => f.path)
      .filter((f) => !f.endsWith('mrtr-request-state.ts'));
  };

  it('includes by glob, excludes by glob, exclude wins, a directory glob covers what is below it', async () => {
    expect(await changed('.')).toEqual(['src/legacy/keep.ts', 'src/legacy/old.ts', 'src/server.ts', 'test/server.test.ts', 'tools/cli.mts']);
    expect(await changed('--include', 'src/**', '.')).toEqual(['src/legacy/keep.ts', 'src/legacy/old.ts', 'src/server.ts']);
    expect(await changed('--include', 'src/**', '--include', '**/*.mts', '.')).toEqual([
      'src/legacy/keep.ts',
      'src/legacy/old.ts',
      'src/server.ts',
      'tools/cli.mts',
    ]);
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
    expect(result.code).toBe(1);
    const handlerLine = (stdout: string) => stdout.split('\n').find((line) => line.startsWith('migrated '));
    expect(handlerLine(result.stdout)).toBe('migrated 3/4 handlers; 1 needs manual work: tool:later (mixed.ts:6, closure)');
    // Then the next steps, the last of them the markers left.
    expect(result.stdout).toMatch(
      /\nmigrated 3\/4 handlers[^\n]*\nNext steps:\n {2}1\. Apply the change: [^\n]*\n(?: {2}\d\. [^\n]*\n)* {2}\d\. Work through the 1 marker left [^\n]*\n$/,
    );

    await writeFile(path.join(dir, 'mixed.ts'), PLAIN_MODULE);
    expect(handlerLine((await cli(dir, 'migrate', '--dry-run', '.')).stdout)).toBe('migrated 1/1 handler');
  });

  it('--json prints only the JSON summary, with the counts', async () => {
    await repo({ 'src/mixed.ts': MIXED_SERVER, 'src/other.ts': ELICIT_SERVER, 'src/util.ts': PLAIN_MODULE, 'src/broken.ts': 'ctx.mcpReq.elicitInput(;\n' });
    const result = await cli(dir, 'migrate', '--json', 'src', 'missing');
    expect(result.code).toBe(2);
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
  /** One legacy server among 249 plain modules. */
  async function manyFiles(): Promise<void> {
    const files: Record<string, string> = { 'src/server.ts': ELICIT_SERVER };
    for (let i = 0; i < 249; i++) files[`src/m/${String(i).padStart(3, '0')}.ts`] = PLAIN_MODULE;
    await tree(dir, files);
  }
  const terminal = (stderrIsTTY: boolean) => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), cwd: dir, stderrIsTTY, stderrColumns: 100 },
    };
  };
  /** The lines a terminal would have shown, in order. */
  const frames = (stderr: string) => stderr.split('\r\x1b[2K').filter((frame) => frame !== '');

  it('prints nothing on stderr when it is not a terminal', async () => {
    await manyFiles();
    const result = await cli(dir, 'migrate', '--dry-run', 'src');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Files scanned: 250 ');
  });

  it('on a terminal, shows every phase from discovery on, even in a short run, and is erased at the end; never with --json', async () => {
    await tree(dir, { 'src/server.ts': ELICIT_SERVER, 'src/util.ts': PLAIN_MODULE });
    const tty = terminal(true);
    expect(await main(['migrate', '--dry-run', 'src'], tty.io)).toBe(0);
    expect(tty.out.stderr).not.toContain('\n');
    expect(tty.out.stderr.endsWith('\r\x1b[2K')).toBe(true);
    const shown = frames(tty.out.stderr);
    expect(shown[0]).toMatch(/^mrtr-codemod finding files {2}\d+s$/);
    expect(shown).toContainEqual(expect.stringMatching(/^mrtr-codemod \[\.+\] 0\/2 {3}0% {2}reading and migrating {2}\d+s$/));
    expect(shown.at(-1)).toMatch(/^mrtr-codemod \[#+\] 2\/2 100% {2}(reading and migrating|finishing files|writing the request-state module) {2}\d+s$/);
    expect(tty.out.stdout).toContain('Files scanned: 2 (1 mention server→client requests)\n');

    // check shows it too (for its text format).
    const check = terminal(true);
    expect(await main(['check', 'src'], check.io)).toBe(1);
    expect(frames(check.out.stderr)[0]).toMatch(/^mrtr-codemod finding files {2}\d+s$/);
    expect(check.out.stderr.endsWith('\r\x1b[2K')).toBe(true);

    const json = terminal(true);
    expect(await main(['migrate', '--dry-run', '--json', 'src'], json.io)).toBe(0);
    expect(json.out.stderr).toBe('');
    expect(JSON.parse(json.out.stdout)).toMatchObject({
      filesScanned: 2,
      changedFiles: [
        { path: 'src/server.ts', written: false },
        { path: 'src/mrtr-request-state.ts', written: false },
      ],
    });
  });

  it('moves through the v1 pass: its own phase, one step a file', async () => {
    await tree(dir, { 'package.json': V1_MANIFEST, 'src/a.ts': V1_SERVER, 'src/b.ts': V1_SERVER, 'src/util.ts': PLAIN_MODULE });
    const tty = terminal(true);
    await main(['migrate', '--dry-run', 'src'], tty.io);
    const shown = frames(tty.out.stderr);
    const phases = [...new Set(shown.map((frame) => /\d% {2}(.+?) {2}\d+s$/.exec(frame)?.[1] ?? /^mrtr-codemod (\D+?) (?:\d+ )? *\d+s$/.exec(frame)?.[1]))];
    expect(phases).toEqual([
      'finding files',
      'reading and migrating',
      'upgrading v1 files (official codemod)',
      'finishing files',
      'writing the request-state module',
      'updating package.json',
    ]);
    // 3 files and 2 upgrades: the v1 pass counts each file it upgrades. (Whether 2/5 is drawn
    // depends on the redraw interval: the two upgrades may end within it.)
    expect(shown).toContainEqual(expect.stringMatching(/ 1\/5 {2}20% {2}upgrading v1 files \(official codemod\)/));
    expect(shown).toContainEqual(expect.stringMatching(/ 3\/5 {2}60% {2}finishing files/));
    const counts = shown.flatMap((frame) => / (\d)\/\d /.exec(frame)?.[1] ?? []).map(Number);
    expect(counts).toEqual([...counts].sort());
    expect(counts.at(-1)).toBe(5);
  });

  it('counts files as they are found, redraws at most every interval between phases, and every second regardless', () => {
    let clock = 0;
    let text = '';
    const progress = createProgress({ enabled: true, write: (t) => void (text += t), now: () => clock, columns: 80, tickMs: 0 });
    progress.phase('finding files');
    expect(frames(text)).toEqual(['mrtr-codemod finding files  0s']);
    clock = 50;
    progress.tick(); // within the interval: not drawn
    clock = 150;
    progress.tick();
    expect(frames(text).at(-1)).toBe('mrtr-codemod finding files 2  0s');
    progress.phase('reading and migrating', 10);
    // The bar gives way to the label (80 columns).
    expect(frames(text).at(-1)).toBe('mrtr-codemod [........................] 0/10   0%  reading and migrating  0s');
    clock = 2300;
    for (let i = 0; i < 3; i++) progress.tick();
    expect(frames(text).at(-1)).toBe('mrtr-codemod [##......................] 1/10  10%  reading and migrating  2s');
    for (let i = 0; i < 7; i++) progress.tick();
    expect(frames(text).at(-1)).toBe('mrtr-codemod [########################] 10/10 100%  reading and migrating  2s');
    progress.done();
    expect(text.endsWith('\r\x1b[2K')).toBe(true);

    let off = '';
    const disabled = createProgress({ enabled: false, write: (t) => void (off += t) });
    disabled.phase('finding files');
    disabled.phase('reading and migrating', 1000);
    for (let i = 0; i < 1000; i++) disabled.tick();
    disabled.done();
    expect(off).toBe('');
  });
});

describe('--patch and --report', () => {
  /** A folder beside the repository, standing for everything outside it. */
  async function outsideFolder(): Promise<string> {
    const outside = await mkdtemp(path.join(PROJECT_TMP, 'safety-outside-'));
    outsideFolders.push(outside);
    await writeFile(path.join(outside, 'victim.txt'), 'precious\n');
    return outside;
  }
  const outsideFolders: string[] = [];
  afterEach(async () => {
    for (const folder of outsideFolders.splice(0)) await rm(folder, { recursive: true, force: true });
  });
  const tempLeft = async (root: string) => (await readdir(root, { recursive: true })).filter((f) => String(f).endsWith('.mrtr-tmp'));

  it('are never written through a committed symbolic link, even with --dry-run, and a refusal touches no source', async () => {
    const outside = await outsideFolder();
    await tree(dir, { 'src/server.ts': ELICIT_SERVER });
    await symlink(path.join(outside, 'victim.txt'), path.join(dir, 'mrtr.patch'));
    await symlink(path.join(outside, 'victim.txt'), path.join(dir, 'mrtr.html'));
    await symlink(outside, path.join(dir, 'reports'));
    await repo({});
    const before = await snapshot(dir);

    const dry = await cli(dir, 'migrate', '--dry-run', '--patch', 'mrtr.patch', '--report', 'mrtr.html', 'src');
    expect(dry).toMatchObject({ code: 2, stdout: '' });
    expect(dry.stderr).toBe('mrtr-codemod: --patch mrtr.patch: is a symbolic link; it is not written through (remove the link or name another file)\n');
    const report = await cli(dir, 'migrate', '--report', 'mrtr.html', 'src');
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('--report mrtr.html: is a symbolic link');
    const folder = await cli(dir, 'migrate', '--patch', 'reports/mrtr.patch', 'src');
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('--patch reports/mrtr.patch: its folder leads out of the current directory through a symbolic link');

    expect(await readFile(path.join(outside, 'victim.txt'), 'utf8')).toBe('precious\n');
    expect(await readdir(outside)).toEqual(['victim.txt']);
    expect(await snapshot(dir)).toEqual(before);
    expect(await isMigrated('src/server.ts')).toBe(false);
  });

  it('never replace a file that holds anything but an earlier output of theirs (an untracked .env, notes), even with --dry-run', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER });
    await writeFile(path.join(dir, '.env'), 'SECRET=1\n');
    await writeFile(path.join(dir, 'notes.md'), '# notes\n');
    // Another tool's diff is not ours either: its first line is a header a patch of ours never has.
    await writeFile(path.join(dir, 'theirs.patch'), 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n');
    const before = await snapshot(dir);
    const refused = async (option: string, file: string, what: string) => {
      const run = await cli(dir, 'migrate', '--dry-run', `${option}=${file}`, 'src');
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toBe(`mrtr-codemod: ${option} ${file}: exists and is not ${what}; it is not overwritten (remove it or name another file)\n`);
    };
    await refused('--patch', '.env', 'a patch mrtr-codemod wrote');
    await refused('--report', 'notes.md', 'a review page mrtr-codemod wrote');
    await refused('--patch', 'theirs.patch', 'a patch mrtr-codemod wrote');
    await refused('--report', '.env', 'a review page mrtr-codemod wrote');
    expect(await snapshot(dir)).toEqual(before);

    // An empty file, and the outputs of an earlier run, are replaced.
    await writeFile(path.join(dir, 'out.patch'), '');
    for (let run = 0; run < 2; run++) {
      const written = await cli(dir, 'migrate', '--dry-run', '--patch', 'out.patch', '--report', 'out.html', 'src');
      expect(written.code, written.stderr).toBe(0);
    }
    expect(await read('out.patch')).toMatch(/^--- a\/src\/server\.ts\n/);
    expect(await read('out.html')).toContain('<title>mrtr-codemod review</title>');
    expect(await read('.env')).toBe('SECRET=1\n');
  });

  it('a path that cannot be written is found before any source is touched', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER });
    const tooLong = `${'x'.repeat(300)}.patch`;
    const result = await cli(dir, 'migrate', '--patch', tooLong, 'src');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mrtr-codemod: --patch x+\.patch: cannot be written: file name too long\n$/);
    expect(await isMigrated('src/server.ts')).toBe(false);
    if (process.platform === 'linux') {
      const proc = await cli(dir, 'migrate', '--report', '/proc/mrtr.html', 'src');
      expect(proc.code).toBe(2);
      expect(proc.stderr).toBe('mrtr-codemod: --report /proc/mrtr.html: cannot be written: no such file or directory\n');
      expect(await isMigrated('src/server.ts')).toBe(false);
    }
    expect(await tempLeft(dir)).toEqual([]);
  });

  it('are written whole after the run, with no temporary file left, and nothing is left reserved by a refused run', async () => {
    await repo({ 'src/server.ts': ELICIT_SERVER });
    await writeFile(path.join(dir, 'src/new.ts'), PLAIN_MODULE); // untracked: the guard refuses
    const refused = await cli(dir, 'migrate', '--patch', 'out.patch', 'src');
    expect(refused.code).toBe(2);
    expect(await readdir(dir)).not.toContain('out.patch');
    expect(await tempLeft(dir)).toEqual([]);

    await rm(path.join(dir, 'src/new.ts'));
    // Reserved inside the paths given: the reservation itself does not make the tree dirty.
    const written = await cli(dir, 'migrate', '--patch', 'out.patch', '--report', 'out.html', '.');
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect(await read('out.patch')).toContain('--- a/src/server.ts\n');
    expect(await read('out.html')).toContain('<html');
    expect(await tempLeft(dir)).toEqual([]);
  });
});

describe('the package.json a v1 upgrade edits', () => {
  const outsideFolders: string[] = [];
  afterEach(async () => {
    for (const folder of outsideFolders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  it('is only one inside the work tree and the current directory: one above the work tree is left, with a warning', async () => {
    // dir/package.json above dir/repo, the git work tree the run is in.
    await writeFile(path.join(dir, 'package.json'), V1_MANIFEST);
    const repoDir = path.join(dir, 'repo');
    await tree(repoDir, { 'src/server.ts': V1_SERVER });
    await git(repoDir, 'init', '-q');
    await git(repoDir, 'add', '-A');
    await git(repoDir, 'commit', '-q', '-m', 'start');

    // From the work tree: the manifest is above the directory the run is in.
    const inside = await cli(repoDir, 'migrate', '--dry-run', 'src');
    expect(inside.stdout).toContain(
      '  ../package.json:1  warning  outside the directory the run is in, so not edited: add @modelcontextprotocol/server ^2.4.0 to it by hand',
    );
    expect(inside.stdout).toContain('Files to change: 2 (dry run: nothing written)\n  src/server.ts\n  src/mrtr-request-state.ts\n');

    // From above it: the manifest is in the directory the run is in, but outside the work tree.
    const above = await cli(dir, 'migrate', 'repo/src');
    expect(above.stderr).toBe('');
    expect(above.stdout).toContain(
      '  package.json:1  warning  outside the git work tree, so not edited: add @modelcontextprotocol/server ^2.4.0 to it by hand',
    );
    expect(above.stdout).toContain('Files changed: 2\n  repo/src/server.ts\n  repo/src/mrtr-request-state.ts\n');
    expect(await readFile(path.join(dir, 'package.json'), 'utf8')).toBe(V1_MANIFEST);
    expect(await readFile(path.join(repoDir, 'src/server.ts'), 'utf8')).toContain('inputRequired.elicit(');
  });

  it('is never edited through a symbolic link', async () => {
    const outside = await mkdtemp(path.join(PROJECT_TMP, 'safety-outside-'));
    outsideFolders.push(outside);
    await writeFile(path.join(outside, 'package.json'), V1_MANIFEST);
    await symlink(path.join(outside, 'package.json'), path.join(dir, 'package.json'));
    await repo({ 'src/server.ts': V1_SERVER });

    const result = await cli(dir, 'migrate', 'src');
    expect(await readFile(path.join(outside, 'package.json'), 'utf8')).toBe(V1_MANIFEST);
    expect(result.stdout).toContain('  package.json  is a symbolic link; not edited through it (update it by hand)\n');
    expect(result.code).not.toBe(0);
  });

  it('is covered by the dirty-tree guard', async () => {
    await repo({ 'package.json': V1_MANIFEST, 'src/server.ts': V1_SERVER });
    await writeFile(path.join(dir, 'package.json'), V1_MANIFEST.replace('"demo"', '"renamed"'));
    const before = await snapshot(dir);

    const result = await cli(dir, 'migrate', 'src');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('1 file has uncommitted changes in git under the given paths:\n   M package.json\n');
    expect(await snapshot(dir)).toEqual(before);
    // A manifest the upgrade would not change does not block a run.
    const v2 = '{ "dependencies": { "@modelcontextprotocol/server": "^2.4.0" } }\n';
    await writeFile(path.join(dir, 'package.json'), v2);
    await git(dir, 'commit', '-q', '-am', 'v2');
    await writeFile(path.join(dir, 'package.json'), v2.replace('{ ', '{ "name": "x", '));
    await writeFile(path.join(dir, 'src/server.ts'), ELICIT_SERVER);
    await git(dir, 'commit', '-q', '-m', 'server', '--', 'src/server.ts');
    expect((await cli(dir, 'migrate', 'src')).code).toBe(0);
  });

  it('is refused with a clear error when it has a key twice; the rest of the run goes on', async () => {
    const twice = '{\n  "dependencies": { "@modelcontextprotocol/sdk": "^1.32.2" },\n  "dependencies": { "zod": "^4.2.0" }\n}\n';
    await repo({ 'package.json': twice, 'src/server.ts': V1_SERVER });

    const result = await cli(dir, 'migrate', 'src');
    expect(result.stdout).toContain(
      '  package.json  cannot update: package.json has the key "dependencies" twice in one object (lines 2 and 3); remove one of them\n',
    );
    expect(await read('package.json')).toBe(twice);
    expect(await read('src/server.ts')).toContain('inputRequired.elicit(');
    expect(result.code).not.toBe(0);
  });
});

describe('a source named on the command line', () => {
  let outside: string;
  beforeEach(async () => {
    outside = await mkdtemp(path.join(PROJECT_TMP, 'safety-outside-'));
  });
  afterEach(async () => {
    await rm(outside, { recursive: true, force: true });
  });

  it('is not followed through a symbolic link out of the directory the run is in', async () => {
    await writeFile(path.join(outside, 'victim.ts'), ELICIT_SERVER);
    await mkdir(path.join(dir, 'src'));
    // A committed relative link, as a hostile repository holds it (src/evil.ts -> ../../outside/victim.ts).
    await symlink(path.relative(path.join(dir, 'src'), path.join(outside, 'victim.ts')), path.join(dir, 'src/evil.ts'));
    await symlink(outside, path.join(dir, 'linked'));
    await repo({ 'src/server.ts': ELICIT_SERVER });

    const result = await cli(dir, 'migrate', 'src/evil.ts', 'src/server.ts', 'linked', 'linked/victim.ts');
    expect(await readFile(path.join(outside, 'victim.ts'), 'utf8')).toBe(ELICIT_SERVER);
    expect(await readdir(outside)).toEqual(['victim.ts']);
    expect(await isMigrated('src/server.ts')).toBe(true);
    expect(result.stdout).toContain('  src/evil.ts  symbolic link to a file outside the directory the run is in; not followed');
    expect(result.stdout).toContain('  linked  symbolic link to a folder outside the directory the run is in; not followed');
    expect(result.stdout).toContain('  linked/victim.ts  symbolic link to a file outside the directory the run is in; not followed');
  });

  it('through a link inside the directory is taken by its real path, never written through the link', async () => {
    await mkdir(path.join(dir, 'src'));
    await symlink('server.ts', path.join(dir, 'src/alias.ts'));
    await repo({ 'src/server.ts': ELICIT_SERVER });
    const result = await cli(dir, 'migrate', 'src/alias.ts');
    expect(result.stdout).toContain('Files changed: 2\n  src/server.ts\n');
    expect(await isMigrated('src/server.ts')).toBe(true);
    expect((await lstat(path.join(dir, 'src/alias.ts'))).isSymbolicLink()).toBe(true);
  });
});

describe('a tracked file that cannot be read', () => {
  // A mode of 000 keeps every user out but root, who reads any file: run as root, the test runs
  // the CLI as nobody, who then owns the repository (git works only in one its user owns).
  const NOBODY = { uid: 65534, gid: 65534 };
  const asRoot = process.getuid?.() === 0;

  async function giveTo(root: string, owner: { uid: number; gid: number }): Promise<void> {
    await lchown(root, owner.uid, owner.gid);
    for (const entry of await readdir(root, { recursive: true })) await lchown(path.join(root, String(entry)), owner.uid, owner.gid);
  }

  it('is reported, in a folder that cannot be listed too, and check exits 2', async (ctx) => {
    await repo({ 'src/locked/server.ts': ELICIT_SERVER, 'src/locked/util.ts': PLAIN_MODULE, 'src/closed.ts': ELICIT_SERVER, 'src/open.ts': ELICIT_SERVER });
    await chmod(dir, 0o755);
    const user = asRoot ? NOBODY : undefined;
    if (user) {
      await giveTo(dir, user);
      // nobody must reach the checkout and its node_modules to run the CLI at all.
      if ((await runCli(dir, ['--version'], { NO_COLOR: '1', HOME: dir }, user)).code !== 0)
        ctx.skip('run as root, and nobody cannot read this checkout to run the CLI as nobody');
    }
    await chmod(path.join(dir, 'src/locked'), 0o000);
    await chmod(path.join(dir, 'src/closed.ts'), 0o000);
    try {
      const check = await runCli(dir, ['check', 'src'], { NO_COLOR: '1', HOME: dir }, user);
      expect(check.stdout.split('\n').slice(1)).toEqual([
        'src/closed.ts  read-error  cannot read: permission denied',
        'src/locked/server.ts  discover-error  permission denied',
        'src/locked/util.ts  discover-error  permission denied',
        'mrtr-codemod check: 1 finding in 1 file (1 can be rewritten by `mrtr-codemod migrate`), 3 errors, 2 files checked',
        '',
      ]);
      expect(check.code).toBe(2);
      const migrate = await runCli(dir, ['migrate', '--dry-run', 'src'], { NO_COLOR: '1', HOME: dir }, user);
      expect(migrate.stdout).toContain('Errors: 3\n');
      expect(migrate.code).toBe(2);
    } finally {
      await chmod(path.join(dir, 'src/locked'), 0o755);
      await chmod(path.join(dir, 'src/closed.ts'), 0o644);
    }
  });
});
