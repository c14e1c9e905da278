// `mrtr-codemod migrate <paths..>`: rewrite in place (or, with --dry-run, show the change), and
// end with a summary. The order keeps every promise of the README's guarantees:
// 1. --patch / --report are reserved first (a path that cannot be written, or is a link, is a
//    usage error before anything else happens);
// 2. files are discovered; a writing run removes the temporary files a killed run left;
// 3. the dirty-tree guard looks at the paths, the package.json above them and the module
//    --state-module names;
// 4. the run; then the diff, the summary, and the review files.
// Exit codes: src/report/exit-codes.ts (the same rule as check).
//
// This module is imported at start-up for its yargs definition: the engine and the reports are
// imported when the command runs.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandModule, Options } from 'yargs';
import { jsonText, terminalText } from '../core/escape.ts';
import type { ChangedFile, RunResult } from '../engine/run.ts';
import { EXIT_FAILED, exitCodeFor } from '../report/exit-codes.ts';
import type { CliIo } from './io.ts';
import { COLOR_OPTIONS, FILE_FILTER_OPTIONS, IDEMPOTENT_OPTIONS, optionList } from './options.ts';
import type { Progress } from './progress.ts';

export interface MigrateCommand {
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
  /** --quiet: no summary, no progress line, no "written" lines; errors on stderr (with --dry-run the diff is still printed). */
  quiet?: boolean;
  /** --color / --no-color when given: whether the diff on stdout is coloured (over NO_COLOR / FORCE_COLOR). */
  color?: boolean;
  /** --patch FILE: the plain unified diff of the change, for `git apply`. */
  patch?: string;
  /** --report FILE: a self-contained HTML page reviewing the change. */
  report?: string;
  /** --sampling=flag: mark sampling sites instead of migrating them. */
  sampling?: 'migrate' | 'flag';
  /** --idempotent NAME (repeatable): callees declared idempotent. */
  idempotent?: string[];
  /** --no-v1: leave v1 SDK files as they are instead of running the official v1-to-v2 codemod first. */
  v1?: boolean;
  /** --v1-only: run the v1-to-v2 upgrade alone (the files MRTR needs), so that it can be committed first. */
  v1Only?: boolean;
  /** --show-generated: show the request-state module's diff whole on a terminal (otherwise one line). */
  showGenerated?: boolean;
  /** --no-types: never start the TypeScript checker (an unannotated lifted local is then marked). */
  types?: boolean;
  /** --state-module PATH: where the request-state module goes (default: beside the module that builds the server). */
  stateModule?: string;
}

/** The options of `migrate` (the help shows them; a mistyped one is answered with the nearest). */
export const MIGRATE_OPTIONS = {
  // -d and --dry: jscodeshift's names for it.
  'dry-run': { alias: ['d', 'dry'], type: 'boolean', default: false, describe: 'Print unified diffs (git apply-able) and the summary; write nothing' },
  patch: {
    type: 'string',
    requiresArg: true,
    describe: 'Also write the change as a plain unified diff to FILE (git apply-able from this directory); with or without --dry-run',
  },
  report: {
    type: 'string',
    requiresArg: true,
    describe: 'Also write a self-contained HTML review page to FILE: each diff, each site explained; with or without --dry-run',
  },
  force: { type: 'boolean', default: false, describe: 'Write even when git shows uncommitted changes under the paths (refused otherwise, exit 2)' },
  ...FILE_FILTER_OPTIONS,
  json: { type: 'boolean', default: false, describe: 'Print only a JSON summary on stdout (no diff, no progress line)' },
  quiet: {
    alias: 'q',
    type: 'boolean',
    default: false,
    describe: 'Print no summary and no progress line: with --dry-run only the diff, otherwise nothing but errors (on stderr); the exit code is unchanged',
  },
  ...COLOR_OPTIONS,
  sampling: {
    choices: ['migrate', 'flag'],
    requiresArg: true,
    default: 'migrate',
    describe:
      'migrate: move sampling to inputRequired.createMessage (with the deprecation note); flag: leave it and mark it (SEP-2577 advises calling your LLM provider directly)',
  },
  ...IDEMPOTENT_OPTIONS,
  types: {
    type: 'boolean',
    default: true,
    describe:
      'Ask the TypeScript checker for the types of locals that travel in requestState (--no-types never starts it: about 250 MB and a few seconds less; such a local without a type annotation is then marked untyped-local instead of migrated)',
  },
  v1: {
    type: 'boolean',
    default: true,
    describe:
      'Run the official v1-to-v2 codemod first on files that import @modelcontextprotocol/sdk, and update package.json (--no-v1 leaves them as they are)',
  },
  'v1-only': {
    type: 'boolean',
    default: false,
    describe: 'Run only the v1-to-v2 upgrade of the files MRTR needs (and their package.json), no MRTR change: commit it, then run migrate again',
  },
  'show-generated': {
    type: 'boolean',
    default: false,
    describe: 'Show the generated request-state module whole in the diff on a terminal (by default one line says what it is; a patch always holds it whole)',
  },
  'state-module': {
    type: 'string',
    requiresArg: true,
    describe:
      'Where the request-state module the migrated files import goes (a file, or a folder for mrtr-request-state.<ext>); by default beside the module that builds the server',
  },
} as const satisfies Record<string, Options>;

