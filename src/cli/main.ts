// The command line: `mrtr-codemod migrate <paths..>` rewrites (src/cli/migrate-command.ts), and
// `mrtr-codemod check <paths..>` lints (src/cli/check-command.ts); both exit by one rule
// (src/report/exit-codes.ts). yargs only parses; the run itself (src/engine) and its
// presentation (src/report) are imported when a command actually runs, so `--help` stays
// quick. A usage error is one short line and a pointer to the help, never the whole help.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { terminalLines, terminalText } from '../core/escape.ts';
import { cleanUpInterrupted } from '../engine/interrupt-cleanup.ts';
import { packageVersion } from '../package-version.ts';
import { EXIT_CLEAN, EXIT_FAILED } from '../report/exit-codes.ts';
import { CHECK_OPTIONS, checkCommandModule, runCheckCommand, type CheckCommand } from './check-command.ts';
import { MIGRATE_OPTIONS, migrateCommandModule, runMigrateCommand, type MigrateCommand } from './migrate-command.ts';
import { processIo, type CliIo } from './io.ts';
import { colorSpellings, flagWithValue, unknownOption } from './options.ts';
import { helpWidth } from './quick-help.ts';

export type { CliIo } from './io.ts';

const COMMAND_OPTIONS = { migrate: MIGRATE_OPTIONS, check: CHECK_OPTIONS } as const;

/**
 * Stands in for the paths after `--` while yargs parses the rest (it would drop them, and
 * would find no path when all of them come after `--`). No argument can hold a NUL.
 */
const PATHS_AFTER_DASHES = '\0paths after --';

/** The arguments with everything after `--` as one placeholder, and what it stands for. */
function splitAtDashes(argv: readonly string[]): { args: string[]; after: string[] } {
  const at = argv.indexOf('--');
  if (at === -1) return { args: [...argv], after: [] };
  const after = argv.slice(at + 1);
  return { args: [...argv.slice(0, at), ...(after.length > 0 ? [PATHS_AFTER_DASHES] : [])], after };
}

/** The positional paths, with the placeholder replaced by the paths after `--`. */
function givenPaths(paths: readonly string[], after: readonly string[]): string[] {
  return paths.flatMap((p) => (p === PATHS_AFTER_DASHES ? after : [p]));
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { args: given, after } = splitAtDashes(argv);
  const usageError = (message: string, name?: string) => {
    const help = name ? `mrtr-codemod ${name} --help` : 'mrtr-codemod --help';
    io.stderr(`mrtr-codemod: ${terminalText(oneLineUsage(message))}\nRun '${help}' for the options.\n`);
    return EXIT_FAILED;
  };

  // A shell glob over a folder holding a file named `--force` or `--patch=.env` hands that
  // name over as an option: refused, so a file name never turns into a flag.
  const fileNamed = given.find((arg) => arg.startsWith('-') && arg !== '-' && existsSync(path.resolve(io.cwd, arg)));
  if (fileNamed !== undefined)
    return usageError(
      `${fileNamed} is an option and also the name of a file here (a shell glob such as * passes file names as they are); it is not taken as either: pass file names after -- (mrtr-codemod migrate -- *), or rename the file`,
    );

  const args = colorSpellings(given);
  // A mistyped option, before yargs reads `--dryrun src` as an option with the value `src`.
  const name = args.find((arg) => !arg.startsWith('-'));
  if (name === 'migrate' || name === 'check') {
    const unknown = unknownOption(args, COMMAND_OPTIONS[name]);
    if (unknown?.short) return usageError(`unknown option -${unknown.given}`, name);
    if (unknown) return usageError(`unknown option --${unknown.given}${unknown.nearest ? `; did you mean --${unknown.nearest}?` : ''}`, name);
    const valued = flagWithValue(args, COMMAND_OPTIONS[name]);
    if (valued?.flag === '--color') return usageError(`--color=${valued.value}: the values --color takes are always, never and auto`, name);
    if (valued) return usageError(`${valued.flag}=${valued.value}: ${valued.flag} takes no value (or true or false)`, name);
  } else if (name !== undefined && name !== PATHS_AFTER_DASHES) {
    return usageError(`unknown command ${name}: the commands are migrate and check`);
  }

  let command: MigrateCommand | CheckCommand | undefined;
  const parser = yargs()
    .scriptName('mrtr-codemod')
    .usage(
      '$0 <command> [options]\n\nMigrate MCP servers from server→client requests (elicitation, sampling, roots) to MCP 2026-07-28 multi round-trip requests.',
    )
    .command(migrateCommandModule((c) => void (command = { ...c, paths: givenPaths(c.paths, after) })))
    .command(checkCommandModule((c) => void (command = { ...c, paths: givenPaths(c.paths, after) })))
    .demandCommand(1, 'name a command: migrate or check')
    .strict()
    .showHelpOnFail(false)
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .alias('v', 'version')
    .wrap(helpWidth(io.stdoutColumns))
    .exitProcess(false);

  skipHelpAfterCommands(parser);
  const parsed = await new Promise<{ error?: Error; output: string }>((resolve) => {
    parser.parse(args, {}, (error, _args, output) => resolve({ error: error ?? undefined, output }));
  });
  if (parsed.error) return usageError(parsed.error.message, name);
  if (!command) {
    // --help or --version: yargs produced the text and ran no command.
    if (parsed.output) io.stdout(`${parsed.output}\n`);
    return EXIT_CLEAN;
  }
  const chosen: MigrateCommand | CheckCommand = command;
  // --color / --no-color, when given, wins over what the environment and the terminal decided.
  const runIo = chosen.color === undefined ? io : { ...io, color: chosen.color };
  return chosen.name === 'check' ? runCheckCommand(chosen, runIo) : runMigrateCommand(chosen, runIo);
}

