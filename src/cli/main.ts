// The command line: `mrtr-codemod migrate <paths..> [--dry-run]` rewrites, and
// `mrtr-codemod check <paths..>` lints (src/cli/check-command.ts, with its own exit codes).
// yargs only parses; the run itself (src/engine) and its presentation (src/report) are
// imported when a command actually runs, so `--help` stays quick. Exit codes of migrate:
// 0 success, 1 some file could not be read, parsed or written (all other files were still
// processed), 2 usage error.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import type { ChangedFile } from '../engine/run.ts';
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
  /** --state-module PATH: where the request-state module goes (default: beside the module that builds the server). */
  stateModule?: string;
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let command: MigrateCommand | undefined;
  let check: CheckCommand | undefined;
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
          .option('state-module', { type: 'string', requiresArg: true, describe: 'Where the request-state module the migrated files import goes (a file, or a folder for mrtr-request-state.<ext>); by default beside the module that builds the server' })
          .example('$0 migrate src', 'rewrite every server file under src in place')
          .example('$0 migrate --dry-run --patch mrtr.patch --report mrtr.html src', 'write the change as a patch and a review page; touch nothing else')
          .example('$0 migrate --dry-run src > mrtr.patch', 'review the change first'),
      (args) => {
        command = { name: 'migrate', paths: (args.paths ?? []).map(String), dryRun: Boolean(args.dryRun) };
        if (typeof args.patch === 'string') command.patch = args.patch;
        const globs = (value: unknown) => (value === undefined ? [] : [value].flat().map(String));
        Object.assign(command, { force: Boolean(args.force), include: globs(args.include), exclude: globs(args.exclude), json: Boolean(args.json), sampling: args.sampling === 'flag' ? 'flag' : 'migrate', v1: args.v1 !== false, types: args.types !== false });
        if (typeof args.report === 'string') command.report = args.report;
        if (typeof args.stateModule === 'string') command.stateModule = args.stateModule;
      },
    )
    .command(checkCommandModule((c) => void (check = c)))
    .demandCommand(1, 'Name a command: migrate or check')
    .strict()
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .wrap(Math.min(100, process.stdout.columns ?? 80))
    .exitProcess(false);

  const parsed = await new Promise<{ error?: Error; output: string }>((resolve) => {
    parser.parse([...argv], {}, (error, _args, output) => resolve({ error: error ?? undefined, output }));
  });
  if (parsed.error) {
    io.stderr(parsed.output ? `${parsed.output}\n` : `${parsed.error.message}\n`);
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
  const [{ runCodemod }, { colorizeDiff, unifiedDiff, unifiedDiffs }, { formatSummary }] = await Promise.all([
    import('../engine/run.ts'),
    import('../report/diff.ts'),
    import('../report/summary.ts'),
  ]);
  // --patch / --report: a bad output path is a usage error, found before any source is touched.
  const review = command.patch !== undefined || command.report !== undefined ? await import('../report/patch.ts') : undefined;
  const reviewProblem = await review?.reviewOutputsProblem(command, io.cwd);
  if (reviewProblem) {
    io.stderr(`mrtr-codemod: ${reviewProblem}\n`);
    return EXIT_USAGE;
  }
  // One-shot safety: the dirty-tree guard, discovery (.gitignore, --include/--exclude), progress.
  const [{ discoverFiles }, { checkDirtyTree, formatDirtyRefusal }, { createProgress, runDiscovered }] = await Promise.all([
    import('../engine/discover.ts'),
    import('../engine/git.ts'),
    import('./progress.ts'),
  ]);
  if (!command.dryRun && !command.force) {
    const tree = await checkDirtyTree(command.paths, io.cwd);
    if (tree.dirty.length > 0) {
      io.stderr(formatDirtyRefusal(tree));
      return EXIT_USAGE;
    }
  }
  const discoverOptions = { include: command.include, exclude: command.exclude };
  const discovery = await discoverFiles(command.paths, io.cwd, discoverOptions);
  const progress = createProgress({ enabled: Boolean(io.stderrIsTTY) && !command.json, write: (text) => io.stderr(text), columns: io.stderrColumns });
  // Diffs to show or write are made as files finish, while others still wait for type facts.
  const diffs = (command.dryRun && !command.json) || review !== undefined;
  const result = await runDiscovered(runCodemod, discovery, { write: !command.dryRun, cwd: io.cwd, discover: discoverOptions, transform: { sampling: command.sampling }, v1: command.v1, ...(command.stateModule !== undefined ? { stateModule: command.stateModule } : {}), ...(command.types === false ? { types: false as const } : {}), ...(diffs ? { onChanged: (file: ChangedFile) => void unifiedDiff(file) } : {}) }, progress);
  if (command.dryRun && !command.json) {
    const patch = unifiedDiffs(result.changed);
    if (patch) io.stdout(`${io.color ? colorizeDiff(patch) : patch}\n`);
  }
  io.stdout(command.json ? (await import('../report/json-summary.ts')).formatJsonSummary(result, { dryRun: command.dryRun }) : formatSummary(result, { dryRun: command.dryRun }));
  if (review && !(await review.writeReviewOutputs(result, command, io))) return EXIT_FILE_ERRORS;
  return result.errors.length > 0 ? EXIT_FILE_ERRORS : EXIT_OK;
}

function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    stderrColumns: process.stderr.columns,
    color: shouldColor(process.stdout.isTTY, process.env),
  };
}

/** Entry used by bin/mrtr-codemod.js (and by running this file directly). */
export async function cli(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  // `mrtr-codemod ... | head` closes the pipe early: stop quietly instead of crashing.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_OK);
    throw error;
  });
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    process.stderr.write(`mrtr-codemod: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = EXIT_FILE_ERRORS;
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
