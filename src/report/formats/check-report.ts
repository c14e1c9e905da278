// The result of `mrtr-codemod check`, independent of how it is printed: what is still open
// (findings), what could not be looked at (errors), and the rule catalogue every output format
// describes its findings with. Pure data: no file system, no engine.
//
// A finding is one of:
// - `legacy-request`: a server→client request (elicitation, sampling, roots) the codemod can
//   migrate, still awaited in the code (`mrtr-codemod migrate` rewrites it);
// - `mrtr-todo/<code>`: a site the codemod refuses (its `@mrtr-todo(<code>)` marker may or may
//   not be written yet), or an `@mrtr-todo` marker comment left in the code;
// - `mcp-codemod-error`: an `@mcp-codemod-error` comment left by the official v1-to-v2 codemod;
// - `not-analysed`: a file that mentions a legacy request but is too large to analyse (a
//   bundle, in practice): it may still push one, so it is not passed.
// `@mrtr-note` comments (deprecation guidance) are not findings, and neither is what discovery
// passed over on purpose (vendored and minified code, links out of the tree): those are listed
// as `skipped`.
import { readmeUrl } from '../../core/vocabulary.ts';
import { isRefusalCode, MANUAL_HELP, REFUSAL_CODES, refusalDocsAnchor } from '../../plan/refusal.ts';
import type { InputKind } from '../../core/vocabulary.ts';
import { exitCodeFor, type ExitCode } from '../exit-codes.ts';

export const CHECK_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

export const LEGACY_RULE = 'legacy-request';
export const TODO_RULE_PREFIX = 'mrtr-todo/';
export const OFFICIAL_RULE = 'mcp-codemod-error';
export const NOT_ANALYSED_RULE = 'not-analysed';

/** A folder or file passed over on purpose, with why (not a finding, not an error). */
export interface CheckSkip {
  /** Relative to the working directory, with `/` separators. */
  file: string;
  reason: string;
  /** For a vendored folder: how many legacy request sites it holds. */
  legacyRequests?: number;
}

/** The note on what was passed over: why, and for a vendored folder the legacy requests in it. */
export function skipNote(skip: Pick<CheckSkip, 'reason' | 'legacyRequests'>): string {
  const n = skip.legacyRequests;
  if (n === undefined) return skip.reason;
  return `${skip.reason} (${n === 0 ? 'no legacy request' : `${n} legacy request${n === 1 ? '' : 's'}`} in it)`;
}

export interface Finding {
  /** Relative to the working directory, with `/` separators. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  /** `legacy-request`, `mrtr-todo/<code>` or `mcp-codemod-error`. */
  ruleId: string;
  /** Every finding fails check. */
  severity: 'error';
  message: string;
  /** For `legacy-request`: the command that rewrites it. */
  hint?: string;
  /** The kind of request, for findings that are legacy sites. */
  kind?: InputKind;
  /** The handler the site is in (`tool:delete_records`), when it is in one. */
  handler?: string;
  /** Line of the marker comment in the file, when there is one (absent: not written yet). */
  markerLine?: number;
  /** For `mrtr-todo/<code>`: where the README explains the code. */
  docs?: string;
}

type CheckErrorStage = 'discover' | 'read' | 'parse' | 'transform' | 'write';

export interface CheckError {
  /** Relative to the working directory, with `/` separators. */
  file: string;
  stage: CheckErrorStage;
  message: string;
  line?: number;
  column?: number;
}

interface CheckSummary {
  /** Source files discovered and read. */
  filesScanned: number;
  filesWithFindings: number;
  findings: number;
  /** Findings `mrtr-codemod migrate` can rewrite (`legacy-request`). */
  fixable: number;
  errors: number;
  /** Folders and files passed over on purpose. */
  skipped: number;
  /** Findings per rule id, keys sorted. */
  byRule: Record<string, number>;
  /** src/report/exit-codes.ts: 0 nothing left, 1 findings, 2 some input could not be checked. */
  exitCode: ExitCode;
}

