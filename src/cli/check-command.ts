// `mrtr-codemod check <paths..> [--format text|json|sarif|github] [--include G] [--exclude G]
// [-o FILE]`: the CI lint mode. It writes nothing but the report --output-file names (never
// through a link, never over a file that is not an earlier report: src/report/check-output.ts),
// and exits as migrate does (src/report/exit-codes.ts): 0
// when nothing is left to migrate, 1 when legacy server→client requests or `@mrtr-todo` /
// `@mcp-codemod-error` markers remain, 2 on a usage error or when some input could not be read
// or parsed (what could be checked is still reported).
//
// Findings come from two sources, merged per file (src/report/check-findings.ts):
// - the codemod itself, run as a dry run (runCodemod with write: false): every site it reports
//   is still in the code, either migratable (`legacy-request`) or refused (`mrtr-todo/<code>`,
//   whose marker comment may or may not be written yet);
// - the comments of every discovered source file that mentions a marker (not only the files
//   the prefilter passes: a marker stays after its legacy call is gone).
//
// This module is imported by the CLI at start-up for its yargs definition: everything heavy
// (engine, parser, formats) is imported when the command runs.
import type { CommandModule, Options } from 'yargs';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { terminalText } from '../core/escape.ts';
import type { DiscoverOptions } from '../engine/discover.ts';
import type { RunResult, RunSite } from '../engine/run.ts';
import type { TransformOptions } from '../transform.ts';
import type { FileScan } from '../report/check-findings.ts';
import {
  buildCheckReport,
  CHECK_FORMATS,
  errorLocation,
  formatTotal,
  NOT_ANALYSED_RULE,
  type CheckError,
  type CheckFormat,
  type CheckReport,
  type CheckSkip,
  type Finding,
} from '../report/formats/check-report.ts';
import type { ReservedFile } from '../engine/atomic-write.ts';
import { EXIT_FAILED } from '../report/exit-codes.ts';
import type { CliIo } from './io.ts';
import { COLOR_OPTIONS, FILE_FILTER_OPTIONS, IDEMPOTENT_OPTIONS, optionList } from './options.ts';
import type { Progress } from './progress.ts';

export interface CheckCommand {
  name: 'check';
  paths: string[];
  format: CheckFormat;
  /** --include / --exclude: picomatch globs relative to cwd (exclude wins), as for migrate. */
  include?: string[];
  exclude?: string[];
  /** --quiet: the findings and the files that could not be checked, no skipped notes, no total line, no progress line. */
  quiet?: boolean;
  /** --output-file FILE: the whole report goes there instead of stdout. */
  outputFile?: string;
  /** --color / --no-color when given (the text formats have no colour yet: accepted as every linter's is). */
  color?: boolean;
  /** --no-v1: check v1 files as they are (each site `legacy-sdk`), without running the official codemod on scratch copies. */
  v1?: boolean;
  /** --idempotent NAME (repeatable): callees declared idempotent, as for migrate. */
  idempotent?: string[];
  /** --no-types: never start the TypeScript checker; say what `migrate --no-types` would do. */
  types?: boolean;
}

/** What a check run decides as migrate does: the same choices give the same answers. */
export interface CheckChoices {
  /** false: check v1 files as they are (--no-v1). */
  v1?: boolean;
  /** false: plan without type facts, as `migrate --no-types` does (--no-types). */
  types?: boolean;
}

/** The I/O `check` needs (a progress line on a terminal stderr for the text format). */
export type CheckIo = Pick<CliIo, 'stdout' | 'stderr' | 'cwd' | 'stderrIsTTY' | 'stderrColumns'>;

