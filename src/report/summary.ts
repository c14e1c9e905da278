// The human summary printed at the end of a run: what was looked at, what was migrated (the
// request-state module included), what is left for a person (each marker with where, why and
// what next), what failed, the deprecation notes for sampling and roots, each note once
// however many sites it concerns, and the next steps.
import { terminalText } from '../core/escape.ts';
import type { RunResult } from '../engine/run.ts';
import { count, errorLocation, skipNote } from './formats/check-report.ts';
import type { NextCheck } from './next-check.ts';
import { nextSteps, stateModuleNotes } from './next-steps.ts';
import { hasUpgradePart, PASS_NAMES, passesOf } from './passes.ts';
import {
  blocksBuild,
  buildBlockers,
  guidanceNotes,
  openUpgradeNotes,
  RERUN_WHY,
  rerunWhere,
  rerunByHandler,
  siteTotals,
  summariseHandlers,
  upgradeWarnings,
  type HandlerSummary,
} from './run-tally.ts';

export interface SummaryOptions {
  /** Whether the run wrote nothing (changes were only shown). */
  dryRun: boolean;
  /** What `check` will report once the change is in place (next-check.ts): the last step gives its numbers. */
  nextCheck?: NextCheck;
  /** The paths the run was given, for the commands the next steps name. */
  paths?: readonly string[];
}

export function formatSummary(result: RunResult, options: SummaryOptions): string {
  const lines = [
    ...fileLines(result, options),
    ...siteLines(result),
    ...problemLines(result),
    ...noteLines(result),
    // The headline: whole handlers migrated, and those left for a person; then what to do next.
    ...(result.v1Only ? [] : [formatHandlerLine(summariseHandlers(result.sites, result.askingThrough))]),
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
  const upgrade = hasUpgradePart(result.changed);
  for (const file of result.changed)
    lines.push(
      upgrade
        ? `  ${file.path}  (${passesOf(file)
            .map((p) => PASS_NAMES[p])
            .join(', then ')})`
        : `  ${file.path}`,
    );
  if (upgrade && !result.v1Only) {
    lines.push(
      '  The patch holds the v1-to-v2 upgrade first (part 1), then the MRTR change (part 2); --v1-only runs the upgrade alone, to review and commit it first.',
    );
  }
  lines.push(...v1KeptLines(result));
  const modules = stateModuleNotes(result.stateModules);
  if (modules.length > 0) {
    lines.push('Request-state module:');
    for (const { file, note } of modules) lines.push(`  ${file}: ${note}`);
  }
  return lines;
}

/** The v1 files the upgrade left as they are: MRTR needs none of them (src/engine/v1-scope.ts). */
function v1KeptLines(result: RunResult): string[] {
  const kept = result.v1Kept ?? [];
  if (kept.length === 0) return [];
  const shown = kept.slice(0, 5).join(', ') + (kept.length > 5 ? `, and ${kept.length - 5} more` : '');
  return [`Left on the v1 SDK: ${count(kept.length, 'file')} MRTR does not need (no request, no server with one, or only a client): ${shown}`];
}

/** The sites migrated, and what is left for a person: each marker, and the official codemod's leftovers. */
function siteLines(result: RunResult): string[] {
  const lines: string[] = [];
  if (result.v1Only) return [...upgradeLines(result)];
  const sites = siteTotals(result.sites);
  lines.push(`Sites migrated: ${sites.migrated}`);
  lines.push(...rerunLines(result));

  lines.push(`Markers left: ${sites.marked}`);
  for (const site of result.sites) {
    if (site.status !== 'marked') continue;
    lines.push(`  ${site.file}:${site.line}:${site.column}  ${site.code ?? 'todo'}  ${site.reason ?? ''}  Next: ${site.next ?? ''}`);
  }

  lines.push(...entryPointLines(result), ...upgradeLines(result));
  return lines;
}

/** The official v1-to-v2 codemod's own leftovers (its markers are open work too), and the code that blocks the build. */
function upgradeLines(result: RunResult): string[] {
  const lines = blockerLines(result);
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
    for (const call of h.calls) lines.push(`    ${rerunWhere(call)}: ${call.text} (${RERUN_WHY[call.why]})`);
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
  const steps = nextSteps(result, options);
  return steps.length === 0 ? [] : ['Next steps:', ...steps.map((step, i) => `  ${i + 1}. ${step}`)];
}

/**
 * `migrated 14/17 handlers; 3 need manual work: tool:a (src/a.ts:12, closure), ...`, then the sites
 * in no handler: `; 1 site outside any handler needs manual work: src/b.ts:40 (no-request-to-answer)`.
 */
function formatHandlerLine(summary: HandlerSummary, shown = 10): string {
  let line = summary.total === 0 && summary.outside.length > 0 ? 'no handler to migrate' : `migrated ${summary.migrated}/${count(summary.total, 'handler')}`;
  const manual = summary.manual;
  if (manual.length > 0) {
    const names = manual.slice(0, shown).map((h) => `${h.handler} (${h.file}:${h.line}, ${h.codes.join(', ')})`);
    if (manual.length > shown) names.push(`and ${manual.length - shown} more (see the markers)`);
    line += `; ${manual.length} ${manual.length === 1 ? 'needs' : 'need'} manual work: ${names.join(', ')}`;
  }
  const outside = summary.outside;
  if (outside.length > 0) {
    const places = outside.slice(0, shown).map((h) => `${h.file}:${h.line} (${h.codes.join(', ')})`);
    if (outside.length > shown) places.push(`and ${outside.length - shown} more (see the markers)`);
    line += `; ${count(outside.length, 'site')} outside any handler ${outside.length === 1 ? 'needs' : 'need'} manual work: ${places.join(', ')}`;
  }
  return line;
}