/** The yargs definition of `migrate`; `onCommand` receives the parsed command (run it with runMigrateCommand). */
export function migrateCommandModule(onCommand: (command: MigrateCommand) => void): CommandModule {
  return {
    command: 'migrate <paths..>',
    describe: 'Rewrite legacy server→client requests in the given files and directories',
    builder: (y) =>
      y
        .positional('paths', {
          type: 'string',
          array: true,
          describe:
            'Files or directories (in a directory, node_modules, dist, build, vendor, third_party, .git, minified files and what .gitignore ignores are skipped)',
        })
        .options(MIGRATE_OPTIONS)
        .example('$0 migrate src', 'rewrite every server file under src in place')
        .example('$0 migrate --dry-run --patch mrtr.patch --report mrtr.html src', 'write the change as a patch and a review page; touch nothing else')
        .example('$0 migrate --dry-run src > mrtr.patch', 'review the change first (the summary goes to stderr)')
        .example('$0 migrate --v1-only src', 'move the files MRTR needs to the v2 SDK, to commit that first')
        .check((args) => {
          if (args.v1Only && args.v1 === false) throw new Error('--v1-only and --no-v1 ask for opposite things: give one');
          return true;
        })
        .epilogue(
          'Exit codes (as for check): 0 nothing left, 1 markers left for a person, 2 usage error, refusal, or a file that could not be read, parsed or written.',
        ),
    handler: (args) => {
      const command: MigrateCommand = {
        name: 'migrate',
        paths: optionList(args.paths),
        dryRun: Boolean(args.dryRun),
        force: Boolean(args.force),
        include: optionList(args.include),
        exclude: optionList(args.exclude),
        json: Boolean(args.json),
        quiet: Boolean(args.quiet),
        sampling: args.sampling === 'flag' ? 'flag' : 'migrate',
        idempotent: optionList(args.idempotent),
        v1: args.v1 !== false,
        v1Only: Boolean(args.v1Only),
        showGenerated: Boolean(args.showGenerated),
        types: args.types !== false,
      };
      if (typeof args.color === 'boolean') command.color = args.color;
      if (typeof args.patch === 'string') command.patch = args.patch;
      if (typeof args.report === 'string') command.report = args.report;
      if (typeof args.stateModule === 'string') command.stateModule = args.stateModule;
      onCommand(command);
    },
  };
}