/** The options of `check` (the help shows them; a mistyped one is answered with the nearest). */
export const CHECK_OPTIONS = {
  format: {
    alias: 'f',
    choices: CHECK_FORMATS,
    requiresArg: true,
    default: 'text' as CheckFormat,
    describe: 'Output: text lines, a JSON report, a SARIF 2.1.0 log, or GitHub Actions annotations',
  },
  json: { type: 'boolean', default: false, describe: 'Same as --format json (as migrate --json)' },
  quiet: {
    alias: 'q',
    type: 'boolean',
    default: false,
    describe: 'Print the findings (and what could not be checked) only: no skipped notes, no total line, no progress line',
  },
  'output-file': {
    alias: 'o',
    type: 'string',
    requiresArg: true,
    describe:
      'Write the report to FILE instead of stdout (the whole report, even with --quiet); never through a symbolic link, and never over a file that is not empty or an earlier report of check',
  },
  v1: {
    type: 'boolean',
    default: true,
    describe:
      'Run the official v1-to-v2 codemod on scratch copies of the v1 files MRTR needs, so that a finding says what migrate will do (--no-v1 reports their sites legacy-sdk, faster)',
  },
  types: {
    type: 'boolean',
    default: true,
    describe:
      'Where a site would migrate, ask the TypeScript checker what migrate asks (is a local that travels JSON?), so that a finding says what migrate will do (--no-types never starts it and says what migrate --no-types will do, faster)',
  },
  ...FILE_FILTER_OPTIONS,
  ...IDEMPOTENT_OPTIONS,
  color: {
    ...COLOR_OPTIONS.color,
    describe: 'Accepted (and --no-color, --color=always|never|auto) as by migrate, for scripts that pass it to every tool: the reports of check have no colour',
  },
} as const satisfies Record<string, Options>;

interface CheckArgs {
  paths?: string[];
  format: CheckFormat;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
  outputFile?: unknown;
  v1?: boolean;
  types?: boolean;
  include?: unknown;
  exclude?: unknown;
  idempotent?: unknown;
}

/** @internal The yargs definition of `check`; `onCommand` receives the parsed command (run it with runCheckCommand). Internal: the published declarations must not need yargs types. */
export function checkCommandModule(onCommand: (command: CheckCommand) => void): CommandModule<object, CheckArgs> {
  return {
    command: 'check <paths..>',
    describe: 'Exit 1 if legacy server→client requests or @mrtr-todo / @mcp-codemod-error markers remain (CI lint; writes nothing)',
    builder: (y) =>
      y
        .positional('paths', { type: 'string', array: true, describe: 'Files or directories (skipped as by migrate)' })
        .options(CHECK_OPTIONS)
        .example('$0 check src', 'list what is left; exit 1 if anything is')
        .example('$0 check --format sarif . > mrtr.sarif', 'a SARIF log for github/codeql-action/upload-sarif')
        .example('$0 check --format github .', 'annotate the pull request from a GitHub Actions step')
        .example('$0 check -f json -o mrtr.json src', 'write the JSON report to mrtr.json (again on the next run)')
        .check((args) => {
          // --json names one format: with another named too, which one was meant is a guess.
          if (args.json && args.format !== 'json' && args.format !== 'text')
            throw new Error(`--json and --format ${String(args.format)} ask for two formats: give one`);
          return true;
        })
        .epilogue('Exit codes (as for migrate): 0 nothing left, 1 findings, 2 usage error or unreadable/unparsable input.'),
    handler: (args) => {
      onCommand({
        name: 'check',
        paths: (args.paths ?? []).map(String),
        format: args.json ? 'json' : args.format,
        include: optionList(args.include),
        exclude: optionList(args.exclude),
        quiet: Boolean(args.quiet),
        ...(args.v1 === false ? { v1: false } : {}),
        ...(args.types === false ? { types: false } : {}),
        ...(args.idempotent !== undefined ? { idempotent: optionList(args.idempotent) } : {}),
        ...(typeof args.color === 'boolean' ? { color: args.color } : {}),
        ...(typeof args.outputFile === 'string' ? { outputFile: args.outputFile } : {}),
      });
    },
  };
}

