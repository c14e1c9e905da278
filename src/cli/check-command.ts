// `mrtr-codemod check <paths..> [--format text|json|sarif|github] [--include G] [--exclude G]`:
// the CI lint mode. It writes nothing and exits as migrate does (src/report/exit-codes.ts): 0
// when nothing is left to migrate, 1 when legacy server→client requests or `@mrtr-todo` /
// `@mcp-codemod-error` markers remain, 2 on a usage error or when some input could not be read
// or parsed (what could be checked is still reported).
//
// Findings come from two sources, merged per file:
// - the codemod itself, run as a dry run (runCodemod with write: false): every site it reports
//   is still in the code, either migratable (`legacy-request`) or refused (`mrtr-todo/<code>`,
//   whose marker comment may or may not be written yet);
// - the comments of every discovered source file that mentions a marker (not only the files
//   the prefilter passes: a marker stays after its legacy call is gone).
// A refused site and its own marker (same code, in the comment lines just above the site's
// statement, where migrate writes it) are one finding, reported at the site with the marker's
// words. `@mrtr-note` comments are guidance, not findings.
//
// This module is imported by the CLI at start-up for its yargs definition: everything heavy
// (engine, parser, formats) is imported when the command runs.
import type { CommandModule, Options } from 'yargs';
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { terminalText } from '../core/escape.ts';
import type { DiscoverOptions } from '../engine/discover.ts';
import { markersByLines, markersInComment, type MarkerComment } from '../analyse/markers.ts';
import type { RunSite } from '../engine/run.ts';
import type { InputKind } from '../plan/types.ts';
import {
  buildCheckReport,
  CHECK_FORMATS,
  errorLocation,
  LEGACY_RULE,
  NOT_ANALYSED_RULE,
  OFFICIAL_RULE,
  TODO_RULE_PREFIX,
  type CheckError,
  type CheckFormat,
  type CheckReport,
  type CheckSkip,
  type Finding,
} from '../report/formats/check-report.ts';
import type { CliIo } from './io.ts';
import { FILE_FILTER_OPTIONS, optionList } from './options.ts';
import type { Progress } from './progress.ts';

export interface CheckCommand {
  name: 'check';
  paths: string[];
  format: CheckFormat;
  /** --include / --exclude: picomatch globs relative to cwd (exclude wins), as for migrate. */
  include?: string[];
  exclude?: string[];
}

/** The I/O `check` needs (a progress line on a terminal stderr for the text format). */
export type CheckIo = Pick<CliIo, 'stdout' | 'stderr' | 'cwd' | 'stderrIsTTY' | 'stderrColumns'>;

/** The options of `check` (the help shows them; a mistyped one is answered with the nearest). */
export const CHECK_OPTIONS = {
  format: { choices: CHECK_FORMATS, default: 'text' as CheckFormat, describe: 'Output: text lines, a JSON report, a SARIF 2.1.0 log, or GitHub Actions annotations' },
  ...FILE_FILTER_OPTIONS,
} as const satisfies Record<string, Options>;

interface CheckArgs {
  paths?: string[];
  format: CheckFormat;
  include?: unknown;
  exclude?: unknown;
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
        .epilogue('Exit codes (as for migrate): 0 nothing left, 1 findings, 2 usage error or unreadable/unparsable input.'),
    handler: (args) => {
      onCommand({ name: 'check', paths: (args.paths ?? []).map(String), format: args.format, include: optionList(args.include), exclude: optionList(args.exclude) });
    },
  };
}

/** Runs `check`, prints the report in the chosen format, and returns the exit code. */
export async function runCheckCommand(command: CheckCommand, io: CheckIo): Promise<number> {
  const { createProgress } = await import('./progress.ts');
  const progress = createProgress({ enabled: Boolean(io.stderrIsTTY) && command.format === 'text', write: (text) => io.stderr(text), columns: io.stderrColumns });
  let report: CheckReport;
  try {
    report = await collectCheckReport(command.paths, io.cwd, { include: command.include, exclude: command.exclude }, progress);
  } finally {
    progress.done();
  }
  const { formatCheckReport } = await import('../report/formats/index.ts');
  io.stdout(formatCheckReport(report, command.format));
  // The machine formats keep stdout a single document: say on stderr what could not be checked.
  if (command.format === 'json' || command.format === 'sarif') {
    for (const error of report.errors) io.stderr(`mrtr-codemod check: ${terminalText(`${errorLocation(error)}: ${error.message}`)}\n`);
  }
  return report.summary.exitCode;
}

// --- collecting findings ----------------------------------------------------------------------

/** Quick text test before a file's comments are parsed. */
export const MARKER_TEXT = /@mrtr-todo|@mcp-codemod-error/;

