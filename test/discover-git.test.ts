// Discovery against git itself: on a tree of nested .gitignore files (negations, directory
// patterns, anchored and `**` patterns, character classes, escapes, a byte-order mark, a
// folder re-included by a deeper file, .git/info/exclude), the files a walk takes are the
// source files `git ls-files --cached --others --exclude-standard` lists, from the top and
// from a subdirectory, and what the ignore rules say of every file and folder on disk is what
// `git check-ignore` says.
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverFiles, isSourceFile } from '../src/engine/discover.ts';
import { GitIgnoreRules } from '../src/engine/gitignore-rules.ts';
import { git } from './support/cli.ts';

const PROJECT_TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));

const IGNORE_FILES: Record<string, string> = {
  // A byte-order mark first, as some editors write it: the first pattern still counts.
  '.gitignore': [
    '\ufeff*.gen.ts',
    '!keep.gen.ts',
    'out-dir/',
    '/top-only.ts',
    'docs/**/*.ts',
    '# a comment',
    '\\#hash.ts',
    '\\!bang.ts',
    'trailing.ts   ',
    'logs/',
    '!logs/keep/',
    '[ab]-*.ts',
    '**/deep/x.ts',
    'cache',
    'wild/*',
    'q?.ts',
    '',
  ].join('\n'),
  'src/.gitignore': '\ufefflocal.ts\n/anchored.ts\nnested/\n!important.gen.ts\n*.tmp.ts\r\nwindows.ts\r\n',
  'src/sub/.gitignore': '!local.ts\n*.js\n!*.keep.js\n',
  're/.gitignore': '*.gen/\n',
  're/sub/.gitignore': '!keep.gen/\n',
  'lib/.gitignore': 'top-only.ts\n!/cache\n',
};

const SOURCES = [
  'index.ts',
  'a-one.ts',
  'b-two.ts',
  'c-three.ts',
  'x.gen.ts',
  'keep.gen.ts',
  'top-only.ts',
  '#hash.ts',
  '!bang.ts',
  'trailing.ts',
  'q1.ts',
  'qq1.ts',
  'space name.ts',
  'out-dir/a.ts',
  'out-dir/inner/b.ts',
  'deeper/out-dir/c.ts',
  'docs/guide/a.ts',
  'docs/a.ts',
  'docs/guide/a.js',
  'logs/a.ts',
  'logs/keep/b.ts',
  'cache/a.ts',
  'src/cache.ts',
  'lib/cache/a.ts',
  'wild/a.ts',
  'wild/inner/b.ts',
  'src/index.ts',
  'src/local.ts',
  'src/anchored.ts',
  'src/more/anchored.ts',
  'src/nested/a.ts',
  'src/more/nested/b.ts',
  'src/important.gen.ts',
  'src/other.gen.ts',
  'src/x.tmp.ts',
  'src/windows.ts',
  'src/sub/local.ts',
  'src/sub/a.js',
  'src/sub/a.keep.js',
  'src/sub/deep/x.ts',
  'src/sub/deep/y.ts',
  'src/sub/lib/top-only.ts',
  're/a.gen/x.ts',
  're/sub/keep.gen/x.ts',
  're/sub/other.gen/x.ts',
  're/sub/keep.gen/y.gen.ts',
  'lib/top-only.ts',
  'lib/inner/top-only.ts',
  'lib/ok.ts',
  'private/secret.ts',
  'private/more/secret.ts',
];

let dir: string;

beforeAll(async () => {
  await mkdir(PROJECT_TMP, { recursive: true });
  dir = await mkdtemp(path.join(PROJECT_TMP, 'discover-git-'));
  for (const [file, text] of [...Object.entries(IGNORE_FILES), ...SOURCES.map((file) => [file, `export const name = ${JSON.stringify(file)};\n`] as const)]) {
    await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await git(dir, 'init', '-q');
  await writeFile(path.join(dir, '.git', 'info', 'exclude'), 'private/\n');
  // Half the files committed (what git does not ignore), half left untracked: git lists both.
  await git(dir, 'add', '--', 'src', '.gitignore');
  await git(dir, 'commit', '-q', '-m', 'start');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = promisify(execFile);

/** The source files git lists in `cwd`, relative to it. */
async function gitListed(cwd: string): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd });
  return stdout
    .split('\0')
    .filter((file) => file !== '' && isSourceFile(file))
    .sort();
}

/** Of `paths` (relative to `cwd`), those `git check-ignore` reports as ignored. */
function gitCheckIgnore(cwd: string, paths: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // Exit 1: none of them is ignored.
    const child = execFile('git', ['check-ignore', '--stdin', '-z'], { cwd }, (error, stdout) => {
      if (error && error.code !== 1) reject(error);
      else resolve(stdout.split('\0').filter(Boolean));
    });
    child.stdin!.end(paths.join('\0') + '\0');
  });
}

/** Every file and folder under `root` but .git, relative, folders with a trailing `/`. */
async function everything(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (relative === '.git' || relative.startsWith('.git/')) continue;
    out.push(entry.isDirectory() ? `${relative}/` : relative);
  }
  return out.sort();
}