/** Runs `check`, prints the report in the chosen format, and returns the exit code. */
export async function runCheckCommand(command: CheckCommand, io: CheckIo): Promise<number> {
  // --output-file: reserved first, so a path that may not be written is found before the run.
  const output =
    command.outputFile === undefined ? undefined : await (await import('../report/check-output.ts')).reserveCheckOutput(command.outputFile, io.cwd);
  if (output && 'problem' in output) {
    io.stderr(`mrtr-codemod: ${terminalText(output.problem)}\n`);
    return EXIT_FAILED;
  }
  try {
    return await checkAndReport(command, io, output);
  } finally {
    await output?.discard();
  }
}

async function checkAndReport(command: CheckCommand, io: CheckIo, output: ReservedFile | undefined): Promise<number> {
  const { createProgress } = await import('./progress.ts');
  const progress = createProgress({
    enabled: Boolean(io.stderrIsTTY) && command.format === 'text' && !command.quiet,
    write: (text) => io.stderr(text),
    columns: io.stderrColumns,
  });
  let report: CheckReport;
  try {
    const transform = command.idempotent?.length ? { idempotent: command.idempotent } : {};
    const choices = { v1: command.v1 !== false, types: command.types !== false };
    report = await collectCheckReport(command.paths, io.cwd, { include: command.include, exclude: command.exclude }, progress, transform, choices);
  } finally {
    progress.done();
  }
  const { formatCheckReport } = await import('../report/formats/index.ts');
  if (output) {
    try {
      await output.write(formatCheckReport(report, command.format));
    } catch (error) {
      const { outputProblem } = await import('../report/patch.ts');
      io.stderr(`mrtr-codemod: ${terminalText(`--output-file ${command.outputFile!}: ${outputProblem(error)}`)}\n`);
      return EXIT_FAILED;
    }
    if (!command.quiet) io.stdout(`${terminalText(formatTotal(report))}\nReport written: ${terminalText(command.outputFile!)}\n`);
  } else {
    io.stdout(formatCheckReport(report, command.format, { quiet: command.quiet }));
  }
  // The machine formats keep stdout a single document, and a report in a file is not seen: say on stderr what could not be checked.
  if (output || command.format === 'json' || command.format === 'sarif') {
    for (const error of report.errors) io.stderr(`mrtr-codemod check: ${terminalText(`${errorLocation(error)}: ${error.message}`)}\n`);
  }
  return report.summary.exitCode;
}

// --- collecting findings ----------------------------------------------------------------------

/** Dry-runs the codemod over `paths` (with the user's choices `transform`) and scans comments for markers; writes nothing. */
export async function collectCheckReport(
  paths: readonly string[],
  cwd: string,
  discover: DiscoverOptions = {},
  progress?: Progress,
  transform: Pick<TransformOptions, 'idempotent'> = {},
  { v1 = true, types = true }: CheckChoices = {},
): Promise<CheckReport> {
  const [{ discoverFiles }, { runCodemod }, { displayPath }, { LintTypeFacts }, { runDiscovered }, checkFindings] = await Promise.all([
    import('../engine/discover.ts'),
    import('../engine/run.ts'),
    import('../engine/source-files.ts'),
    import('../engine/lint-type-facts.ts'),
    import('./progress.ts'),
    import('../report/check-findings.ts'),
  ]);
  progress?.phase('finding files');
  const discovery = await discoverFiles(paths, cwd, discover, () => progress?.tick());
  const markers = markerTexts(checkFindings);
  // The codemod's view, over the same discovered files (its errors include discovery's).
  // Analysis only: nothing is rewritten (the plans' sites are the findings), and the type
  // checker is asked about receivers, and about locals only where a site would migrate
  // (LintTypeFacts; nothing with --no-types, as on migrate --no-types). v1 files MRTR needs go
  // through the official codemod (on scratch copies) as on migrate, so that a finding says what
  // migrate would do with it (unless --no-v1: then their sites are legacy-sdk).
  const settings = {
    onText: markers.onText,
    onAnalysed: markers.onAnalysed,
    write: false,
    rewrite: false,
    cwd,
    v1,
    types: types ? new LintTypeFacts() : (false as const),
    transform,
  };
  const run = progress ? await runDiscovered(runCodemod, discovery, settings, progress) : await runCodemod({ ...settings, discovery });
  // Named after the run, not before: 10,000 display paths held through the run made V8's
  // collector work about 4x as hard in most runs of the benchmark (+270 ms, +70 MB peak).
  const files = discovery.files.map((absolute) => ({ absolute, file: displayPath(cwd, absolute) }));
  const errors: CheckError[] = [...run.errors];
  const scans = await scanMarkers(files, markers, errors, checkFindings);
  const { findings, skipped } = checkFindingsOf(files, run, scans, checkFindings);
  return buildCheckReport(findings, errors, files.length, skipped);
}

