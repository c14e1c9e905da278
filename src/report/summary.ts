// The human summary printed at the end of a run: what was looked at, what was migrated (the
// request-state module included), what is left for a person (each marker with where, why and
// what next), what failed, the deprecation notes for sampling and roots, each note once
// however many sites it concerns, and the next steps.
import { terminalText } from '../core/escape.ts';
import type { RunResult } from '../engine/run.ts';
import { count, errorLocation, skipNote } from './formats/check-report.ts';
import { nextSteps, stateModuleNotes } from './next-steps.ts';
import {
  blocksBuild,
  buildBlockers,
  guidanceNotes,
  openUpgradeNotes,
  RERUN_WHY,
  rerunByHandler,
  siteTotals,
  summariseHandlers,
  upgradeWarnings,
  type HandlerSummary,
} from './run-tally.ts';

interface SummaryOptions {
  /** Whether the run wrote nothing (changes were only shown). */
  dryRun: boolean;
}

export function formatSummary(result: RunResult, options: SummaryOptions): string {
  const lines = [
    ...fileLines(result, options),
    ...siteLines(result),
    ...problemLines(result),
    ...noteLines(result),
    // The headline: whole handlers migrated, and those left for a person; then what to do next.
    formatHandlerLine(summariseHandlers(result.sites)),
    ...stepLines(result, options),
  ];
  // Names and messages come from the repository: each line is escaped, so none can hide another.
  return lines.map(terminalText).join('\n') + '\n';
}

/** What was looked at and what changed, the request-state module included. */
function fileLines(result: RunResult, options: SummaryOptions): string[] {
  const lines: string[] = [];
  lines.push(`Files scanned: ${result.filesScanned} (${result.candidates} mention server→client requests)`);
  lines.push(options.dryRun ? `Files to change: ${result.changed.length} (dry run: nothing written)` : `Files changed: ${result.changed.length}`);
  for (const file of result.changed) lines.push(`  ${file.path}`);
  const modules = stateModuleNotes(result.stateModules);
  if (modules.length > 0) {
    lines.push('Request-state module:');
    for (const { file, note } of modules) lines.push(`  ${file}: ${note}`);
  }
  return lines;
}

/** The sites migrated, and what is left for a person: each marker, and the official codemod's leftovers. */
function siteLines(result: RunResult): string[] {
  const lines: string[] = [];
  const sites = siteTotals(result.sites);
  lines.push(`Sites migrated: ${sites.migrated}`);
  lines.push(...rerunLines(result));

  lines.push(`Markers left: ${sites.marked}`);
  for (const site of result.sites) {
    if (site.status !== 'marked') continue;
    lines.push(`  ${site.file}:${site.line}:${site.column}  ${site.code ?? 'todo'}  ${site.reason ?? ''}  Next: ${site.next ?? ''}`);
  }

  lines.push(...entryPointLines(result), ...blockerLines(result));

  // The official v1-to-v2 codemod's own leftovers: its markers are open work too.
  if (result.upgrades.length > 0) {
    const open = openUpgradeNotes(result).filter((n) => !blocksBuild(n));
    lines.push(`v1 to v2 (official codemod): ${count(open.length, 'item')} left`);
    for (const n of open) lines.push(`  ${n.file}:${n.line}:${n.column}  ${n.code}  ${n.message}`);
    for (const n of upgradeWarnings(result)) lines.push(`  ${n.file}:${n.line}  warning  ${n.message}`);
  }
  return lines;
}

/** What migrated handlers run again on each retry instead of carrying it: a reviewer checks each call. */
function rerunLines(result: RunResult): string[] {
  const handlers = rerunByHandler(result.sites);
  if (handlers.length === 0) return [];
  const lines = ['Runs again on each retry (derived again, not carried in requestState):'];
  for (const h of handlers) {
    const locals = h.locals.length > 0 ? `  locals: ${h.locals.join(', ')}` : '';
    lines.push(`  ${h.file}:${h.line}  ${h.handler}${locals}`);
    for (const call of h.calls) lines.push(`    line ${call.line}: ${call.text} (${RERUN_WHY[call.why]})`);
  }
  return lines;
}

/** The entry points: served on both eras (through serveStdio, or createMcpHandler in front of the transport), or marked with the change to make. */
function entryPointLines(result: RunResult): string[] {
  const entries = result.entryPoints ?? [];
  if (entries.length === 0) return [];
  const marked = entries.filter((e) => e.status === 'marked');
  const lines = [`Entry points: ${entries.length - marked.length} now serve 2026-07-28 and 2025, ${marked.length} marked`];
  for (const e of entries) {
    if (e.status === 'marked') lines.push(`  ${e.file}:${e.line}  ${e.code ?? 'todo'}  ${e.reason ?? ''}  Next: ${e.next ?? ''}`);
    else if (e.via === 'createMcpHandler') lines.push(`  ${e.file}:${e.line}  createMcpHandler(factory) for 2026-07-28 requests, this transport for 2025`);
    else lines.push(`  ${e.file}:${e.line}  serveStdio(factory)`);
  }
  return lines;
}

/** The code left on the removed tasks API, each use where it is: the server does not build until it goes. */
function blockerLines(result: RunResult): string[] {
  const blockers = buildBlockers(result);
  if (blockers.length === 0) return [];
  return [
    `Blocking the build: ${count(blockers.length, 'use')} of the experimental tasks API, which the v2 SDK removed (SEP-2663); the server does not build until they go`,
    ...blockers.map((n) => `  ${n.file}:${n.line}:${n.column}  ${n.code}  ${n.message}`),
  ];
}

/** What failed, and what was passed over on purpose. */
function problemLines(result: RunResult): string[] {
  const lines = [`Errors: ${result.errors.length}`, ...result.errors.map((error) => `  ${errorLocation(error)}  ${error.message}`)];
  // Passed over on purpose (vendored, minified, too large, links out of the root): notes, not errors.
  const skipped = result.skipped ?? [];
  if (skipped.length > 0) lines.push(`Skipped: ${skipped.length}`, ...skipped.map((s) => `  ${s.file}  ${skipNote(s)}`));
  return lines;
}

/** The deprecation notes, each once however many sites it concerns. */
function noteLines(result: RunResult): string[] {
  const notes = guidanceNotes(result.sites);
  return notes.length === 0 ? [] : ['Notes:', ...notes.map(({ note, sites }) => `  ${note} (${count(sites, 'site')})`)];
}

function stepLines(result: RunResult, options: SummaryOptions): string[] {
  const steps = nextSteps(result, { dryRun: options.dryRun });
  return steps.length === 0 ? [] : ['Next steps:', ...steps.map((step, i) => `  ${i + 1}. ${step}`)];
}

/** `migrated 14/17 handlers; 3 need manual work: tool:a (src/a.ts:12, closure), src/b.ts:40 (...)`. */
function formatHandlerLine(summary: HandlerSummary, shown = 10): string {
  let line = `migrated ${summary.migrated}/${count(summary.total, 'handler')}`;
  const manual = summary.manual;
  if (manual.length === 0) return line;
  const names = manual.slice(0, shown).map((h) => `${h.handler ?? `${h.file}:${h.line}`} (${h.handler ? `${h.file}:${h.line}, ` : ''}${h.codes.join(', ')})`);
  if (manual.length > shown) names.push(`and ${manual.length - shown} more (see the markers)`);
  line += `; ${manual.length} ${manual.length === 1 ? 'needs' : 'need'} manual work: ${names.join(', ')}`;
  return line;
}
