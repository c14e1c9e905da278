// What `mrtr-codemod check` will report once a run's change is in place: the summary's last step
// gives these numbers, so that the check a person runs next prints the same. Worked out as check
// works it out (check-findings.ts), on the texts the run leaves: each site left with a marker is
// one finding, merged with its own marker; every other marker (`@mrtr-todo` of an entry point,
// of the removed tasks API, `@mcp-codemod-error` of the official codemod, one written before
// the run) is one; a file too large to analyse that mentions a request is one.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChangedFile, RunResult, RunSite } from '../engine/run.ts';
import { positionMap } from '../core/position-map.ts';
import { displayPath } from '../engine/source-files.ts';
import { outputSyntaxes } from '../engine/output-syntax.ts';
import { findingsForFile, mentionsMarker, scanComments, scanSource } from './check-findings.ts';
import { NOT_ANALYSED_RULE } from './formats/check-report.ts';

export interface NextCheck {
  findings: number;
  /** Findings per rule id (`mrtr-todo/<code>`, `mcp-codemod-error`, ...). */
  byRule: Record<string, number>;
}

/**
 * The findings `check` will report on the tree the run leaves (its change applied, for a dry
 * run). `markerFiles`: the files (absolute) whose text mentioned a marker when the run read them.
 */
export async function nextCheckFindings(
  result: Pick<RunResult, 'changed' | 'sites' | 'skipped'>,
  cwd: string,
  markerFiles: Iterable<string> = [],
): Promise<NextCheck> {
  const changed = new Map(result.changed.map((f) => [f.path, f]));
  const marked = new Map<string, RunSite[]>();
  for (const site of result.sites) if (site.status === 'marked') marked.set(site.file, [...(marked.get(site.file) ?? []), site]);
  const files = new Map<string, string>(); // display path -> absolute path
  for (const absolute of markerFiles) files.set(displayPath(cwd, absolute), absolute);
  for (const file of [...marked.keys(), ...changed.keys()]) if (!files.has(file)) files.set(file, path.resolve(cwd, file));
  const byRule = new Map<string, number>();
  const add = (rule: string) => byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
  for (const [file, absolute] of files) {
    const change = changed.get(file);
    const text = change ? change.output : await readFile(absolute, 'utf8').catch(() => undefined);
    if (text === undefined || /(^|\/)package\.json$/.test(file)) continue;
    const onDisk = marked.get(file) ?? [];
    const toFinal = change && onDisk.length > 0 ? finalPlace(change) : undefined;
    const sites = toFinal ? onDisk.map((site) => ({ ...site, ...toFinal(site.line, site.column) })) : onDisk;
    const mentions = mentionsMarker(text);
    if (sites.length === 0 && !mentions) continue;
    // A text without a marker has nothing for a site to merge with: its sites are its findings.
    // An output the run knows the syntax of is not parsed again.
    const known = change && outputSyntaxes.get(change);
    const scan = !mentions
      ? undefined
      : known?.output === text
        ? scanComments(text, known.comments, known.statements)
        : await scanSource(text, absolute).catch(() => undefined);
    for (const finding of findingsForFile(file, sites, scan)) add(finding.ruleId);
  }
  for (const skip of result.skipped ?? []) if (skip.candidate) add(NOT_ANALYSED_RULE);
  const rules = [...byRule.keys()].sort();
  return { findings: [...byRule.values()].reduce((a, b) => a + b, 0), byRule: Object.fromEntries(rules.map((r) => [r, byRule.get(r)!])) };
}

/** Where a position of the file on disk is in the text the run leaves (through the upgrade's text, for a v1 file). */
function finalPlace(change: ChangedFile): (line: number, column: number) => { line: number; column: number } {
  const toOutput = positionMap(change.upgraded ?? change.original, change.output);
  if (change.upgraded === undefined) return toOutput;
  const toUpgraded = positionMap(change.original, change.upgraded);
  return (line, column) => {
    const at = toUpgraded(line, column);
    return toOutput(at.line, at.column);
  };
}