/** Runs `migrate` and returns the exit code. */
export async function runMigrateCommand(command: MigrateCommand, io: CliIo): Promise<number> {
  // --patch / --report: reserved first, so a bad output path is a usage error found before any
  // source is touched.
  const review = command.patch !== undefined || command.report !== undefined ? await import('../report/patch.ts') : undefined;
  const reserved = await review?.reserveReviewOutputs(command, io.cwd);
  if (reserved && 'problem' in reserved) {
    io.stderr(`mrtr-codemod: ${terminalText(reserved.problem)}\n`);
    return EXIT_FAILED;
  }
  const { createProgress } = await import('./progress.ts');
  const progress = createProgress({
    enabled: Boolean(io.stderrIsTTY) && !command.json && !command.quiet,
    write: (text) => io.stderr(text),
    columns: io.stderrColumns,
  });
  try {
    // The files that mention a marker as read: what `check` will report next is counted over them too.
    const markerFiles = new Set<string>();
    const result = await discoverAndRun(command, io, progress, markerFiles);
    progress.done();
    if (typeof result === 'number') return result;
    const outcome = await report(command, io, result, markerFiles);
    // With the patch on stdout, everything else goes to stderr.
    const reviewIo = command.dryRun && !command.json ? { ...io, stdout: io.stderr } : io;
    const written = reserved ? await review!.writeReviewOutputs(result, command, reserved, reviewIo) : true;
    return exitCodeFor({ open: outcome.open, failed: outcome.failed || !written });
  } finally {
    progress.done();
    await reserved?.discard();
  }
}

/** Steps 2 to 4 (see the top): the run's result, or the exit code of a refusal. */
async function discoverAndRun(command: MigrateCommand, io: CliIo, progress: Progress, markerFiles: Set<string>): Promise<RunResult | number> {
  const [{ runCodemod }, { unifiedDiff }, { discoverFiles }, { runDiscovered }, { mentionsMarker }] = await Promise.all([
    import('../engine/run.ts'),
    import('../report/diff.ts'),
    import('../engine/discover.ts'),
    import('./progress.ts'),
    import('../report/check-findings.ts'),
  ]);
  const discoverOptions = { include: command.include, exclude: command.exclude };
  progress.phase('finding files');
  const discovery = await discoverFiles(command.paths, io.cwd, discoverOptions, () => progress.tick());
  if (!command.dryRun) {
    const removed = await removeStaleTemps(discovery.staleTemps, io.cwd);
    if (removed.length > 0) progress.done();
    for (const file of removed) io.stderr(`mrtr-codemod: removed ${terminalText(file)}, a temporary file left by an interrupted run\n`);
    if (!command.force) {
      const refusal = await dirtyTreeRefusal(command, io.cwd);
      if (refusal) {
        progress.done();
        io.stderr(refusal);
        return EXIT_FAILED;
      }
    }
  }
  // Diffs to show or write are made as files finish, while others still wait for type facts.
  const diffs = (command.dryRun && !command.json) || command.patch !== undefined || command.report !== undefined;
  return runDiscovered(
    runCodemod,
    discovery,
    {
      write: !command.dryRun,
      cwd: io.cwd,
      discover: discoverOptions,
      transform: { sampling: command.sampling, ...(command.idempotent?.length ? { idempotent: command.idempotent } : {}) },
      v1: command.v1Only ? ('only' as const) : command.v1,
      ...(command.stateModule !== undefined ? { stateModule: command.stateModule } : {}),
      ...(command.types === false ? { types: false as const } : {}),
      ...(diffs ? { onChanged: (file: ChangedFile) => void unifiedDiff(file) } : {}),
      // The summary says what `check` will then report (report(), below).
      ...(!command.json && !command.quiet ? { readsOutputMarkers: true } : {}),
      onText: (absolutePath: string, source: string) => void (mentionsMarker(source) && markerFiles.add(absolutePath)),
    },
    progress,
  );
}

/** Temporary files of a run that was killed (SIGKILL) are ours: removed before the guard looks. Returns them, as shown. */
async function removeStaleTemps(files: readonly string[], cwd: string): Promise<string[]> {
  if (files.length === 0) return [];
  const [{ removeStaleTempFiles }, { displayPath }] = await Promise.all([import('../engine/atomic-write.ts'), import('../engine/source-files.ts')]);
  return (await removeStaleTempFiles(files)).map((file) => displayPath(cwd, file));
}

/**
 * The refusal to print when git shows uncommitted changes under the paths (or in the package.json
 * above them a v1 upgrade may edit, or in the request-state module --state-module names).
 */
