// One measured variant, in process, for the linearity check (`npm run bench -- --linearity`,
// bench/linearity.ts); the main benchmark measures whole processes of the compiled CLI instead
// (bench/run.ts):
//   node --import tsx bench/child.ts <variant> <corpus dir>
// Prints one JSON line. `workMs` is measured inside the process, from the first file-system
// call to the end (module loading and process start are not in it; bench/run.ts reports the
// process's wall time beside it).
//
// With BENCH_WARM=<dir> the variant first runs once, unmeasured, over <dir>.
//
// Variants:
//   floor    discover + read every file + prefilter + babel-parse every candidate: the least
//            any tool must do to look at the candidates' syntax.
//   check    the `check` command's own collection (collectCheckReport in src/cli/check-command.ts,
//            everything but printing).
//   check-analysis
//            the analysis-only path: runCodemod without writing, without diffs, without the
//            TypeScript checker (types: false) and without re-parsing outputs (verify: false).
//   migrate  `migrate --dry-run`: runCodemod(write: false) with the default type facts (the
//            checker's thread starts with the first question), plus the unified
//            diffs, each made as its file is done (as the CLI does).
//   migrate-no-types
//            `migrate --dry-run --no-types`: the same without the checker (a lifted local
//            without an annotation is marked instead of migrated).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSource, dialectOf } from '../src/analyse/parse.ts';
import { PREFILTER } from '../src/analyse/sdk-surface.ts';
import { collectCheckReport } from '../src/cli/check-command.ts';
// Loaded before the clock starts, as every module the other variants use: collectCheckReport
// imports the checker's modules lazily (the CLI's start-up does not pay for them otherwise).
import '../src/engine/lint-type-facts.ts';
import { discoverFiles } from '../src/engine/discover.ts';
import { runCodemod, type RunSettings } from '../src/engine/run.ts';
import { decodeSource } from '../src/engine/source-files.ts';
import { unifiedDiff, unifiedDiffs } from '../src/report/diff.ts';

export interface ChildReport {
  variant: string;
  files: number;
  candidates: number;
  /** floor only (the corpus manifest has it for the others). */
  candidateBytes?: number;
  workMs: number;
  /** CPU time (user + system, every thread of the process) over the same span: on a shared
   * machine it moves much less than wall time with other load. */
  cpuMs?: number;
  /** floor: the part spent in the parser. */
  parseMs?: number;
  changed?: number;
  sites?: number;
  /** Of the sites, those left marked (the rest migrated). */
  marked?: number;
  errors?: number;
  patchBytes?: number;
  /** migrate: the part spent making unified diffs after the run (the rest were made during it). */
  diffMs?: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
}

async function floor(dir: string): Promise<Omit<ChildReport, 'variant' | 'maxRssKiB'>> {
  const start = performance.now();
  const { files } = await discoverFiles([dir], process.cwd());
  let candidates = 0;
  let candidateBytes = 0;
  let parseMs = 0;
  // Reads as the engine does: synchronously (the fastest way to read many small files).
  for (let i = 0; i < files.length; i++) {
    const bytes = readFileSync(files[i]!);
    const source = decodeSource(bytes);
    if (typeof source !== 'string' || !PREFILTER.test(source)) continue;
    candidates++;
    candidateBytes += bytes.length;
    const t = performance.now();
    parseSource(source, dialectOf(files[i]!));
    parseMs += performance.now() - t;
  }
  return { files: files.length, candidates, candidateBytes, workMs: performance.now() - start, parseMs };
}

async function checkCommand(dir: string): Promise<Omit<ChildReport, 'variant' | 'maxRssKiB'>> {
  const start = performance.now();
  const report = await collectCheckReport([dir], process.cwd());
  return { files: report.summary.filesScanned, candidates: -1, workMs: performance.now() - start, sites: report.findings.length, errors: report.errors.length };
}

async function codemod(dir: string, variant: 'check-analysis' | 'migrate', extra: Partial<RunSettings>): Promise<Omit<ChildReport, 'variant' | 'maxRssKiB'>> {
  const start = performance.now();
  // As `migrate --dry-run` does: each changed file's diff is made as soon as it is done.
  const result = await runCodemod({
    paths: [dir],
    write: false,
    cwd: process.cwd(),
    ...(variant === 'check-analysis' ? { types: false as const, verify: false } : { onChanged: (file) => void unifiedDiff(file) }),
    ...extra,
  });
  const ran = performance.now();
  const patch = variant === 'migrate' ? unifiedDiffs(result.changed) : '';
  const workMs = performance.now() - start;
  return {
    files: result.filesScanned,
    candidates: result.candidates,
    workMs,
    changed: result.changed.length,
    sites: result.sites.length,
    marked: result.sites.filter((site) => site.status === 'marked').length,
    errors: result.errors.length,
    patchBytes: patch.length,
    diffMs: performance.now() - ran,
  };
}

const [variant, dirArg, optionsJson] = process.argv.slice(2);
if (!variant || !dirArg) {
  process.stderr.write('usage: node --import tsx bench/child.ts <floor|check|check-analysis|migrate|migrate-no-types> <dir> [run options as JSON]\n');
  process.exit(2);
}
const dir = path.resolve(dirArg);
const extra = optionsJson ? (JSON.parse(optionsJson) as Partial<RunSettings>) : {};
const measure = (target: string) =>
  variant === 'floor'
    ? floor(target)
    : variant === 'check'
      ? checkCommand(target)
      : variant === 'migrate-no-types'
        ? codemod(target, 'migrate', { types: false, ...extra })
        : codemod(target, variant as 'check-analysis' | 'migrate', extra);
// BENCH_WARM=<dir>: run the variant once over <dir> first, unmeasured, so the JIT is warm and
// the modules are loaded: what remains is the cost that grows with the input (linearity check).
if (process.env.BENCH_WARM) await measure(path.resolve(process.env.BENCH_WARM));
const cpu = process.cpuUsage();
const measured = await measure(dir);
const used = process.cpuUsage(cpu);
const report: ChildReport = { variant, ...measured, cpuMs: (used.user + used.system) / 1000, maxRssKiB: process.resourceUsage().maxRSS };
process.stdout.write(JSON.stringify(report) + '\n');