/** The `--format json` document (and what every other format is rendered from). */
export interface CheckReport {
  /** Changes only when a field changes meaning or goes away. */
  version: 1;
  /** Sorted by file, line, column, rule id. */
  findings: Finding[];
  /** Sorted by file, then as found. */
  errors: CheckError[];
  /** Sorted by file. */
  skipped: CheckSkip[];
  summary: CheckSummary;
}

/** Assembles the report: sorts, counts, and fixes the key order of every object. */
export function buildCheckReport(
  findings: readonly Finding[],
  errors: readonly CheckError[],
  filesScanned: number,
  skipped: readonly CheckSkip[] = [],
): CheckReport {
  const sorted = [...findings].sort((a, b) => compare(a.file, b.file) || a.line - b.line || a.column - b.column || compare(a.ruleId, b.ruleId));
  const byRuleCounts = new Map<string, number>();
  for (const f of sorted) byRuleCounts.set(f.ruleId, (byRuleCounts.get(f.ruleId) ?? 0) + 1);
  const byRule: Record<string, number> = {};
  for (const id of [...byRuleCounts.keys()].sort(compare)) byRule[id] = byRuleCounts.get(id)!;
  const orderedErrors = errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => compare(a.e.file, b.e.file) || a.i - b.i)
    .map(({ e }) => normaliseError(e));
  return {
    version: 1,
    findings: sorted.map(normaliseFinding),
    errors: orderedErrors,
    skipped: [...skipped]
      .sort((a, b) => compare(a.file, b.file))
      .map((s) => ({ file: s.file, reason: s.reason, ...(s.legacyRequests !== undefined ? { legacyRequests: s.legacyRequests } : {}) })),
    summary: {
      filesScanned,
      filesWithFindings: new Set(sorted.map((f) => f.file)).size,
      findings: sorted.length,
      fixable: sorted.filter((f) => f.ruleId === LEGACY_RULE).length,
      errors: orderedErrors.length,
      skipped: skipped.length,
      byRule,
      exitCode: exitCodeFor({ open: sorted.length > 0, failed: orderedErrors.length > 0 }),
    },
  };
}

function normaliseFinding(f: Finding): Finding {
  return {
    file: f.file,
    line: f.line,
    column: f.column,
    ruleId: f.ruleId,
    severity: 'error',
    message: f.message,
    ...(f.hint !== undefined ? { hint: f.hint } : {}),
    ...(f.kind !== undefined ? { kind: f.kind } : {}),
    ...(f.handler !== undefined ? { handler: f.handler } : {}),
    ...(f.markerLine !== undefined ? { markerLine: f.markerLine } : {}),
    ...(f.docs !== undefined ? { docs: f.docs } : {}),
  };
}

function normaliseError(e: CheckError): CheckError {
  return {
    file: e.file,
    stage: e.stage,
    message: e.message,
    ...(e.line !== undefined ? { line: e.line } : {}),
    ...(e.column !== undefined ? { column: e.column } : {}),
  };
}

/** The message with its hint, for the one-line formats. */
export function messageWithHint(finding: Finding): string {
  return finding.hint ? `${finding.message} (${finding.hint})` : finding.message;
}

/** `path:line:col` of an error (of `check`, or of a `migrate` run), as far as it is known. */
export function errorLocation(error: Pick<CheckError, 'file' | 'line' | 'column'>): string {
  if (error.line === undefined) return error.file;
  return `${error.file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`;
}

/** The pseudo rule id an error is listed under in the line formats (`parse-error`). */
export function errorRuleId(error: CheckError): string {
  return `${error.stage}-error`;
}

