// The ignore rules of git, read the way git reads them: the .gitignore files from the top of
// the work tree down to each folder (deeper ones winning), and .git/info/exclude. Discovery's
// walk tests each entry against them (discover.ts); in a work tree git lists the files itself
// (git-listing.ts) and these rules decide only where the walk goes through links.
import { lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Ignore } from 'ignore';
import { ignore } from './globs.cjs';

/** The ignore rules in force in one folder, for testing its entries by name. */
export interface FolderRules {
  /** Whether git would ignore the entry `name` of this folder (`isDirectory`: as with a trailing `/`). */
  ignores(name: string, isDirectory: boolean): boolean;
}

/**
 * The ignore rules that apply below `base` (the root of the git work tree, or the walked
 * directory outside one). Each folder's rules are one matcher, put together once, when the
 * walk enters the folder: its parent's rules, then the patterns of its own `.gitignore`
 * rebased onto `base` (rebasePattern), so a deeper file's rules come later and win, as in git.
 * A folder without a `.gitignore` shares its parent's matcher (and the matcher's cache of
 * what it has decided). `.git/info/exclude` comes first, below every `.gitignore`. A directory
 * git excludes excludes everything below it: the matcher tests a path's parent folders first,
 * and git never reads the `.gitignore` files inside an excluded folder, nor does the walk
 * enter one.
 */
export class GitIgnoreRules {
  /** Each folder's matcher, by its path relative to `base` ('' for base, `/`-separated); null while no rule applies. */
  private readonly matchers = new Map<string, Ignore | null>();

  private constructor(
    readonly base: string,
    private readonly excludes: Ignore | null,
    /** The rules are git's for the walked folder: it is in a work tree, and git does not ignore it. */
    readonly fromWorkTree = false,
  ) {}

  /** The rules for a walk from `root`: from its git work tree's root when it has one. */
  static forRoot(root: string): GitIgnoreRules {
    const top = findWorkTreeSync(root);
    const exclude = top === undefined ? undefined : gitInfoExclude(top);
    const patterns = exclude === undefined ? [] : gitignorePatterns(exclude, '');
    const excludes = patterns.length === 0 ? null : newMatcher().add(patterns);
    if (top !== undefined && top !== root) {
      const rules = new GitIgnoreRules(top, excludes, true);
      // A directory named on the command line that git ignores is still walked (see above).
      if (!rules.ignores(root, true)) return rules;
      return new GitIgnoreRules(root, null);
    }
    return new GitIgnoreRules(root, excludes, top !== undefined);
  }

  /**
   * The rules for the entries of `dir` (absolute, at or below `base`), entered by the walk;
   * `hasOwnFile`: it holds a `.gitignore` (the walk has listed it, so no file is opened in vain).
   */
  enter(dir: string, hasOwnFile: boolean): FolderRules {
    const relative = this.relative(dir);
    const matcher = relative === undefined ? null : this.matcherFor(relative, hasOwnFile);
    if (!matcher) return NOTHING_IGNORED;
    const prefix = relative ? `${relative}/` : '';
    return { ignores: (name, isDirectory) => matcher.ignores(isDirectory ? `${prefix}${name}/` : `${prefix}${name}`) };
  }

  /** Whether git would ignore `absolute` (below `base`); `isDirectory` as for a trailing `/`. */
  ignores(absolute: string, isDirectory: boolean): boolean {
    const relative = this.relative(absolute);
    if (!relative) return false;
    const slash = relative.lastIndexOf('/');
    const matcher = this.matcherFor(slash === -1 ? '' : relative.slice(0, slash));
    return matcher !== null && matcher.ignores(isDirectory ? `${relative}/` : relative);
  }

  /** `absolute` relative to `base`, `/`-separated; undefined when it is not at or below it. */
  private relative(absolute: string): string | undefined {
    const relative = path.relative(this.base, absolute);
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
    return path.sep === '/' ? relative : relative.split(path.sep).join('/');
  }

  /** The matcher for the entries of the folder at `relative` (made on first use, with its parents'). */
  private matcherFor(relative: string, hasOwnFile?: boolean): Ignore | null {
    let matcher = this.matchers.get(relative);
    if (matcher !== undefined) return matcher;
    const slash = relative.lastIndexOf('/');
    const parent = relative === '' ? this.excludes : this.matcherFor(slash === -1 ? '' : relative.slice(0, slash));
    const file = path.join(this.base, relative, '.gitignore');
    const own = (hasOwnFile ?? isRegularFile(file)) ? gitignorePatterns(file, relative) : [];
    matcher = own.length === 0 ? parent : parent === null ? newMatcher().add(own) : newMatcher().add(parent).add(own);
    this.matchers.set(relative, matcher);
    return matcher;
  }
}

/** A folder no ignore rule applies to (no .gitignore above it, no info/exclude). */
const NOTHING_IGNORED: FolderRules = { ignores: () => false };

function newMatcher(): Ignore {
  return ignore({ ignorecase: process.platform === 'darwin' || process.platform === 'win32' });
}

function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/** The patterns of the ignore file `file` in folder `dir` (relative to the base), rebased onto the base; none when it cannot be read. */
function gitignorePatterns(file: string, dir: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return []; // not readable: no rules
  }
  // A byte-order mark is not part of the first pattern (git skips it too).
  return text
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .map((line) => rebasePattern(line, dir))
    .filter((p): p is string => p !== undefined);
}

/**
 * A line of the .gitignore in `dir` (relative to the matcher's base, `/`-separated) as a
 * pattern relative to the base. Git's rule: a pattern with a slash other than a trailing one is
 * anchored to its file's directory; one without matches at any depth below it.
 */
export function rebasePattern(line: string, dir: string): string | undefined {
  if (line.trim() === '' || line.startsWith('#')) return undefined;
  if (dir === '') return line;
  const negative = line.startsWith('!');
  const body = negative ? line.slice(1) : line;
  const anchored = body.trimEnd().replace(/\/+$/, '').includes('/');
  const rebased = anchored ? `${dir}/${body.replace(/^\//, '')}` : `${dir}/**/${body}`;
  return negative ? `!${rebased}` : rebased;
}

/**
 * The root of the git work tree holding a folder (the nearest ancestor with a `.git` entry), for
 * many folders of one tree: each folder's answer is kept, so an ancestor several of them share
 * is looked at once (a run asks for every changed file's folder).
 */
export function workTreeFinder(): (dir: string) => string | undefined {
  const found = new Map<string, string | undefined>();
  const find = (dir: string): string | undefined => {
    const current = path.resolve(dir);
    if (found.has(current)) return found.get(current);
    const parent = path.dirname(current);
    const top = lstatSync(path.join(current, '.git'), { throwIfNoEntry: false }) ? current : parent === current ? undefined : find(parent);
    found.set(current, top);
    return top;
  };
  return find;
}

function findWorkTreeSync(dir: string): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (lstatSync(path.join(current, '.git'), { throwIfNoEntry: false })) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** `.git/info/exclude` of the work tree at `top` (following a `.git` file's `gitdir:`). */
function gitInfoExclude(top: string): string | undefined {
  const dotGit = path.join(top, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return path.join(dotGit, 'info', 'exclude');
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return pointer ? path.join(path.resolve(top, pointer[1]!), 'info', 'exclude') : undefined;
  } catch {
    return undefined;
  }
}
