// Step 1 of a run: from the paths on the command line to the source files to look at.
// A file argument is taken as named (when it has a source extension); a directory is walked,
// skipping dependency and build output folders, and a symlink met during the walk is followed
// only when its target stays inside the directory that was given, so a run never edits files
// outside the tree the user pointed at. The result is absolute, sorted and deduplicated.
//
// What a walk leaves out, and what it does not:
// - `node_modules`, `dist`, `build` and `.git` below a walked directory (a directory named on
//   the command line is walked even when it is one of them).
// - Vendored and minified code, with a note (Discovery.skipped): `vendor` and `third_party`
//   folders and `*.min.js` files below a walked directory (named ones are taken). Somebody
//   else's code, or a bundle built from sources that are migrated themselves.
// - A symbolic link out of the walked directory, with a note.
// - Files git ignores: the `.gitignore` files from the root of the git work tree down to each
//   file (nested ones included, deeper ones winning, as in git), and `.git/info/exclude`.
//   Outside a git work tree only the `.gitignore` files inside the walked directory count.
//   A path named on the command line is the user's explicit choice and is not subject to
//   .gitignore: a named file is always taken, and a named directory that git ignores is walked
//   with only the .gitignore files inside it (like `git add -f`, unlike a walk from above).
//   A named path through a symbolic link is held to the same rule as a link met in a walk: it
//   is followed only to a target inside the directory the run is in, and taken by its real path.
//   In a work tree the list comes from git itself (`git ls-files`, git-listing.ts: several times
//   quicker), so a file git tracks although a pattern matches it (added with `git add -f`) is
//   taken, and the user's `core.excludesFile` counts; the walk's own rules for links, skipped and
//   vendored folders still apply. Where git cannot list (not installed, a folder it ignores),
//   the folders are walked, and the walk reads neither git's index nor `core.excludesFile`.
//   test/discover-git.test.ts holds both to `git ls-files` and `git check-ignore`.
// - `include` / `exclude`: picomatch globs matched against the path relative to `cwd` (with
//   `/`); a glob that matches a directory covers everything below it. With includes, a file
//   must match one; a file matching an exclude is left out, whatever the includes say. These
//   apply to named files too: they are filters the user wrote on the same command line.
import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Matcher } from 'picomatch';
import { picomatch } from './globs.cjs';
import { staleTempFile } from './atomic-write.ts';
import { gitListing, type GitEntry } from './git-listing.ts';
import { GitIgnoreRules, type FolderRules } from './gitignore-rules.ts';
import { isInside } from './source-files.ts';

export const SOURCE_EXTENSIONS: readonly string[] = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** Directory names never descended into (below a given root). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', '.git']);

/** Directories of vendored code: not descended into either (below a given root), but noted. */
export const VENDORED_DIRECTORIES: ReadonlySet<string> = new Set(['vendor', 'third_party']);

const VENDORED_REASON = 'vendored code; name the folder to take it';

function vendoredSkip(folder: string): Skipped {
  return { path: folder, reason: VENDORED_REASON, vendored: true };
}

/** The first folder of a path (relative, with `/`) that a walk passes over: skipped, or vendored. */
const PASSED_OVER = new RegExp(`(^|/)(${[...SKIPPED_DIRECTORIES, ...VENDORED_DIRECTORIES].map((name) => name.replace(/\./g, '\\.')).join('|')})/`);

/** A minified script (`app.min.js`, `.min.mjs`, `.min.cjs`). */
const MINIFIED = /\.min\.[cm]?js$/;

/**
 * Whether a walk of the folders above it passes over the file at `relative` (a path with `/`):
 * a minified script, or a file in a vendored folder. (A file named on the command line is
 * taken all the same; a linter, which is handed files one by one, asks this.)
 */
export function passedOverByWalks(relative: string): boolean {
  const parts = relative.split('/');
  return MINIFIED.test(relative) || parts.slice(0, -1).some((part) => VENDORED_DIRECTORIES.has(part));
}

/** Why a walk passed over something a person might expect it to read. */
export interface Skipped {
  /** Absolute path of the folder or file. */
  path: string;
  reason: string;
  /** A vendored folder: its legacy requests are counted for the note (engine/vendored-requests.ts). */
  vendored?: true;
}

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
  /**
   * Temporary files of an earlier run that was killed before it could remove them (absolute):
   * met in the walk, or beside a file named on the command line. A run that writes removes them.
   */
  staleTemps: string[];
  /** Vendored folders, minified files and links out of the walked folder, passed over (sorted by path). */
  skipped: Skipped[];
}