/** Dry-runs the codemod over `paths` and scans comments for markers; writes nothing. */
export async function collectCheckReport(paths: readonly string[], cwd: string, discover: DiscoverOptions = {}, progress?: Progress): Promise<CheckReport> {
  const [{ discoverFiles }, { runCodemod }, { displayPath }, { LintTypeFacts }, { runDiscovered }] = await Promise.all([
    import('../engine/discover.ts'),
    import('../engine/run.ts'),
    import('../engine/source-files.ts'),
    import('../engine/lint-type-facts.ts'),
    import('./progress.ts'),
  ]);
  progress?.phase('finding files');
  const discovery = await discoverFiles(paths, cwd, discover, () => progress?.tick());

  // Files whose text mentions a marker, kept as the run reads them (no second read), and
  // scanned as the run analyses them (no second parse).
  const markerTexts = new Map<string, string>();
  const onText = (absolute: string, source: string) => void (MARKER_TEXT.test(source) && markerTexts.set(absolute, source));
  const scanned = new Map<string, FileScan>();
  const onAnalysed = (absolute: string, analysis: FileAnalysis) => {
    if (markerTexts.get(absolute) === analysis.source) scanned.set(absolute, scanAnalysis(analysis));
  };
  // The codemod's view, over the same discovered files (its errors include discovery's).
  // Analysis only: v1 files are checked as they are (the official codemod runs on migrate), the
  // rewritten text is not re-parsed, and the type checker is asked only about receivers.
  const settings = { onText, onAnalysed, write: false, cwd, v1: false, verify: false, types: new LintTypeFacts() };
  const run = progress ? await runDiscovered(runCodemod, discovery, settings, progress) : await runCodemod({ ...settings, discovery });
  // Named after the run, not before: 10,000 display paths held through the run made V8's
  // collector work about 4x as hard in most runs of the benchmark (+270 ms, +70 MB peak).
  const files = discovery.files.map((absolute) => ({ absolute, file: displayPath(cwd, absolute) }));
  const errors: CheckError[] = [...run.errors];
  const failed = new Map<string, CheckError['stage']>();
  for (const error of run.errors) {
    if (!failed.has(error.file)) failed.set(error.file, error.stage);
  }
  const sitesByFile = new Map<string, RunSite[]>();
  for (const site of run.sites) {
    const list = sitesByFile.get(site.file) ?? [];
    list.push(site);
    sitesByFile.set(site.file, list);
  }

  // The comments' view: every discovered file that mentions a marker.
  const scans = new Map<string, FileScan>();
  for (const { absolute, file } of files) {
    const source = markerTexts.get(absolute);
    if (source === undefined) continue; // no marker text, or unreadable (the run reported it)
    const scan = scanned.get(absolute) ?? (await scanSource(source, absolute));
    if (scan.parseError && !failed.has(file)) errors.push({ file, stage: 'parse', ...scan.parseError });
    scans.set(file, scan);
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
    else skipped.push({ file: skip.file, reason: skip.reason });
  }
  return buildCheckReport(findings, errors, files.length, skipped);
}

export interface FileScan {
  markers: MarkerComment[];
  /** Lines that hold only comment text (and whitespace). */
  commentLines: Set<number>;
  /** First line of the statement holding the legacy call at `line:column`, when the file parsed. */
  statementLine(line: number, column: number): number | undefined;
  parseError?: { message: string; line?: number; column?: number };
}

/** Markers in the comments of one file, and where each legacy call's statement begins. */
async function scanSource(source: string, fileName: string): Promise<FileScan> {
  const [{ analyseFile }, { ParseFailure }] = await Promise.all([import('../analyse/analyse-file.ts'), import('../analyse/parse.ts')]);
  let analysis;
  try {
    analysis = analyseFile(source, fileName);
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    // Still list the markers (by lines that start as comments), so the report says what it can.
    const fallback = markersByLines(source);
    return {
      ...fallback,
      statementLine: () => undefined,
      parseError: {
        message: `cannot parse: ${error.message}`,
        ...(error.line !== undefined ? { line: error.line } : {}),
        ...(error.column !== undefined ? { column: error.column + 1 } : {}),
      },
    };
  }
  return scanAnalysis(analysis);
}

