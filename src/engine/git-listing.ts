// The files git lists under a folder of a work tree (`git ls-files --cached --others
// --exclude-standard`): git reads its index and matches every .gitignore (and
// .git/info/exclude, and the user's core.excludesFile) in C, several times faster than a walk
// that matches them in JavaScript (bench/README.md). Only the listing comes from git: the
// folders a walk passes over, links, and folders git lists whole (a submodule, a repository
// inside the tree) are handled by the walk's own rules (discover.ts).
import { execFileSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import path from 'node:path';

export interface GitEntry {
  /** Relative to the folder listed, with `/` separators; a folder listed whole ends with `/`. */
  path: string;
  /** Tracked: git's mode (`100644`, `120000` a link, `160000` a submodule). Untracked: none. */
  mode?: string;
  /** A tracked file that is there but cannot be reached (a folder without read or search permission): why. */
  unreadable?: NodeJS.ErrnoException;
}

/** `<tag> <mode> <object> <stage>\t<path>` of a tracked file (`git ls-files -t -s`). */
const TRACKED = /^([A-Z]) (\d{6}) [0-9a-f]+ \d\t([\s\S]*)$/;

/**
 * What git lists under `dir`: the files it tracks that are on the disk, and the untracked ones
 * it does not ignore; undefined when git cannot say (not installed, not a work tree it trusts,
 * an error). Git takes a tracked file it cannot reach (in a folder it may not list) for a
 * deleted one: such a file is listed with the reason, never passed over in silence.
 */
export function gitListing(dir: string, skippedFolders: Iterable<string>): GitEntry[] | undefined {
  // The folders a walk never enters are left out by git too (a node_modules nobody ignores
  // would otherwise be listed file by file).
  const excluded = [...skippedFolders].map((name) => `:(exclude,glob)**/${name}/**`);
  let out: string;
  try {
    // -t tags each entry: `H` tracked, `R` tracked and deleted (listed again), `S` left out of a
    // sparse checkout, `?` untracked.
    out = execFileSync('git', ['ls-files', '-z', '-t', '--stage', '--cached', '--deleted', '--others', '--exclude-standard', '--', '.', ...excluded], {
      cwd: dir,
      env: gitEnvironment(),
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    });
  } catch {
    return undefined;
  }
  const tracked = new Map<string, string>();
  const gone = new Set<string>();
  const untracked: GitEntry[] = [];
  for (const record of out.split('\0')) {
    if (record.startsWith('? ')) untracked.push({ path: record.slice(2) });
    const entry = TRACKED.exec(record);
    if (!entry) continue;
    if (entry[1] === 'H') tracked.set(entry[3]!, entry[2]!);
    else gone.add(entry[3]!);
  }
  const unreadable: GitEntry[] = [];
  for (const file of gone) {
    const mode = tracked.get(file);
    tracked.delete(file);
    const error = unreachable(path.join(dir, file));
    if (error) unreadable.push({ path: file, ...(mode ? { mode } : {}), unreadable: error });
  }
  return [...untracked, ...[...tracked].map(([file, mode]) => ({ path: file, mode })), ...unreadable];
}

/** Why a file git reports deleted cannot be reached, when it may be there (not a missing one). */
function unreachable(file: string): NodeJS.ErrnoException | undefined {
  try {
    lstatSync(file);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : (error as NodeJS.ErrnoException);
  }
}

/**
 * This process's environment without what would point git elsewhere than the folder's own work
 * tree, or read the pathspecs otherwise (a run from a git hook inherits GIT_DIR and GIT_INDEX_FILE).
 */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_LITERAL_PATHSPECS',
    'GIT_GLOB_PATHSPECS',
    'GIT_NOGLOB_PATHSPECS',
    'GIT_ICASE_PATHSPECS',
  ])
    delete env[name];
  return env;
}