export interface DiscoverOptions {
  /** Leave out what git ignores during a walk (default true). */
  gitignore?: boolean;
  /** In a git work tree, take the files git lists instead of walking the folders (default true; see git-listing.ts). */
  listWithGit?: boolean;
  /** picomatch globs relative to cwd: when given, a file must match one of them. */
  include?: readonly string[];
  /** picomatch globs relative to cwd: a file matching one is left out (exclude wins). */
  exclude?: readonly string[];
}

/** Whether a file name is a source file the codemod reads (declaration files are not). */
export function isSourceFile(fileName: string): boolean {
  const base = path.basename(fileName);
  if (/\.d\.[cm]?ts$/.test(base) || /\.d\.[^.]+\.[cm]?ts$/.test(base)) return false;
  return SOURCE_EXTENSIONS.includes(path.extname(base));
}

/**
 * The source files under `paths`; `onFound` is called as each is found (progress display).
 * The walk is synchronous (listing a folder and testing its entries against the ignore rules is
 * quicker done at once than as a promise per entry), and each folder's ignore rules are put
 * together once, when the walk enters it.
 */
export async function discoverFiles(paths: readonly string[], cwd: string, options: DiscoverOptions = {}, onFound?: () => void): Promise<Discovery> {
  const found = new FoundFiles(onFound);
  const problems: DiscoveryProblem[] = [];
  const staleTemps: string[] = [];
  const skipped: Skipped[] = [];
  const namedDirs = new Set<string>();
  const filter = pathFilter(cwd, options);

  const realCwd = realpathOr(cwd);
  for (const given of paths) {
    let absolute = path.resolve(cwd, given);
    let info;
    try {
      info = statSync(absolute);
    } catch (error) {
      problems.push({ path: absolute, message: describeFsError(error) });
      continue;
    }
    // A named path held to the walk's rule for links: one through a link is followed only when
    // its target stays inside the directory the run is in, and is then taken by its real path,
    // so a run never writes outside that tree, nor through a link's name.
    const real = realpathOr(absolute);
    if (real !== path.resolve(realCwd, path.relative(cwd, absolute))) {
      if (!isInside(realCwd, real)) {
        const what = info.isDirectory() ? 'a folder' : 'a file';
        skipped.push({
          path: absolute,
          reason: `symbolic link to ${what} outside the directory the run is in; not followed (run from a directory that holds its target)`,
        });
        continue;
      }
      absolute = path.join(path.resolve(cwd), path.relative(realCwd, real));
    }
    if (info.isDirectory()) {
      const rules = options.gitignore === false ? undefined : GitIgnoreRules.forRoot(absolute);
      walk(absolute, problems, found, { rules, filter, staleTemps, skipped }, options.listWithGit !== false);
    } else if (info.isFile()) {
      // Named on the command line: taken when it is a source file, whatever directory it is in
      // and whatever .gitignore says; only --include/--exclude still apply.
      if (isSourceFile(absolute) && filter.file(absolute)) {
        found.add(absolute);
        namedDirs.add(path.dirname(absolute));
      }
    } else {
      problems.push({ path: absolute, message: 'not a regular file or directory' });
    }
  }

  // Beside the files named on the command line (once a folder).
  for (const dir of namedDirs) {
    const names = await readdir(dir).catch(() => []);
    for (const name of names) if (staleTempFile(name)) staleTemps.push(path.join(dir, name));
  }
  skipped.sort((a, b) => compareCodeUnits(a.path, b.path));
  return { files: [...found.files].sort(compareCodeUnits), problems, staleTemps: [...new Set(staleTemps)].sort(compareCodeUnits), skipped };
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The files found so far, each told to `onFound` once. */
class FoundFiles {
  readonly files = new Set<string>();
  constructor(private readonly onFound?: () => void) {}
  add(file: string): void {
    if (this.files.has(file)) return;
    this.files.add(file);
    this.onFound?.();
  }
}

interface WalkContext {
  rules?: GitIgnoreRules;
  filter: PathFilter;
  staleTemps: string[];
  skipped: Skipped[];
}

/**
 * Walks one root. Paths are reported as seen from the root as given: a symlink inside the
 * tree is replaced by where its target lives in that same tree, so a file reached both
 * directly and through a link is listed once, and never under the link's name (writing
 * through a link name would replace the link).
 */
function walk(root: string, problems: DiscoveryProblem[], found: FoundFiles, context: WalkContext, listWithGit: boolean): void {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (error) {
    problems.push({ path: root, message: describeFsError(error) });
    return;
  }
  const tree = new TreeWalk(root, realRoot, problems, found, context);
  // Git lists a folder of its work tree that it does not ignore (one it ignores, named on the
  // command line, is walked with the .gitignore files inside it only: see above).
  const listed = listWithGit && context.rules?.fromWorkTree ? gitListing(root, SKIPPED_DIRECTORIES) : undefined;
  if (listed) tree.visitListed(listed);
  else tree.visitDirectory(root, realRoot);
}

/** One root's walk: the directories visited (by real path), and where what it finds goes. */
class TreeWalk {
  private readonly visited = new Set<string>();
  /** The root with a separator at the end, which a path below it starts with. */
  private readonly rootPrefix: string;

  constructor(
    private readonly root: string,
    private readonly realRoot: string,
    private readonly problems: DiscoveryProblem[],
    private readonly found: FoundFiles,
    private readonly context: WalkContext,
  ) {
    this.rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
  }

  visitDirectory(dir: string, realDir: string): void {
    if (this.visited.has(realDir)) return;
    this.visited.add(realDir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      this.problems.push({ path: dir, message: describeFsError(error) });
      return;
    }
    entries.sort((a, b) => compareCodeUnits(a.name, b.name));
    // The rules for this folder's entries: its parent's, and its own .gitignore's (git reads
    // one only when it is a regular file).
    const here = this.context.rules?.enter(
      dir,
      entries.some((e) => e.name === '.gitignore' && e.isFile()),
    );
    // `dir` is normalised (resolved, then joined with names): no path.join an entry.
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const entry of entries) this.visitEntry(entry, prefix + entry.name, realDir, here);
  }

  /**
   * The entries git lists under the root, as the walk would take them: what a walk passes over
   * (skipped and vendored folders, with a note for each vendored one), links followed as the
   * walk follows them, and folders git lists whole (a submodule, a repository inside the tree)
   * walked.
   */
  visitListed(entries: readonly GitEntry[]): void {
    const vendored = new Set<string>();
    // Links and folders listed whole, once every folder git went through counts as visited.
    const later: GitEntry[] = [];
    for (const entry of entries) {
      // A submodule is listed as a file: its own name may be one the walk passes over.
      const passed = PASSED_OVER.exec(entry.mode === '160000' ? `${entry.path}/` : entry.path);
      if (passed) {
        if (VENDORED_DIRECTORIES.has(passed[2]!)) vendored.add(entry.path.slice(0, passed.index + passed[0].length - 1));
        continue;
      }
      const name = entry.path.slice(entry.path.lastIndexOf('/', entry.path.length - 2) + 1);
      if (entry.unreadable) {
        this.unreadable(this.listedPath(entry.path), name, entry.unreadable);
      } else if (entry.mode === '100644' || entry.mode === '100755') {
        if (isSourceFile(name)) this.take(this.listedPath(entry.path), false);
      } else if (entry.mode !== undefined || entry.path.endsWith('/')) {
        later.push(entry);
      } else if (this.visitUntracked(this.listedPath(entry.path), name)) {
        later.push(entry);
      }
    }
    if (later.length > 0) this.visitListedLater(entries, later);
    for (const folder of [...vendored].sort(compareCodeUnits)) this.context.skipped.push(vendoredSkip(this.listedPath(folder)));
  }

  /** A tracked source file that cannot be reached: a problem of the run, as a folder that cannot be listed is. */
  private unreadable(full: string, name: string, error: unknown): void {
    if (isSourceFile(name) && this.context.filter.file(full)) this.problems.push({ path: full, message: describeFsError(error) });
  }

  /** An untracked file git lists (which may be a link): true when it is a link, to follow later. */
  private visitUntracked(full: string, name: string): boolean {
    const source = isSourceFile(name);
    const info = lstatSync(full, { throwIfNoEntry: false });
    if (info?.isSymbolicLink()) return true;
    if (source && info?.isFile()) this.take(full, false);
    else if (!source && staleTempFile(name)) this.context.staleTemps.push(full);
    return false;
  }

  private visitListedLater(entries: readonly GitEntry[], later: readonly GitEntry[]): void {
    this.visited.add(this.realRoot);
    for (const entry of entries) {
      for (let slash = entry.path.indexOf('/'); slash !== -1 && slash < entry.path.length - 1; slash = entry.path.indexOf('/', slash + 1))
        this.visited.add(path.join(this.realRoot, entry.path.slice(0, slash)));
    }
    for (const entry of later) {
      const full = this.listedPath(entry.path.replace(/\/$/, ''));
      if (entry.mode === '120000' || (entry.mode === undefined && !entry.path.endsWith('/'))) this.visitLink(full);
      else if (!this.context.filter.prunes(full)) this.visitDirectory(full, path.join(this.realRoot, path.relative(this.root, full)));
    }
  }

  /** The path of an entry git lists (relative to the root, with `/`). */
  private listedPath(relative: string): string {
    return this.rootPrefix + (path.sep === '/' ? relative : relative.split('/').join(path.sep));
  }

  /** One entry of a directory (`full` its path, in `realDir`), under its folder's rules. */
  private visitEntry(entry: Dirent, full: string, realDir: string, here: FolderRules | undefined): void {
    const { filter, skipped, staleTemps } = this.context;
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(entry.name)) return;
      if (filter.prunes(full) || here?.ignores(entry.name, true)) return;
      if (VENDORED_DIRECTORIES.has(entry.name)) skipped.push(vendoredSkip(full));
      else this.visitDirectory(full, path.join(realDir, entry.name));
    } else if (entry.isFile()) {
      if (isSourceFile(entry.name)) this.take(full, here?.ignores(entry.name, false) ?? false);
      else if (staleTempFile(entry.name)) staleTemps.push(full);
    } else if (entry.isSymbolicLink()) {
      // git tracks a link as a file: a link that git ignores is not followed.
      if (!here?.ignores(entry.name, false)) this.visitLink(full);
    }
  }

  private visitLink(link: string): void {
    const { realRoot } = this;
    const { rules, filter } = this.context;
    let target: string;
    let info;
    try {
      target = realpathSync(link);
      info = lstatSync(target);
    } catch {
      return; // a dangling link is not a source file
    }
    if (!isInside(realRoot, target)) {
      // Never followed out of the folder being walked, but said: the user may have expected it.
      if (info.isDirectory() || (info.isFile() && isSourceFile(target))) {
        this.context.skipped.push({
          path: link,
          reason: `symbolic link to ${info.isDirectory() ? 'a folder' : 'a file'} outside the folder being walked; not followed`,
        });
      }
      return;
    }
    // A link to a skipped folder, or to something inside one, is skipped like the folder itself;
    // so is one to an ignored or excluded place (checked where the target lives in this tree).
    if (info.isDirectory()) {
      const dir = this.asGiven(target);
      if (throughSkipped(realRoot, target) || filter.prunes(dir) || rules?.ignores(dir, true)) return;
      this.visitDirectory(dir, target);
    } else if (info.isFile() && isSourceFile(target) && !throughSkipped(realRoot, path.dirname(target))) {
      const file = this.asGiven(target);
      this.take(file, rules?.ignores(file, false) ?? false);
    }
  }

  /** Where a real path inside the root is, as seen from the root as given. */
  private asGiven(real: string): string {
    return path.join(this.root, path.relative(this.realRoot, real));
  }

  private take(file: string, ignored: boolean): void {
    if (ignored || !this.context.filter.file(file)) return;
    if (MINIFIED.test(file)) this.context.skipped.push({ path: file, reason: 'minified code; name the file to take it' });
    else this.found.add(file);
  }
}