/**
 * A usage message as one line: yargs puts a line break (and an indent) in some of its own, such
 * as `Invalid values:\n  Argument: format, Given: "xml", Choices: ...`, which would otherwise
 * be shown escaped as a literal `\n`.
 */
function oneLineUsage(message: string): string {
  const invalid = /^Invalid values:\s*Argument: ([\w-]+), Given: (.*), Choices: (.*)$/s.exec(message);
  if (invalid)
    return `--${invalid[1]!} ${invalid[2]!.replace(/"/g, '')} is not one of the choices: ${invalid[3]!.replace(/"/g, '').replace(/\s+/g, ' ').trim()}`;
  return message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/**
 * yargs renders the whole help after it runs a command, to have it ready should the command
 * ask to show it; ours never do (a usage error is one line), and that rendering (cliui,
 * string-width) is a tenth of a small project's `check`. Its usage object is reached through
 * yargs's internal methods: if a later yargs has none, the help is rendered as before.
 */
function skipHelpAfterCommands(parser: object): void {
  type Internals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } | undefined } };
  const usage = (parser as Internals).getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/** Exit codes for the signals that stop a run: 128 + the signal's number, as shells report them. */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * On Ctrl-C (or SIGTERM, SIGHUP): remove what the run made and has not finished (temporary
 * files, scratch copies), say so, and exit. A file is replaced by a rename, so each one is
 * either as it was or fully rewritten. Returns a function that removes the handlers.
 */
function stopCleanlyOnSignals(): () => void {
  const handlers = Object.entries(SIGNAL_EXIT).map(([signal, code]) => {
    const handler = () => {
      cleanUpInterrupted();
      const erase = process.stderr.isTTY ? '\r\x1b[2K' : '';
      process.stderr.write(
        `${erase}mrtr-codemod: interrupted (${signal}); files already rewritten are complete, the others are as they were, and no temporary file is left\n`,
      );
      process.exit(code);
    };
    process.on(signal, handler);
    return () => void process.off(signal, handler);
  });
  return () => handlers.forEach((off) => off());
}

/** Entry used by bin/mrtr-codemod.js (and by running this file directly). */
export async function cli(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  // `mrtr-codemod ... | head` closes the pipe early: stop quietly instead of crashing.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_CLEAN);
    throw error;
  });
  const stopHandlingSignals = stopCleanlyOnSignals();
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    process.stderr.write(`mrtr-codemod: ${terminalLines((error as Error)?.stack ?? String(error))}\n`);
    process.exitCode = EXIT_FAILED;
  } finally {
    stopHandlingSignals();
  }
}

function isEntry(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) void cli();
