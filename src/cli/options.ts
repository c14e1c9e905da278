// What the command line accepts, as data the help and the checks share: the options both
// commands take, and the answer to a mistyped option (the nearest known name, in one line,
// instead of the whole help).
import type { Options } from 'yargs';

/** Which files: both commands take these. */
export const FILE_FILTER_OPTIONS = {
  include: { type: 'string', requiresArg: true, describe: 'Only take files matching this glob, relative to the current directory (repeatable)' },
  exclude: { type: 'string', requiresArg: true, describe: 'Leave out files matching this glob (repeatable; wins over --include)' },
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
 * out, the environment and the terminal decide (src/report/color.ts).
 */
export const COLOR_OPTIONS = {
  color: {
    type: 'boolean',
    describe: 'Colour the output (--no-color: never), whatever NO_COLOR, FORCE_COLOR or the terminal say; by default colour only on a terminal',
  },
} as const satisfies Record<string, Options>;

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
  for (const [name, option] of Object.entries({ ...options, help: { type: 'boolean' }, version: { type: 'boolean' } } as Record<string, Options>)) {
    known.set(name, name);
    known.set(camelCase(name), name);
    if (option.type === 'boolean') {
      known.set(`no-${name}`, `no-${name}`);
      known.set(camelCase(`no-${name}`), `no-${name}`);
    }
  }
  const short = new Set(['h', 'v']);
  for (const option of Object.values(options) as Options[]) {
    for (const alias of [option.alias ?? []].flat()) if (alias.length === 1) short.add(alias);
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
