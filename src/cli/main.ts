// The command line: `mrtr-codemod migrate <paths..> [--dry-run]`.
// yargs only parses; the run itself (src/engine) and its presentation (src/report) are
// imported when a command actually runs, so `--help` stays quick. Exit codes: 0 success,
// 1 some file could not be read, parsed or written (all other files were still processed),
// 2 usage error.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';

export const EXIT_OK = 0;
export const EXIT_FILE_ERRORS = 1;
export const EXIT_USAGE = 2;

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
}

interface MigrateCommand {
  name: 'migrate';
  paths: string[];
  dryRun: boolean;
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let command: MigrateCommand | undefined;
  const parser = yargs()
    .scriptName('mrtr-codemod')
    .usage('$0 <command> [options]\n\nMigrate MCP servers from server→client requests (elicitation, sampling, roots) to MCP 2026-07-28 multi round-trip requests.')
    .command(
      'migrate <paths..>',
      'Rewrite legacy server→client requests in the given files and directories',
      (y) =>
        y
          .positional('paths', { type: 'string', array: true, describe: 'Files or directories (node_modules, dist, build and .git are skipped)' })
          .option('dry-run', { type: 'boolean', default: false, describe: 'Print unified diffs (git apply-able) and the summary; write nothing' })
          .example('$0 migrate src', 'rewrite every server file under src in place')
          .example('$0 migrate --dry-run src > mrtr.patch', 'review the change first'),
      (args) => {
        command = { name: 'migrate', paths: (args.paths ?? []).map(String), dryRun: Boolean(args.dryRun) };
      },
    )
    .demandCommand(1, 'Name a command: migrate')
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
  if (!command) {
    // --help or --version: yargs produced the text and ran no command.
    if (parsed.output) io.stdout(`${parsed.output}\n`);
    return EXIT_OK;
  }
  return migrate(command, io);
}

async function migrate(command: MigrateCommand, io: CliIo): Promise<number> {
  const [{ runCodemod }, { unifiedDiffs }, { formatSummary }] = await Promise.all([
    import('../engine/run.ts'),
    import('../report/diff.ts'),
    import('../report/summary.ts'),
  ]);
  const result = await runCodemod({ paths: command.paths, write: !command.dryRun, cwd: io.cwd });
  if (command.dryRun) {
    const patch = unifiedDiffs(result.changed);
    if (patch) io.stdout(`${patch}\n`);
  }
  io.stdout(formatSummary(result, { dryRun: command.dryRun }));
  return result.errors.length > 0 ? EXIT_FILE_ERRORS : EXIT_OK;
}

function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
  };
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
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
