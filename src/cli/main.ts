// The command line: `mrtr-codemod migrate <paths..> [--dry-run]` rewrites, and
// `mrtr-codemod check <paths..>` lints (src/cli/check-command.ts, with its own exit codes).
// yargs only parses; the run itself (src/engine) and its presentation (src/report) are
// imported when a command actually runs, so `--help` stays quick. Exit codes of migrate:
// 0 success, 1 some file could not be read, parsed or written (all other files were still
// processed), 2 usage error.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { jsonText, terminalLines, terminalText } from '../core/escape.ts';
import { cleanUpInterrupted } from '../engine/interrupt-cleanup.ts';
import type { ChangedFile } from '../engine/run.ts';
import type { ReservedOutputs } from '../report/patch.ts';
import { packageVersion } from '../package-version.ts';
import { shouldColor } from '../report/color.ts';
import { checkCommandModule, runCheckCommand, type CheckCommand } from './check-command.ts';

export const EXIT_OK = 0;
export const EXIT_FILE_ERRORS = 1;
export const EXIT_USAGE = 2;

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  /** Whether stderr is a terminal (the progress line is drawn only there); tests set it. */
  stderrIsTTY?: boolean;
  /** Terminal width for the progress line. */
  stderrColumns?: number;
  /** Colour diffs on stdout (decided from the TTY and NO_COLOR/FORCE_COLOR; tests set it). */
  color?: boolean;
  /** Whether stdout is a terminal (a diff shown there has its control characters escaped). */
  stdoutIsTTY?: boolean;
}

