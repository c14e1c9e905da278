// The dirty-tree guard: before a run writes, the paths it was given must have no uncommitted
// changes in git, so that afterwards `git diff` shows exactly what the codemod did and
// `git checkout` undoes it. "Changes" is what `git status --porcelain` lists under those
// paths: modified, staged, deleted, renamed, conflicted and untracked files (an untracked file
// has no committed copy to go back to). Ignored files are not listed, so they do not count.
//
// Paths outside any git work tree are not checked (there is nothing to compare with; review
// with --dry-run instead), and neither is anything when git is not installed: the guard never
// makes a run fail for lack of git. It only runs git read-only (`rev-parse`, `status`).
import { execFile } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { terminalText } from '../core/escape.ts';

export interface DirtyEntry {
  /** Relative to cwd, with `/` separators. */
  path: string;
  /** The two-letter porcelain status (` M`, `M `, `??`, `UU`, ...). */
  status: string;
}

export interface DirtyCheck {
  /** Whether git could be run at all. */
  gitAvailable: boolean;
  /** Roots of the git work trees the paths are in (absolute, real paths). */
  workTrees: string[];
  /** Paths given that are in no git work tree (absolute). */
  outside: string[];
  /** Uncommitted changes under the paths given, sorted by path, without duplicates. */
  dirty: DirtyEntry[];
}

interface GitResult {
  code: number | 'missing';
  stdout: string;
}

function git(args: readonly string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', ['--literal-pathspecs', ...args], { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 30_000, windowsHide: true }, (error, stdout) => {
      if (!error) return resolve({ code: 0, stdout });
      const e = error as NodeJS.ErrnoException & { code?: unknown };
      // ENOENT: no git on PATH (or cwd vanished): treated as "no git".
      if (e.code === 'ENOENT' || typeof e.code !== 'number') return resolve({ code: 'missing', stdout: '' });
      resolve({ code: e.code, stdout });
    });
  });
}

/** What `git status` reports under each of `paths` (relative to `cwd` or absolute). */
export async function checkDirtyTree(paths: readonly string[], cwd: string): Promise<DirtyCheck> {
  const check: DirtyCheck = { gitAvailable: true, workTrees: [], outside: [], dirty: [] };
  const seen = new Map<string, DirtyEntry>();
  const realCwd = await realpath(cwd).catch(() => cwd);

  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(absolute)).isDirectory();
    } catch {
      continue; // a missing path is reported by discovery; there is nothing to overwrite there
    }
    // git runs in the directory itself (or the file's directory), with a pathspec relative to it.
    const dir = isDirectory ? absolute : path.dirname(absolute);
    const pathspec = isDirectory ? '.' : path.basename(absolute);

    const top = await git(['rev-parse', '--show-toplevel'], dir);
    if (top.code === 'missing') {
      check.gitAvailable = false;
      return check;
    }
    if (top.code !== 0 || top.stdout.trim() === '') {
      check.outside.push(absolute);
      continue;
    }
    const root = top.stdout.replace(/\r?\n$/, '');
    if (!check.workTrees.includes(root)) check.workTrees.push(root);

    const status = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', pathspec], dir);
    if (status.code !== 0) {
      check.outside.push(absolute);
      continue;
    }
    for (const entry of parsePorcelainZ(status.stdout)) {
      // Porcelain paths are relative to the work tree's root, whatever directory git ran in.
      const display = path.relative(realCwd, path.join(root, entry.path)).split(path.sep).join('/');
      if (!seen.has(display)) seen.set(display, { path: display, status: entry.status });
    }
  }
  check.dirty = [...seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return check;
}

/** Entries of `git status --porcelain=v1 -z`: `XY path\0`, and `XY to\0from\0` for renames and copies. */
export function parsePorcelainZ(output: string): { status: string; path: string }[] {
  const entries: { status: string; path: string }[] = [];
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const status = field.slice(0, 2);
    entries.push({ status, path: field.slice(3) });
    if (status[0] === 'R' || status[0] === 'C') i++; // the next field is the source path
  }
  return entries;
}

/** The refusal printed when the tree is dirty: what, which files (a few), and the ways out. */
export function formatDirtyRefusal(check: DirtyCheck, shown = 5): string {
  const { dirty } = check;
  const lines = [
    `mrtr-codemod: refusing to write: ${dirty.length === 1 ? '1 file has' : `${dirty.length} files have`} uncommitted changes in git under the given paths:`,
    ...dirty.slice(0, shown).map((entry) => `  ${entry.status} ${terminalText(entry.path)}`),
  ];
  if (dirty.length > shown) lines.push(`  ... and ${dirty.length - shown} more (git status lists them)`);
  lines.push(
    'Commit or stash them first, so that `git diff` shows exactly what the codemod changed and `git checkout` undoes it;',
    'or review with --dry-run; or pass --force to write anyway.',
  );
  return lines.join('\n') + '\n';
}