// Both ways discovery has in a work tree: git's own listing, and the walk (used elsewhere, and
// where git cannot list).
describe.each([
  ['listed by git', true],
  ['walked', false],
])('discovery agrees with git (%s)', (_way, listWithGit) => {
  it('takes the source files git lists, from the top of the work tree', async () => {
    const { files } = await discoverFiles(['.'], dir, { listWithGit });
    const taken = files.map((file) => path.relative(dir, file).split(path.sep).join('/')).sort();
    const listed = await gitListed(dir);
    expect(taken).toEqual(listed);
    // The tree is not trivial: some of every kind is taken and some left out.
    expect(listed).toContain('re/sub/keep.gen/x.ts');
    expect(listed).toContain('src/sub/local.ts');
    expect(listed).not.toContain('logs/keep/b.ts');
    expect(listed).not.toContain('x.gen.ts');
  });

  it('takes the source files git lists, from a subdirectory', async () => {
    for (const sub of ['src', 're/sub', 'lib']) {
      const { files } = await discoverFiles([sub], dir, { listWithGit });
      const taken = files.map((file) => path.relative(path.join(dir, sub), file).split(path.sep).join('/')).sort();
      expect(taken, sub).toEqual(await gitListed(path.join(dir, sub)));
    }
  });

  it('ignores every file and folder that git check-ignore reports, and no other', async () => {
    const paths = await everything(dir);
    const byGit = new Set(
      await gitCheckIgnore(
        dir,
        paths.map((p) => p.replace(/\/$/, '')),
      ),
    );
    const rules = GitIgnoreRules.forRoot(dir);
    const byRules = paths.filter((p) => rules.ignores(path.join(dir, p), p.endsWith('/'))).map((p) => p.replace(/\/$/, ''));
    expect(byRules.sort()).toEqual([...byGit].sort());
    expect(byGit.size).toBeGreaterThan(20);
  });
});

describe('discovery listed by git takes what the walk takes, and what git tracks', () => {
  it('with links in and out of the tree, a repository inside it, vendored and skipped folders, a tracked file gone from the disk; and a file git tracks although ignored', async () => {
    const root = await mkdtemp(path.join(PROJECT_TMP, 'discover-listed-'));
    const outside = await mkdtemp(path.join(PROJECT_TMP, 'discover-outside-'));
    try {
      const put = async (file: string, text = 'export const x = 1;\n') => {
        await mkdir(path.join(root, path.dirname(file)), { recursive: true });
        await writeFile(path.join(root, file), text);
      };
      await writeFile(path.join(outside, 'secret.ts'), 'export const secret = 1;\n');
      for (const file of [
        'src/a.ts',
        'src/gone.ts',
        'src/b.min.js',
        'src/notes.md',
        'vendor/lib/v.ts',
        'src/third_party/t.ts',
        'dist/d.ts',
        'lib/node_modules/m.ts',
        'inner/x.ts',
      ])
        await put(file);
      await put('.gitignore', 'ignored/\n');
      await put('ignored/i.ts');
      await put('ignored/forced.ts');
      // A temporary file of a run that is gone (a process that has exited).
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      await put(`src/.a.ts.${gone}.0123456789ab.mrtr-tmp`);
      await symlink(path.join(root, 'src', 'a.ts'), path.join(root, 'alias.ts'));
      await symlink(path.join(outside, 'secret.ts'), path.join(root, 'out-file.ts'));
      await symlink(outside, path.join(root, 'out-dir'));
      await symlink(path.join(root, 'src'), path.join(root, 'src-link'));
      await git(root, 'init', '-q');
      // Repositories inside the tree (git lists each as one folder): one untracked, one added as
      // a submodule is (a gitlink), whose name a walk passes over in the other.
      await git(path.join(root, 'inner'), 'init', '-q');
      await put('mod/m.ts');
      await put('lib/vendor/w.ts');
      for (const repo of ['mod', 'lib/vendor']) {
        await git(path.join(root, repo), 'init', '-q');
        await git(path.join(root, repo), 'add', '-A');
        await git(path.join(root, repo), 'commit', '-q', '-m', 'start');
      }
      await git(root, 'add', '--', 'mod', 'lib/vendor');
      await git(root, 'add', '--', '.gitignore', 'src/a.ts', 'src/gone.ts', 'alias.ts', 'out-file.ts', 'vendor');
      // Tracked although ignored (`git add -f`): git lists it, the walk cannot know it.
      await git(root, 'add', '-f', '--', 'ignored/forced.ts');
      await git(root, 'commit', '-q', '-m', 'start');
      await rm(path.join(root, 'src', 'gone.ts'));

      const listed = await discoverFiles(['.'], root, { listWithGit: true });
      const walked = await discoverFiles(['.'], root, { listWithGit: false });
      const relative = (d: typeof listed) => ({
        files: d.files.map((f) => path.relative(root, f)),
        skipped: d.skipped.map((s) => [path.relative(root, s.path), s.reason]),
        staleTemps: d.staleTemps.map((f) => path.relative(root, f)),
        problems: d.problems,
      });
      expect(relative(listed).files).toEqual(['ignored/forced.ts', 'inner/x.ts', 'mod/m.ts', 'src/a.ts']);
      expect(relative(listed)).toEqual({ ...relative(walked), files: ['ignored/forced.ts', ...relative(walked).files] });
      expect(relative(listed).skipped.map(([p]) => p)).toEqual(['lib/vendor', 'out-dir', 'out-file.ts', 'src/b.min.js', 'src/third_party', 'vendor']);
      expect(relative(listed).staleTemps).toEqual([`src/.a.ts.${gone}.0123456789ab.mrtr-tmp`]);
      // Run from a git hook, which points git at its own repository and index: git still lists this tree.
      const hook = { GIT_DIR: path.join(outside, 'no-repo'), GIT_INDEX_FILE: path.join(outside, 'no-index') };
      Object.assign(process.env, hook);
      try {
        expect(relative(await discoverFiles(['.'], root, { listWithGit: true }))).toEqual(relative(listed));
      } finally {
        for (const name of Object.keys(hook)) delete process.env[name];
      }
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});