async function dirtyTreeRefusal(command: MigrateCommand, cwd: string): Promise<string | undefined> {
  const [{ checkDirtyTree, formatDirtyRefusal }, { manifestsToGuard }, { ownTempFile }] = await Promise.all([
    import('../engine/git.ts'),
    import('../engine/manifests.ts'),
    import('../engine/atomic-write.ts'),
  ]);
  const manifests = command.v1 === false ? [] : await manifestsToGuard(command.paths, cwd);
  const tree = await checkDirtyTree([...command.paths, ...manifests, ...(await stateModuleToGuard(command, cwd))], cwd);
  // The --patch / --report files this run reserved (inside the paths, maybe) are its own.
  tree.dirty = tree.dirty.filter((entry) => !(entry.status === '??' && ownTempFile(entry.path.split('/').pop()!)));
  return tree.dirty.length > 0 ? formatDirtyRefusal(tree) : undefined;
}

/**
 * The request-state module --state-module names, when it is a file that exists: it may lie
 * outside the paths. A folder is not guarded whole (its other files are not the run's); the
 * module in it, like one put beside the server by default, is replaced only when it holds the
 * text an earlier run wrote and nobody edited, and still holds it just before the rename.
 */
async function stateModuleToGuard(command: MigrateCommand, cwd: string): Promise<string[]> {
  if (command.stateModule === undefined) return [];
  const info = await stat(path.resolve(cwd, command.stateModule)).catch(() => undefined);
  return info?.isFile() ? [command.stateModule] : [];
}

/**
 * Step 4's printing: a dry run's diff on stdout (a patch as it is, unless shown to a person) and
 * the summary on stderr, so that `migrate --dry-run > x.diff` is a clean patch; without the
 * diff, the summary on stdout. Returns what the exit code is made of.
 */
async function report(command: MigrateCommand, io: CliIo, result: RunResult, markerFiles: ReadonlySet<string>): Promise<{ open: boolean; failed: boolean }> {
  const [{ terminalDiff }, { runPatch }, { formatSummary }, { openUpgradeNotes }, { errorLocation }] = await Promise.all([
    import('../report/diff.ts'),
    import('../report/passes.ts'),
    import('../report/summary.ts'),
    import('../report/run-tally.ts'),
    import('../report/formats/check-report.ts'),
  ]);
  const patchOnStdout = command.dryRun && !command.json;
  if (patchOnStdout) {
    // A patch for a file or a pipe stays exact; shown to a person, the code's control characters
    // are escaped and the generated module is one line (unless asked for).
    const shown = io.color || io.stdoutIsTTY;
    const patch = runPatch(result, { generated: shown && !command.showGenerated ? 'line' : 'whole' });
    if (patch) io.stdout(shown ? terminalDiff(patch, Boolean(io.color)) : patch);
  }
  const say = patchOnStdout ? io.stderr : io.stdout;
  if (command.json) io.stdout(jsonText((await import('../report/json-summary.ts')).formatJsonSummary(result, { dryRun: command.dryRun })));
  else if (!command.quiet) {
    const nextCheck = await (await import('../report/next-check.ts')).nextCheckFindings(result, io.cwd, markerFiles);
    say(
      `${patchOnStdout && io.stdoutIsTTY && result.changed.length > 0 ? '\n' : ''}${formatSummary(result, { dryRun: command.dryRun, nextCheck, paths: command.paths })}`,
    );
  }
  // Quiet, there is no summary to hold the errors: they are said on stderr.
  if (command.quiet && !command.json) {
    for (const error of result.errors) io.stderr(`mrtr-codemod: ${terminalText(`${errorLocation(error)}: ${error.message}`)}\n`);
  }
  const marked = result.sites.some((site) => site.status === 'marked') || (result.entryPoints ?? []).some((entry) => entry.status === 'marked');
  const open = marked || openUpgradeNotes(result).length > 0 || (result.skipped ?? []).some((s) => s.candidate);
  return { open, failed: result.errors.length > 0 };
}
