// The human summary printed at the end of a run: what was looked at, what was migrated,
// what is left for a person (each marker with where, why and what next), what failed, and
// the deprecation notes for sampling and roots, each note once however many sites it concerns.
import type { RunResult } from '../engine/run.ts';
import { formatHandlerLine, summariseHandlers } from './json-summary.ts';

export interface SummaryOptions {
  /** Whether the run wrote nothing (changes were only shown). */
  dryRun: boolean;
}

export function formatSummary(result: RunResult, options: SummaryOptions): string {
  const lines: string[] = [];
  const migrated = result.sites.filter((s) => s.status === 'migrated');
  const marked = result.sites.filter((s) => s.status === 'marked');

  lines.push(`Files scanned: ${result.filesScanned} (${result.candidates} mention server→client requests)`);
  lines.push(options.dryRun ? `Files to change: ${result.changed.length} (dry run: nothing written)` : `Files changed: ${result.changed.length}`);
  for (const file of result.changed) lines.push(`  ${file.path}`);

  lines.push(`Sites migrated: ${migrated.length}`);

  lines.push(`Markers left: ${marked.length}`);
  for (const site of marked) {
    lines.push(`  ${site.file}:${site.line}:${site.column}  ${site.code ?? 'todo'}  ${site.reason ?? ''}  Next: ${site.next ?? ''}`);
  }

  // The official v1-to-v2 codemod's own leftovers: its markers are open work too.
  const upgrades = result.upgrades ?? [];
  const open = upgrades.flatMap((u) => u.notes.filter((n) => n.code === 'mcp-codemod-error' || n.code === 'mcp-codemod-failed' || n.code === 'v1-import-left').map((n) => ({ file: u.file, ...n })));
  if (upgrades.length > 0) {
    lines.push(`v1 to v2 (official codemod): ${count(open.length, 'item')} left`);
    for (const n of open) lines.push(`  ${n.file}:${n.line}:${n.column}  ${n.code}  ${n.message}`);
    for (const u of upgrades) for (const n of u.notes.filter((note) => note.code === 'mcp-codemod-warning')) lines.push(`  ${u.file}:${n.line}  warning  ${n.message}`);
  }

  lines.push(`Errors: ${result.errors.length}`);
  for (const error of result.errors) {
    const at = error.line === undefined ? error.file : `${error.file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`;
    lines.push(`  ${at}  ${error.message}`);
  }

  const notes = new Map<string, number>();
  for (const site of result.sites) if (site.guidance) notes.set(site.guidance, (notes.get(site.guidance) ?? 0) + 1);
  if (notes.size > 0) {
    lines.push('Notes:');
    for (const [note, sites] of notes) lines.push(`  ${note} (${count(sites, 'site')})`);
  }

  // The last line is the headline: whole handlers migrated, and those left for a person.
  lines.push(formatHandlerLine(summariseHandlers(result.sites)));

  return lines.join('\n') + '\n';
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
