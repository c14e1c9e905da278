// The held-out-style corpus (test/corpus/<project>): small servers written in the shapes real
// MCP servers have, several files a project, no node_modules. Each legacy request in it carries
// the outcome it should have, on the comment line above it:
//   // corpus-site: migrate
//   // corpus-site: mark <code>[|<code>...]
// measureProject copies a project into a scratch folder outside this checkout (so no
// node_modules resolves, as in a fresh clone), runs the codemod over it and sets what it
// reported beside those expectations.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCodemod, type RunResult, type RunSite } from '../../src/engine/run.ts';
import type { TypeFactsSource } from '../../src/transform.ts';
import { ROOT } from './fixtures.ts';

export const CORPUS = path.join(ROOT, 'test', 'corpus');

export type Expectation = { file: string; line: number; expect: 'migrate' } | { file: string; line: number; expect: 'mark'; codes: string[] };

/** One expected site and what the run reported at its line. */
export interface SiteOutcome {
  expected: Expectation;
  reported?: RunSite;
  /** `migrated`, `marked`, or `missed` (no report at the line). */
  status: 'migrated' | 'marked' | 'missed';
  /** Whether the outcome is the expected one (for a mark: one of the expected codes). */
  ok: boolean;
}

export interface ProjectMeasure {
  project: string;
  outcomes: SiteOutcome[];
  /** Sites reported at lines no expectation names (the call into a helper aside). */
  unexpected: RunSite[];
  result: RunResult;
}

export function corpusProjects(): string[] {
  return readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

const SOURCE = /\.(m|c)?(t|j)sx?$/;

/** The expectations written in a project's sources, by file relative to the project. */
export function expectationsOf(projectDir: string): Expectation[] {
  const out: Expectation[] = [];
  for (const entry of readdirSync(projectDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !SOURCE.test(entry.name)) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const file = path.relative(projectDir, absolute).split(path.sep).join('/');
    const lines = readFileSync(absolute, 'utf8').split('\n');
    lines.forEach((text, i) => {
      const m = /\/\/ corpus-site: (migrate|mark ([\w|-]+))\s*$/.exec(text);
      if (!m) return;
      let at = i + 1;
      while (at < lines.length && /^\s*\/\//.test(lines[at]!)) at++;
      out.push(m[1] === 'migrate' ? { file, line: at + 1, expect: 'migrate' } : { file, line: at + 1, expect: 'mark', codes: m[2]!.split('|') });
    });
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** Codes reported at a handler's call into a helper, not at a request: not sites of their own. */
const NOT_A_SITE = new Set(['via-helper', 'server-elsewhere']);

/** A scratch copy of a project, outside this checkout: nothing resolves from its node_modules. */
export function scratchCopy(project: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `mrtr-corpus-${project}-`));
  cpSync(path.join(CORPUS, project), dir, { recursive: true });
  return dir;
}

export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs the codemod over a copy at `dir` (writing) and sets the reports beside the expectations. */
export async function measureProject(project: string, dir: string, types?: TypeFactsSource | false): Promise<ProjectMeasure> {
  const expectations = expectationsOf(path.join(CORPUS, project));
  const result = await runCodemod({ paths: ['.'], cwd: dir, write: true, ...(types === undefined ? {} : { types }) });
  const used = new Set<RunSite>();
  const outcomes = expectations.map((expected): SiteOutcome => {
    const reported = result.sites.find((s) => s.file === expected.file && s.line === expected.line && !NOT_A_SITE.has(s.code ?? ''));
    if (!reported) return { expected, status: 'missed', ok: false };
    used.add(reported);
    const ok = expected.expect === 'migrate' ? reported.status === 'migrated' : reported.status === 'marked' && expected.codes.includes(reported.code!);
    return { expected, reported, status: reported.status, ok };
  });
  const unexpected = result.sites.filter((s) => !used.has(s) && !NOT_A_SITE.has(s.code ?? '') && s.code !== 'blocked-by-helper');
  return { project, outcomes, unexpected, result };
}

export interface Tally {
  sites: number;
  found: number;
  migrated: number;
  marked: number;
  missed: number;
  /** Migrated where the expectation is `no-request-to-answer`. */
  migratedWithoutRequest: number;
  /** Outcomes that differ from the expectation. */
  wrong: number;
}

export function tally(measures: readonly ProjectMeasure[]): Tally {
  const all = measures.flatMap((m) => m.outcomes);
  return {
    sites: all.length,
    found: all.filter((o) => o.status !== 'missed').length,
    migrated: all.filter((o) => o.status === 'migrated').length,
    marked: all.filter((o) => o.status === 'marked').length,
    missed: all.filter((o) => o.status === 'missed').length,
    migratedWithoutRequest: all.filter((o) => o.status === 'migrated' && o.expected.expect === 'mark' && o.expected.codes.includes('no-request-to-answer'))
      .length,
    wrong: all.filter((o) => !o.ok).length,
  };
}

/** One line an outcome: where, what was expected, what was reported. */
export function describeOutcome(project: string, o: SiteOutcome): string {
  const want = o.expected.expect === 'migrate' ? 'migrate' : `mark ${o.expected.codes.join('|')}`;
  const got = o.status === 'missed' ? 'MISSED' : o.status === 'migrated' ? 'migrated' : `marked ${o.reported!.code}`;
  return `${o.ok ? '  ok ' : '  !! '} ${project}/${o.expected.file}:${o.expected.line}  want ${want}, got ${got}`;
}
