// `--help`, `migrate --help`, `check --help` and `--version` (`-v`) answered without loading the CLI:
// loading yargs and the command definitions is most of what those take (about twice Node's own
// start). The texts are yargs's own: `npm run build` has the CLI print each of them (in English,
// at the two widths most terminals give, 80 and 100 columns) into dist/cli/help-texts.json, and
// the launcher (bin/mrtr-codemod.js) prints one when the command line is exactly one of these
// and the text yargs would print is the one kept: the same width, an English locale. Anything
// else (another width, another language, more arguments) runs the CLI, yargs and all.
// Imports nothing but node:fs, so that asking costs next to nothing.
import { readFileSync } from 'node:fs';

/** What the build keeps: the version, and each help text by width and command ('' for the top). */
export interface HelpTexts {
  version: string;
  help: Record<string, Record<string, string>>;
}

/** The widths kept: what yargs wraps to when stdout is not a terminal (80), and at most (100). */
export const KEPT_WIDTHS = [80, 100] as const;

/** The command lines answered from the kept texts, by what they ask for. */
export const HELP_COMMAND_LINES: ReadonlyArray<{ argv: readonly string[]; command: string }> = [
  { argv: ['--help'], command: '' },
  { argv: ['-h'], command: '' },
  { argv: ['migrate', '--help'], command: 'migrate' },
  { argv: ['migrate', '-h'], command: 'migrate' },
  { argv: ['check', '--help'], command: 'check' },
  { argv: ['check', '-h'], command: 'check' },
];

/** The width yargs wraps the help to (src/cli/main.ts): the terminal's, at most 100; 80 off a terminal. */
export function helpWidth(columns: number | undefined): number {
  return Math.min(100, columns ?? 80);
}

/**
 * Whether yargs would print its help in English: it takes the locale from LC_ALL, LC_MESSAGES,
 * LANG or LANGUAGE (the first set), and has no translation for English, C or POSIX.
 */
export function englishLocale(env: Readonly<Record<string, string | undefined>>): boolean {
  const locale = (env.LC_ALL || env.LC_MESSAGES || env.LANG || env.LANGUAGE || 'en_US').replace(/[.:].*/, '');
  return /^(?:en(?:[_-][A-Za-z0-9]+)?|C|POSIX)$/.test(locale);
}

/** What to print for `argv` from the kept texts, or undefined when the CLI must answer. */
export function quickAnswer(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  columns: number | undefined,
  texts: HelpTexts | undefined,
): string | undefined {
  if (!texts) return undefined;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) return `${texts.version}\n`;
  const line = HELP_COMMAND_LINES.find((l) => l.argv.length === argv.length && l.argv.every((arg, i) => arg === argv[i]));
  if (!line || !englishLocale(env)) return undefined;
  const text = texts.help[String(helpWidth(columns))]?.[line.command];
  return text === undefined ? undefined : `${text}\n`;
}

type Main = (argv: readonly string[], io: { stdout(text: string): void; stderr(text: string): void; cwd: string; stdoutColumns?: number }) => Promise<number>;

/** The texts to keep, printed by the CLI's `main` itself (the caller sees to an English locale: the build does). */
export async function renderHelpTexts(main: Main, version: string): Promise<HelpTexts> {
  const texts: HelpTexts = { version, help: {} };
  for (const width of KEPT_WIDTHS) {
    const byCommand: Record<string, string> = {};
    for (const { argv, command } of HELP_COMMAND_LINES) {
      let out = '';
      const code = await main(argv, { stdout: (text) => void (out += text), stderr: () => undefined, cwd: process.cwd(), stdoutColumns: width });
      if (code !== 0 || !out.endsWith('\n')) throw new Error(`mrtr-codemod ${argv.join(' ')} printed no help`);
      const text = out.slice(0, -1);
      if (byCommand[command] !== undefined && byCommand[command] !== text)
        throw new Error(`mrtr-codemod ${argv.join(' ')}: not the help of the same command line`);
      byCommand[command] = text;
    }
    texts.help[String(width)] = byCommand;
  }
  return texts;
}

/** The kept texts beside this module (dist/cli/help-texts.json), or undefined when there are none (a build without them, a checkout). */
export function keptHelpTexts(): HelpTexts | undefined {
  try {
    return JSON.parse(readFileSync(new URL('./help-texts.json', import.meta.url), 'utf8')) as HelpTexts;
  } catch {
    return undefined;
  }
}