/** The one-line total the text and github formats end with. */
export function formatTotal(report: CheckReport): string {
  const s = report.summary;
  const fixable = s.fixable > 0 ? ` (${s.fixable} can be rewritten by \`mrtr-codemod migrate\`)` : '';
  const skipped = s.skipped > 0 ? `, ${s.skipped} skipped` : '';
  return (
    `mrtr-codemod check: ${count(s.findings, 'finding')} in ${count(s.filesWithFindings, 'file')}${fixable}, ` +
    `${count(s.errors, 'error')}, ${count(s.filesScanned, 'file')} checked${skipped}`
  );
}

/** `1 file`, `2 files`: the one pluralizer of the reports (every noun they count takes an -s). */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// --- rules ----------------------------------------------------------------------------------

interface RuleInfo {
  id: string;
  /** One sentence. */
  shortDescription: string;
  fullDescription: string;
  /** What to do about it. */
  help: string;
  /** Where the README explains it (SARIF's helpUri, the ESLint rule's docs link). */
  docsUrl: string;
}

/**
 * The README anchor that documents a rule id: `legacy-request`, `mcp-codemod-error`, and for
 * each refusal code the one its table gives (test/eslint.test.ts checks that each is there);
 * a code of no table goes to the table.
 */
export function docsAnchor(ruleId: string): string {
  if (ruleId === LEGACY_RULE || ruleId === OFFICIAL_RULE || ruleId === NOT_ANALYSED_RULE) return ruleId;
  const code = ruleId.startsWith(TODO_RULE_PREFIX) ? ruleId.slice(TODO_RULE_PREFIX.length) : ruleId;
  return isRefusalCode(code) ? refusalDocsAnchor(code) : 'when-it-refuses';
}

export function ruleInfo(ruleId: string): RuleInfo {
  const docsUrl = readmeUrl(docsAnchor(ruleId));
  if (ruleId === LEGACY_RULE) {
    return {
      id: ruleId,
      docsUrl,
      shortDescription: 'A server→client request (elicitation, sampling or roots) is still awaited from the client.',
      fullDescription:
        "MCP 2026-07-28 removed server-initiated requests: a tool, prompt or resource handler must return inputRequired(...) and read the answer from the client's retry (Multi Round-Trip Requests). This site can be migrated automatically.",
      help: 'Run `mrtr-codemod migrate <paths>` (review first with `--dry-run`): the handler becomes a first-call branch that asks and resume branches that read the answers, with its state in a signed requestState.',
    };
  }
  if (ruleId === NOT_ANALYSED_RULE) {
    return {
      id: ruleId,
      docsUrl,
      shortDescription: 'A file that mentions a server→client request was too large to analyse.',
      fullDescription:
        'Files above the size limit (1 MiB) are not parsed: in practice they are bundles or generated code. This one mentions a legacy request, so it may still push one to the client.',
      help: 'Migrate the sources the file is built from and build it again, or leave it out with --exclude if it is not yours.',
    };
  }
  if (ruleId === OFFICIAL_RULE) {
    return {
      id: ruleId,
      docsUrl,
      shortDescription: 'A marker left by the official MCP v1-to-v2 codemod: manual migration required.',
      fullDescription:
        'The official @modelcontextprotocol/codemod v1-to-v2 migration leaves an @mcp-codemod-error comment where it could not migrate the code; the code is not yet on the v2 SDK.',
      help: 'Do what the comment says by hand, then delete the @mcp-codemod-error comment.',
    };
  }
  const code = ruleId.startsWith(TODO_RULE_PREFIX) ? ruleId.slice(TODO_RULE_PREFIX.length) : ruleId;
  const known = isRefusalCode(code) ? REFUSAL_CODES[code] : undefined;
  return {
    id: ruleId,
    docsUrl,
    shortDescription: known ? known.short : `Not migrated (${code}): the codemod left this site for a person.`,
    fullDescription:
      'mrtr-codemod left this server→client request as it was, with an @mrtr-todo comment saying why and what to do next; it still has to be migrated to MCP 2026-07-28 Multi Round-Trip Requests.',
    help: known ? known.help : MANUAL_HELP,
  };
}
