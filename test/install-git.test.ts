// The README's install from git, as a user runs it: in a server project beside a clone of this
// repository, `npm install --save-dev "git+<the address the clone came from>"`, which has npm
// clone the repository, install its dependencies and build it (its prepare script), pin the
// commit in the lockfile, and install the package that build makes; then the project's
// `npx --no-install mrtr-codemod` runs it. The repository cloned is this work tree as it is
// (its tracked and new files, committed into a repository of the test's own), reached by a
// file:// address. No network: npm's registry is this project's lockfile, served from the npm
// cache `npm ci` filled (test/support/user-npm.ts). It is the slowest test: npm installs every
// development dependency to build the package, as it does for a user.
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELICIT_SERVER } from './engine-samples.ts';
import { git } from './support/cli.ts';
import { putFile } from './support/scratch.ts';
import { MINUTES, PROJECT, shellLines, userNpm, type UserNpm } from './support/user-npm.ts';

let root: string;
let npm: UserNpm;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mrtr-git-install-'));
  npm = await userNpm(root);
});

afterAll(async () => {
  await npm?.close();
  await rm(root, { recursive: true, force: true });
});

/** This work tree's files (tracked and new, not ignored), committed into a repository at `dir`; returns the commit. */
async function snapshotRepository(dir: string): Promise<string> {
  await mkdir(dir);
  const listed = (await git(PROJECT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard')).split('\0').filter(Boolean);
  for (const file of new Set(listed)) {
    // A tracked file deleted in the work tree is listed too.
    await cp(path.join(PROJECT, file), path.join(dir, file), { recursive: true, verbatimSymlinks: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await git(dir, 'init', '-q');
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'snapshot');
  return (await git(dir, 'rev-parse', 'HEAD')).trim();
}

describe('the install from git the README gives', () => {
  it(
    'installs the package npm builds from the clone, pins its commit, and runs it',
    async () => {
      const commit = await snapshotRepository(path.join(root, 'repository'));
      await git(root, 'clone', '-q', `file://${path.join(root, 'repository')}`, 'mrtr-codemod');
      const app = path.join(root, 'my-server');
      await putFile(app, 'package.json', '{ "name": "my-server", "version": "1.0.0", "private": true }\n');
      await putFile(app, 'src/server.ts', ELICIT_SERVER);

      const fromGit = shellLines(await readFile(path.join(PROJECT, 'README.md'), 'utf8'), '## Install').filter((line) => line.includes('git+'));
      expect(fromGit).toEqual(['npm install --save-dev "git+$(git -C ../mrtr-codemod remote get-url origin)"']);
      const installed = await npm.line(fromGit[0]!, app, 15 * MINUTES);
      expect(installed.code, `${installed.stderr}\nasked for and not served: ${npm.misses().join(', ')}`).toBe(0);

      const manifest = JSON.parse(await readFile(path.join(app, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
      expect(manifest.devDependencies).toEqual({ 'mrtr-codemod': `git+file://${path.join(root, 'repository')}` });
      const lock = JSON.parse(await readFile(path.join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
      expect(lock.packages['node_modules/mrtr-codemod']!.resolved).toBe(`git+file://${path.join(root, 'repository')}#${commit}`);

      const dry = await npm.sh('npx', ['--no-install', 'mrtr-codemod', 'migrate', '--dry-run', 'src/'], app);
      expect(dry.code, dry.stderr).toBe(0);
      // The project imports the server without declaring it: package.json gets it, first in the patch.
      expect(dry.stdout.startsWith('--- a/package.json\n+++ b/package.json\n@@ ')).toBe(true);
      expect(dry.stdout).toContain('\n--- a/src/server.ts\n+++ b/src/server.ts\n@@ ');
      expect(dry.stdout).toContain("+        answer: inputRequired.elicit({ message: 'Go?'");
    },
    20 * MINUTES,
  );
});