interface MigrateCommand {
  name: 'migrate';
  paths: string[];
  dryRun: boolean;
  /** --force: write even when git shows uncommitted changes under the paths. */
  force?: boolean;
  /** --include / --exclude: picomatch globs relative to cwd (exclude wins). */
  include?: string[];
  exclude?: string[];
  /** --json: print only a JSON summary on stdout (shape in src/report/json-summary.ts). */
  json?: boolean;
  /** --patch FILE: the plain unified diff of the change, for `git apply`. */
  patch?: string;
  /** --report FILE: a self-contained HTML page reviewing the change. */
  report?: string;
  /** --sampling=flag: mark sampling sites instead of migrating them. */
  sampling?: 'migrate' | 'flag';
  /** --no-v1: leave v1 SDK files as they are instead of running the official v1-to-v2 codemod first. */
  v1?: boolean;
  /** --no-types: never start the TypeScript checker (an unannotated lifted local is then marked). */
  types?: boolean;
}

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
export function givenPaths(positional: readonly unknown[] | undefined, after: readonly string[]): string[] {
  return (positional ?? []).map(String).flatMap((p) => (p === PATHS_AFTER_DASHES ? after : [p]));
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let command: MigrateCommand | undefined;
  let check: CheckCommand | undefined;
  const { args: toParse, after } = splitAtDashes(argv);
  const parser = yargs()
    .scriptName('mrtr-codemod')
    .usage('$0 <command> [options]\n\nMigrate MCP servers from server→client requests (elicitation, sampling, roots) to MCP 2026-07-28 multi round-trip requests.')
    .command(
      'migrate <paths..>',
      'Rewrite legacy server→client requests in the given files and directories',
      (y) =>
        y
          .positional('paths', { type: 'string', array: true, describe: 'Files or directories (in a directory, node_modules, dist, build, .git and what .gitignore ignores are skipped)' })
          .option('dry-run', { type: 'boolean', default: false, describe: 'Print unified diffs (git apply-able) and the summary; write nothing' })
          .option('patch', { type: 'string', requiresArg: true, describe: 'Also write the change as a plain unified diff to FILE (git apply-able from this directory); with or without --dry-run' })
          .option('report', { type: 'string', requiresArg: true, describe: 'Also write a self-contained HTML review page to FILE: each diff, each site explained; with or without --dry-run' })
          .option('force', { type: 'boolean', default: false, describe: 'Write even when git shows uncommitted changes under the paths (refused otherwise, exit 2)' })
          .option('include', { type: 'string', requiresArg: true, describe: 'Only take files matching this glob, relative to the current directory (repeatable)' })
          .option('exclude', { type: 'string', requiresArg: true, describe: 'Leave out files matching this glob (repeatable; wins over --include)' })
          .option('json', { type: 'boolean', default: false, describe: 'Print only a JSON summary on stdout (no diff, no progress line)' })
          .option('sampling', { choices: ['migrate', 'flag'] as const, default: 'migrate' as const, describe: 'migrate: move sampling to inputRequired.createMessage (with the deprecation note); flag: leave it and mark it (SEP-2577 advises calling your LLM provider directly)' })
          .option('types', { type: 'boolean', default: true, describe: 'Ask the TypeScript checker for the types of locals that travel in requestState (--no-types never starts it: about 250 MB and a few seconds less; such a local without a type annotation is then marked untyped-local instead of migrated)' })
          .option('v1', { type: 'boolean', default: true, describe: 'Run the official v1-to-v2 codemod first on files that import @modelcontextprotocol/sdk, and update package.json (--no-v1 leaves them as they are)' })
          .example('$0 migrate src', 'rewrite every server file under src in place')
          .example('$0 migrate --dry-run --patch mrtr.patch --report mrtr.html src', 'write the change as a patch and a review page; touch nothing else')
          .example('$0 migrate --dry-run src > mrtr.patch', 'review the change first'),
      (args) => {
        command = { name: 'migrate', paths: givenPaths(args.paths, after), dryRun: Boolean(args.dryRun) };
        if (typeof args.patch === 'string') command.patch = args.patch;
        const globs = (value: unknown) => (value === undefined ? [] : [value].flat().map(String));
        Object.assign(command, { force: Boolean(args.force), include: globs(args.include), exclude: globs(args.exclude), json: Boolean(args.json), sampling: args.sampling === 'flag' ? 'flag' : 'migrate', v1: args.v1 !== false, types: args.types !== false });
        if (typeof args.report === 'string') command.report = args.report;
      },
    )
    .command(checkCommandModule((c) => void (check = { ...c, paths: givenPaths(c.paths, after) })))
    .demandCommand(1, 'Name a command: migrate or check')
    .strict()
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .wrap(Math.min(100, process.stdout.columns ?? 80))
    .exitProcess(false);

  const parsed = await new Promise<{ error?: Error; output: string }>((resolve) => {
    parser.parse(toParse, {}, (error, _args, output) => resolve({ error: error ?? undefined, output }));
  });
  if (parsed.error) {
    io.stderr(`${terminalLines(parsed.output || parsed.error.message)}\n`);
    return EXIT_USAGE;
  }
  if (check) return runCheckCommand(check, io);
  if (!command) {
    // --help or --version: yargs produced the text and ran no command.
    if (parsed.output) io.stdout(`${parsed.output}\n`);
    return EXIT_OK;
  }
  return migrate(command, io);
}

async function migrate(command: MigrateCommand, io: CliIo): Promise<number> {
  // --patch / --report: reserved first, so a bad output path is a usage error found before any
  // source is touched.
  const review = command.patch !== undefined || command.report !== undefined ? await import('../report/patch.ts') : undefined;
  const reserved = await review?.reserveReviewOutputs(command, io.cwd);
  if (reserved && 'problem' in reserved) {
    io.stderr(`mrtr-codemod: ${terminalText(reserved.problem)}\n`);
    return EXIT_USAGE;
  }
  try {
    return await migrateReserved(command, io, review && reserved ? { review, reserved } : undefined);
  } finally {
    await reserved?.discard();
  }
}

type ReviewModule = typeof import('../report/patch.ts');