/** Whether `dir` (inside `realRoot`) is, or lies below, a directory the walk skips. */
function throughSkipped(realRoot: string, dir: string): boolean {
  return path
    .relative(realRoot, dir)
    .split(path.sep)
    .some((part) => SKIPPED_DIRECTORIES.has(part) || VENDORED_DIRECTORIES.has(part));
}

// --- --include / --exclude ------------------------------------------------------------------

interface PathFilter {
  /** Whether a file (absolute) passes the includes and excludes. */
  file(absolute: string): boolean;
  /** Whether a directory (absolute) is excluded, so the walk need not enter it. */
  prunes(absolute: string): boolean;
}

const NO_FILTER: PathFilter = { file: () => true, prunes: () => false };

function pathFilter(cwd: string, options: DiscoverOptions): PathFilter {
  const compile = (globs: readonly string[] | undefined) => {
    const cleaned = (globs ?? []).map((g) => g.replace(/^\.\//, '').replace(/\/+$/, '')).filter((g) => g !== '');
    return cleaned.length === 0 ? undefined : picomatch(cleaned, { dot: true });
  };
  const include = compile(options.include);
  const exclude = compile(options.exclude);
  if (!include && !exclude) return NO_FILTER;
  // A glob naming a directory covers what is below it: the path or any of its ancestors may match.
  const selfOrAncestor = (matcher: Matcher, relative: string) => {
    const parts = relative.split('/');
    for (let i = parts.length; i > 0; i--) if (matcher(parts.slice(0, i).join('/'))) return true;
    return false;
  };
  const relative = (absolute: string) => path.relative(cwd, absolute).split(path.sep).join('/');
  return {
    file(absolute) {
      const rel = relative(absolute);
      if (exclude && selfOrAncestor(exclude, rel)) return false;
      return include ? selfOrAncestor(include, rel) : true;
    },
    prunes(absolute) {
      return exclude !== undefined && selfOrAncestor(exclude, relative(absolute));
    },
  };
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
    case 'ENAMETOOLONG':
      return 'file name too long';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on device';
    default:
      return e?.message ?? String(error);
  }
}

/** Locale-independent ordering, so output is the same on every machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
