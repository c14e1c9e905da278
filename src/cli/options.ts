// What the command line accepts, as data the help and the checks share: the options both
// commands take, and the answer to a mistyped option (the nearest known name, in one line,
// instead of the whole help).
import type { Options } from 'yargs';

/** Which files: both commands take these. */
export const FILE_FILTER_OPTIONS = {
  include: { type: 'string', requiresArg: true, describe: 'Only take files matching this glob, relative to the current directory (repeatable)' },
  exclude: {
    // --ignore-pattern: ESLint's and jscodeshift's name for it.
    alias: 'ignore-pattern',
    type: 'string',
    requiresArg: true,
    describe: 'Leave out files matching this glob (repeatable; wins over --include)',
  },
} as const satisfies Record<string, Options>;

/** --idempotent NAME: both commands take it (check must say what migrate would do). */
export const IDEMPOTENT_OPTIONS = {
  idempotent: {
    type: 'string',
    requiresArg: true,
    describe:
      'Declare calls of NAME idempotent, so they may run again on each retry instead of their result travelling in requestState (a callee as written, `connectionProvider` or `db.users.get`; repeatable; a `// @mrtr-idempotent` comment does the same in the code)',
  },
} as const satisfies Record<string, Options>;

/**
 * --color / --no-color: both commands take it, and it wins over NO_COLOR and FORCE_COLOR; left
 * out, the environment and the terminal decide (src/report/color.ts). --color=always, never
 * and auto are taken as git, ripgrep and ast-grep spell them (colorSpellings).
 */
export const COLOR_OPTIONS = {
  color: {
    type: 'boolean',
    describe:
      'Colour the output (--no-color: never; --color=always|never|auto also), whatever NO_COLOR, FORCE_COLOR or the terminal say; by default colour only on a terminal',
  },
} as const satisfies Record<string, Options>;

/** --color=WHEN as git and ripgrep take it, in the words yargs knows (auto: as if not given). */
const COLOR_WHEN: Readonly<Record<string, string | undefined>> = { always: '--color', never: '--no-color', auto: undefined };

/** `args` (those before `--`) with --color=always, never or auto put as --color, --no-color, or left out. */
export function colorSpellings(args: readonly string[]): string[] {
  return args.flatMap((arg) => {
    const when = /^--color=(.*)$/s.exec(arg)?.[1];
    if (when === undefined || !(when in COLOR_WHEN)) return [arg];
    const spelled = COLOR_WHEN[when];
    return spelled === undefined ? [] : [spelled];
  });
}

/** A repeatable option's values as yargs gives them (absent, one, or several). */
export function optionList(value: unknown): string[] {
  return value === undefined ? [] : [value].flat().map(String);
}

/**
 * The first `--name` in `args` that `command` does not know (yargs would take `--dryrun src` as
 * an option with the value `src`, and then complain that no path was given), with the known
 * option nearest to it when one is near; or the first letter of a `-x` (or `-xy`) that is not
 * a short flag of the command, given as `-x`. The arguments after `--` are not looked at.
 */
export function unknownOption(
  args: readonly string[],
  options: Readonly<Record<string, Options>>,
): { given: string; nearest?: string; short?: boolean } | undefined {
  const known = new Map<string, string>();
  const short = new Set<string>();
  for (const { long, letters, option } of optionNames(options)) {
    for (const name of long) {
      known.set(name, name);
      known.set(camelCase(name), name);
      if (option.type === 'boolean') {
        known.set(`no-${name}`, `no-${name}`);
        known.set(camelCase(`no-${name}`), `no-${name}`);
      }
    }
    for (const letter of letters) short.add(letter);
  }
  for (const arg of args) {
    if (arg === '--') break;
    if (/^-[^-]/.test(arg)) {
      const unknown = unknownShortFlag(arg, short);
      if (unknown !== undefined) return { given: unknown, short: true };
      continue;
    }
    if (!arg.startsWith('--') || arg.length === 2) continue;
    const given = arg.slice(2).split('=')[0]!;
    if (known.has(given)) continue;
    const nearest = nearestName(given, [...new Set(known.values())]);
    return nearest === undefined ? { given } : { given, nearest };
  }
  return undefined;
}

/** Each option's long names (its own and its aliases), its letters, and itself; --help (-h) and --version (-v) included. */
function optionNames(options: Readonly<Record<string, Options>>): Array<{ long: string[]; letters: string[]; option: Options }> {
  const all: Record<string, Options> = { ...options, help: { alias: 'h', type: 'boolean' }, version: { alias: 'v', type: 'boolean' } };
  return Object.entries(all).map(([name, option]) => {
    const aliases = [option.alias ?? []].flat();
    return { long: [name, ...aliases.filter((a) => a.length > 1)], letters: aliases.filter((a) => a.length === 1), option };
  });
}

/**
 * The first flag in `args` given a value it does not take: yargs reads `--dry-run=yes` (or
 * `-d=yes`) as `--no-dry-run`, every value but `true` as false, which would make a run meant to
 * be dry write. Returns the flag as given and the value; the arguments after `--` are not looked at.
 */
export function flagWithValue(args: readonly string[], options: Readonly<Record<string, Options>>): { flag: string; value: string } | undefined {
  const flags = new Set<string>();
  for (const { long, letters, option } of optionNames(options)) {
    if (option.type !== 'boolean') continue;
    for (const name of long) for (const spelled of [name, camelCase(name), `no-${name}`, camelCase(`no-${name}`)]) flags.add(`--${spelled}`);
    for (const letter of letters) flags.add(`-${letter}`);
  }
  for (const arg of args) {
    if (arg === '--') break;
    // A value after `=`; of letters grouped (`-dq=yes`), the last letter takes it.
    const given = /^(--[^=]+|-[A-Za-z]*([A-Za-z]))=(.*)$/s.exec(arg);
    if (!given) continue;
    const flag = given[2] === undefined ? given[1]! : `-${given[2]}`;
    if (flags.has(flag) && given[3] !== 'true' && given[3] !== 'false') return { flag, value: given[3]! };
  }
  return undefined;
}

/** The first letter of `-xyz` that is not a short flag (yargs reads each letter as one, up to an `=` or anything not a letter, the value of the last). */
function unknownShortFlag(arg: string, short: ReadonlySet<string>): string | undefined {
  const letters = /^-([A-Za-z]*)/.exec(arg)![1]!;
  return [...letters].find((letter) => !short.has(letter));
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The candidate a typo most likely meant: the same letters without dashes, or at most two edits away (a third of a long name). */
function nearestName(given: string, candidates: readonly string[]): string | undefined {
  const plain = (s: string) => s.replace(/[-_]/g, '').toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(plain(given), plain(name));
    const allowed = Math.min(2, Math.floor(name.length / 3));
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
