// Step 1 of a run: from the paths on the command line to the source files to look at.
// A file argument is taken as named (when it has a source extension); a directory is walked,
// skipping dependency and build output folders, and a symlink met during the walk is followed
// only when its target stays inside the directory that was given, so a run never edits files
// outside the tree the user pointed at. The result is absolute, sorted and deduplicated.
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export const SOURCE_EXTENSIONS: readonly string[] = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** Directory names never descended into (below a given root). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', '.git']);

export interface DiscoveryProblem {
  /** Absolute path of the argument or entry that could not be used. */
  path: string;
  message: string;
}

export interface Discovery {
  /** Absolute paths of candidate source files, sorted, without duplicates. */
  files: string[];
  /** Arguments that do not exist, directories that could not be listed, and the like. */
  problems: DiscoveryProblem[];
}

/** Whether a file name is a source file the codemod reads (declaration files are not). */
export function isSourceFile(fileName: string): boolean {
  const base = path.basename(fileName);
  if (/\.d\.[cm]?ts$/.test(base) || /\.d\.[^.]+\.[cm]?ts$/.test(base)) return false;
  return SOURCE_EXTENSIONS.includes(path.extname(base));
}

export async function discoverFiles(paths: readonly string[], cwd: string): Promise<Discovery> {
  const found = new Set<string>();
  const problems: DiscoveryProblem[] = [];

  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    let info;
    try {
      info = await stat(absolute);
    } catch (error) {
      problems.push({ path: absolute, message: describeFsError(error) });
      continue;
    }
    if (info.isDirectory()) {
      await walk(absolute, problems, found);
    } else if (info.isFile()) {
      // Named on the command line: taken when it is a source file, whatever directory it is in.
      if (isSourceFile(absolute)) found.add(absolute);
    } else {
      problems.push({ path: absolute, message: 'not a regular file or directory' });
    }
  }

  return { files: [...found].sort(compareCodeUnits), problems };
}

/**
 * Walks one root. Paths are reported as seen from the root as given: a symlink inside the
 * tree is replaced by where its target lives in that same tree, so a file reached both
 * directly and through a link is listed once, and never under the link's name (writing
 * through a link name would replace the link).
 */
async function walk(root: string, problems: DiscoveryProblem[], found: Set<string>): Promise<void> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (error) {
    problems.push({ path: root, message: describeFsError(error) });
    return;
  }
  const visited = new Set<string>();
  const asGiven = (real: string) => path.join(root, path.relative(realRoot, real));

  async function visitDirectory(dir: string, realDir: string): Promise<void> {
    if (visited.has(realDir)) return;
    visited.add(realDir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      problems.push({ path: dir, message: describeFsError(error) });
      return;
    }
    entries.sort((a, b) => compareCodeUnits(a.name, b.name));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
        await visitDirectory(full, path.join(realDir, entry.name));
      } else if (entry.isFile()) {
        if (isSourceFile(entry.name)) found.add(full);
      } else if (entry.isSymbolicLink()) {
        await visitLink(full);
      }
    }
  }

  async function visitLink(link: string): Promise<void> {
    let target: string;
    let info;
    try {
      target = await realpath(link);
      info = await lstat(target);
    } catch {
      return; // a dangling link is not a source file
    }
    if (!isInside(realRoot, target)) return;
    // A link to a skipped folder, or to something inside one, is skipped like the folder itself.
    if (info.isDirectory()) {
      if (!throughSkipped(realRoot, target)) await visitDirectory(asGiven(target), target);
    } else if (info.isFile() && isSourceFile(target) && !throughSkipped(realRoot, path.dirname(target))) {
      found.add(asGiven(target));
    }
  }

  await visitDirectory(root, realRoot);
}

/** Whether `dir` (inside `realRoot`) is, or lies below, a directory the walk skips. */
function throughSkipped(realRoot: string, dir: string): boolean {
  return path.relative(realRoot, dir).split(path.sep).some((part) => SKIPPED_DIRECTORIES.has(part));
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default:
      return e?.message ?? String(error);
  }
}

/** Locale-independent ordering, so output is the same on every machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