type CheckFindings = typeof import('../report/check-findings.ts');

interface DiscoveredFile {
  absolute: string;
  /** Its display path. */
  file: string;
}

/**
 * Files whose text mentions a marker, kept as the run reads them (no second read), and
 * scanned as the run analyses them (no second parse).
 */
function markerTexts({ mentionsMarker, scanAnalysis }: CheckFindings) {
  const texts = new Map<string, string>();
  const scanned = new Map<string, FileScan>();
  return {
    texts,
    scanned,
    onText: (absolute: string, source: string) => void (mentionsMarker(source) && texts.set(absolute, source)),
    onAnalysed: (absolute: string, analysis: FileAnalysis) => {
      if (texts.get(absolute) === analysis.source) scanned.set(absolute, scanAnalysis(analysis));
    },
  };
}

/**
 * The comments' view: every discovered file that mentions a marker, by display path. A file
 * that does not parse is an error, unless the run has one for it already.
 */
async function scanMarkers(
  files: readonly DiscoveredFile[],
  markers: ReturnType<typeof markerTexts>,
  errors: CheckError[],
  { scanSource }: CheckFindings,
): Promise<Map<string, FileScan>> {
  const failed = new Set(errors.map((error) => error.file));
  const scans = new Map<string, FileScan>();
  for (const { absolute, file } of files) {
    const source = markers.texts.get(absolute);
    if (source === undefined) continue; // no marker text, or unreadable (the run reported it)
    const scan = markers.scanned.get(absolute) ?? (await scanSource(source, absolute));
    if (scan.parseError && !failed.has(file)) errors.push({ file, stage: 'parse', ...scan.parseError });
    scans.set(file, scan);
  }
  return scans;
}

/** The findings of the sites and markers of each file, in discovery order, and the files passed over. */
function checkFindingsOf(
  files: readonly DiscoveredFile[],
  run: Pick<RunResult, 'sites' | 'skipped'>,
  scans: ReadonlyMap<string, FileScan>,
  { findingsForFile }: CheckFindings,
): { findings: Finding[]; skipped: CheckSkip[] } {
  const sitesByFile = new Map<string, RunSite[]>();
  for (const site of run.sites) {
    const list = sitesByFile.get(site.file) ?? [];
    list.push(site);
    sitesByFile.set(site.file, list);
  }
  const findings: Finding[] = [];
  for (const { file } of files) {
    const sites = sitesByFile.get(file) ?? [];
    const scan = scans.get(file);
    if (sites.length > 0 || (scan && scan.markers.length > 0)) findings.push(...findingsForFile(file, sites, scan));
  }
  // Passed over on purpose: a file too large to analyse that mentions a legacy request may still
  // push one, so it is a finding; the rest (vendored, minified, links out) are notes.
  const skipped: CheckSkip[] = [];
  for (const skip of run.skipped ?? []) {
    if (skip.candidate) findings.push({ file: skip.file, line: 1, column: 1, ruleId: NOT_ANALYSED_RULE, severity: 'error', message: skip.reason });
    else skipped.push({ file: skip.file, reason: skip.reason, ...(skip.legacyRequests !== undefined ? { legacyRequests: skip.legacyRequests } : {}) });
  }
  return { findings, skipped };
}