async function migrateReserved(command: MigrateCommand, io: CliIo, outputs: { review: ReviewModule; reserved: ReservedOutputs } | undefined): Promise<number> {
  const [{ runCodemod }, { terminalDiff, unifiedDiff, unifiedDiffs }, { formatSummary }] = await Promise.all([
    import('../engine/run.ts'),
    import('../report/diff.ts'),
    import('../report/summary.ts'),
  ]);
  // One-shot safety: the dirty-tree guard, discovery (.gitignore, --include/--exclude), progress.
  const [{ discoverFiles }, { checkDirtyTree, formatDirtyRefusal }, { createProgress, runDiscovered }] = await Promise.all([
    import('../engine/discover.ts'),
    import('../engine/git.ts'),
    import('./progress.ts'),
  ]);
  const discoverOptions = { include: command.include, exclude: command.exclude };
  const discovery = await discoverFiles(command.paths, io.cwd, discoverOptions);
  if (!command.dryRun) {
    // Temporary files of a run that was killed (SIGKILL) are ours: removed before the guard looks.
    const { removeStaleTempFiles } = await import('../engine/atomic-write.ts');
    const { displayPath } = await import('../engine/source-files.ts');
    for (const file of await removeStaleTempFiles(discovery.staleTemps)) {
      io.stderr(`mrtr-codemod: removed ${terminalText(displayPath(io.cwd, file))}, a temporary file left by an interrupted run\n`);
    }
  }
  if (!command.dryRun && !command.force) {
    // The package.json a v1 upgrade may edit above the paths is guarded with them.
    const manifests = command.v1 === false ? [] : await (await import('../engine/manifests.ts')).manifestsToGuard(command.paths, io.cwd);
    const tree = await checkDirtyTree([...command.paths, ...manifests], io.cwd);
    if (tree.dirty.length > 0) {
      io.stderr(formatDirtyRefusal(tree));
      return EXIT_USAGE;
    }
  }
  const progress = createProgress({ enabled: Boolean(io.stderrIsTTY) && !command.json, write: (text) => io.stderr(text), columns: io.stderrColumns });
  // Diffs to show or write are made as files finish, while others still wait for type facts.
  const diffs = (command.dryRun && !command.json) || outputs !== undefined;
  const result = await runDiscovered(runCodemod, discovery, { write: !command.dryRun, cwd: io.cwd, discover: discoverOptions, transform: { sampling: command.sampling }, v1: command.v1, ...(command.types === false ? { types: false as const } : {}), ...(diffs ? { onChanged: (file: ChangedFile) => void unifiedDiff(file) } : {}) }, progress);
  if (command.dryRun && !command.json) {
    const patch = unifiedDiffs(result.changed);
    // A patch for a file or a pipe stays exact; shown to a person, the code's control characters are escaped.
    const shown = io.color || io.stdoutIsTTY;
    if (patch) io.stdout(`${shown ? terminalDiff(patch, Boolean(io.color)) : patch}\n`);
  }
  io.stdout(command.json ? jsonText((await import('../report/json-summary.ts')).formatJsonSummary(result, { dryRun: command.dryRun })) : formatSummary(result, { dryRun: command.dryRun }));
  if (outputs && !(await outputs.review.writeReviewOutputs(result, command, outputs.reserved, io))) return EXIT_FILE_ERRORS;
  return result.errors.length > 0 ? EXIT_FILE_ERRORS : EXIT_OK;
}

function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    stderrColumns: process.stderr.columns,
    stdoutIsTTY: process.stdout.isTTY === true,
    color: shouldColor(process.stdout.isTTY, process.env),
  };
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
      process.stderr.write(`${erase}mrtr-codemod: interrupted (${signal}); files already rewritten are complete, the others are as they were, and no temporary file is left\n`);
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
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_OK);
    throw error;
  });
  const stopHandlingSignals = stopCleanlyOnSignals();
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    process.stderr.write(`mrtr-codemod: ${terminalLines((error as Error)?.stack ?? String(error))}\n`);
    process.exitCode = EXIT_FILE_ERRORS;
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

if (isEntry()) await cli();