/** scanSource over a file the run has analysed already (nothing is parsed again). */
export function scanAnalysis({ source, comments, sites }: Pick<FileAnalysis, 'source' | 'comments' | 'sites'>): FileScan {
  const markers = comments.flatMap((comment) => markersInComment(comment));
  const lineStarts = lineStartOffsets(source);
  const commentLines = new Set<number>();
  for (const comment of comments) {
    const { start, end } = comment.loc!;
    const before = source.slice(lineStarts[start.line - 1]!, comment.start!);
    for (let line = start.line; line <= end.line; line++) {
      if (line === start.line && before.trim() !== '') continue;
      const after = line === end.line ? source.slice(comment.end!, lineEnd(source, comment.end!)) : '';
      if (after.trim() !== '' && !after.trim().startsWith('//') && !after.trim().startsWith('/*')) continue;
      commentLines.add(line);
    }
  }
  const statements = new Map<string, number>();
  for (const site of sites) {
    const statement = [...site.ancestors].reverse().find(isStatementLike) ?? site.call;
    const { line, column } = site.call.loc!.start;
    statements.set(`${line}:${column + 1}`, statement.loc!.start.line);
  }
  return { markers, commentLines, statementLine: (line, column) => statements.get(`${line}:${column}`) };
}

/** Same test as the planner: the statement a marker is written above. */
function isStatementLike(node: Node): boolean {
  return /Statement$|Declaration$/.test(node.type) && node.type !== 'BlockStatement';
}


const KIND_LABEL: Readonly<Record<InputKind, string>> = {
  elicit: 'elicitation',
  elicitUrl: 'URL elicitation',
  sampling: 'sampling',
  roots: 'roots',
};

/** One file's findings: its sites, each merged with its own marker, and the other markers. */
export function findingsForFile(file: string, sites: readonly RunSite[], scan: FileScan | undefined): Finding[] {
  const markers = scan?.markers ?? [];
  const used = new Set<MarkerComment>();
  const findings: Finding[] = [];
  const ordered = [...sites].sort((a, b) => a.line - b.line || a.column - b.column);

  for (const site of ordered) {
    const where = { kind: site.kind, ...(site.handler ? { handler: site.handler } : {}) };
    if (site.status === 'migrated') {
      findings.push({
        file,
        line: site.line,
        column: site.column,
        ruleId: LEGACY_RULE,
        severity: 'error',
        message: `${KIND_LABEL[site.kind]} request still awaited from the client${site.handler ? ` in ${site.handler}` : ''}; MCP 2026-07-28 removed server→client requests`,
        hint: `\`mrtr-codemod migrate ${shellWord(file)}\` can rewrite it`,
        ...where,
      });
      continue;
    }
    const code = site.code ?? 'unspecified';
    const marker = code === 'server-elsewhere' ? fileMarker(markers, code, used) : ownMarker(site, code, markers, scan);
    if (marker) used.add(marker);
    // server-elsewhere is a file-level report (line 1): the marker says where it really is.
    const at = marker && code === 'server-elsewhere' ? marker : site;
    findings.push({
      file,
      line: at.line,
      column: at.column,
      ruleId: `${TODO_RULE_PREFIX}${code}`,
      severity: 'error',
      message: todoMessage(marker?.reason ?? site.reason ?? '', marker ? marker.next : site.next),
      ...(code === 'server-elsewhere' ? {} : where),
      ...(marker ? { markerLine: marker.line } : {}),
    });
  }

  for (const marker of markers) {
    if (used.has(marker)) continue;
    findings.push({
      file,
      line: marker.line,
      column: marker.column,
      ruleId: marker.kind === 'official' ? OFFICIAL_RULE : `${TODO_RULE_PREFIX}${marker.code ?? 'unspecified'}`,
      severity: 'error',
      message:
        marker.kind === 'official'
          ? marker.reason || 'manual migration required (left by the official v1-to-v2 codemod)'
          : todoMessage(marker.reason, marker.next),
      markerLine: marker.line,
    });
  }
  return findings;
}

/** The todo marker with this code in the comment lines right above the site's statement. */
function ownMarker(site: RunSite, code: string, markers: readonly MarkerComment[], scan: FileScan | undefined): MarkerComment | undefined {
  if (!scan || markers.length === 0) return undefined;
  const statementLine = scan.statementLine(site.line, site.column) ?? site.line;
  let top = statementLine;
  while (top > 1 && scan.commentLines.has(top - 1)) top--;
  return markers.find((m) => m.kind === 'todo' && m.code === code && m.line >= top && m.line < statementLine);
}

function fileMarker(markers: readonly MarkerComment[], code: string, used: ReadonlySet<MarkerComment>): MarkerComment | undefined {
  const same = markers.filter((m) => m.kind === 'todo' && m.code === code);
  return same.find((m) => !used.has(m)) ?? same[0];
}

function todoMessage(reason: string, next: string | undefined): string {
  const text = reason.trim() || 'left for a person by mrtr-codemod';
  return next ? `${text} Next: ${next}` : text;
}

/** A path as one shell word (quoted when it holds anything but plain characters). */
function shellWord(file: string): string {
  return /^[\w./@+-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}

function lineStartOffsets(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineEnd(source: string, offset: number): number {
  const nl = source.indexOf('\n', offset);
  return nl === -1 ? source.length : nl;
}
