// What `check` reports for one file, for the ESLint rules: the steps a check run takes for a
// file (src/engine/run.ts with LintTypeFacts, then src/report/check-findings.ts), on the text
// ESLint holds. An ESLint rule cannot wait, so the checker (asked whether a look-alike's
// receiver is an MCP SDK object, and, where a site would migrate, what migrate asks) answers in
// this thread; and the asking helpers other modules export are found by reading the modules
// this one imports, where a check run has them from its own pass over every file.
import { statSync } from 'node:fs';
import path from 'node:path';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { loadCarriedDeclarations, loadTypeScript } from '../analyse/load-typescript.ts';
import { markersByLines } from '../analyse/markers.ts';
import { ParseFailure } from '../analyse/parse.ts';
import { PREFILTER } from '../analyse/sdk-surface.ts';
import { factsFromAnswers, TypeScriptFacts } from '../analyse/ts-type-facts.ts';
import type { TypeFacts, TypeQuestions } from '../analyse/type-facts.ts';
import { AskingHelperIndex, moduleFiles, splitTogether } from '../engine/cross-module.ts';
import { asksOfLocals, LINT_LOCAL, lintFacts } from '../engine/lint-type-facts.ts';
import { passedOverByWalks } from '../engine/discover.ts';
import { DEFAULT_MAX_FILE_BYTES, tooLargeReason } from '../engine/run.ts';
import { displayPath, readSource } from '../engine/source-files.ts';
import type { FilePlan } from '../plan/types.ts';
import { findingsForFile, mentionsMarker, scanAnalysis } from '../report/check-findings.ts';
import { NOT_ANALYSED_RULE, type Finding } from '../report/formats/check-report.ts';
import { planOrQuestions, planWithFacts, type TransformOptions, withBlockBodies, withLines } from '../transform.ts';

export interface FileFindings {
  findings: Finding[];
  /** Why the file could not be checked (check lists it as an error and exits 2). */
  problem?: { message: string; line?: number; column?: number };
}

/** `check`'s findings for the file at `absolutePath` whose text is `source`, paths shown relative to `cwd`. */
export function fileFindings(source: string, absolutePath: string, cwd: string): FileFindings {
  const file = displayPath(cwd, absolutePath);
  // Vendored and minified code: a check of the folder passes over it.
  if (passedOverByWalks(file)) return { findings: [] };
  const candidate = PREFILTER.test(source);
  const bytes = Buffer.byteLength(source);
  const tooLarge = bytes > DEFAULT_MAX_FILE_BYTES;
  // As check: a candidate too large to analyse may still push a request, so it is a finding.
  if (tooLarge)
    return {
      findings: candidate
        ? [{ file, line: 1, column: 1, ruleId: NOT_ANALYSED_RULE, severity: 'error', message: tooLargeReason(bytes, DEFAULT_MAX_FILE_BYTES) }]
        : [],
    };
  // A file that is no candidate is still planned when it imports an asking helper of another
  // module (check's cross-module pass): then each handler that calls it is marked.
  const helpers = helpersImported(path.dirname(absolutePath), source);
  const planned = candidate || helpers !== undefined;
  const marked = mentionsMarker(source);
  if (!planned && !marked) return { findings: [] };
  let analysis: FileAnalysis;
  try {
    analysis = analyseFile(source, absolutePath);
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    // As check does: the markers of the lines that start as comments, and the parse error.
    const scan = { ...markersByLines(source), statementLine: () => undefined };
    const where = { ...(error.line !== undefined ? { line: error.line } : {}), ...(error.column !== undefined ? { column: error.column + 1 } : {}) };
    return { findings: findingsForFile(file, [], scan), problem: { message: `cannot parse: ${error.message}`, ...where } };
  }
  const options = helpers ? externalHelpers(analysis, helpers, cwd) : {};
  const sites = planned ? splitting(analysis, lintPlan(analysis, options), options).sites.map((site) => ({ file, ...site })) : [];
  return { findings: findingsForFile(file, sites, marked ? scanAnalysis(analysis) : undefined) };
}

/** The plan a check run makes of an analysed file (its type facts: LintTypeFacts's, answered at once). */
function lintPlan(analysis: FileAnalysis, options: TransformOptions = {}): FilePlan {
  // As migrate plans it: a handler written as one expression, with a block body where that migrates it.
  const planned = withBlockBodies(analysis, plannedOnce(analysis, options), (text) => {
    const blocked = analyseFile(text, analysis.fileName);
    return { analysis: blocked, plan: plannedOnce(blocked, options) };
  });
  return withLines(planned.plan);
}

function plannedOnce(analysis: FileAnalysis, options: TransformOptions): FilePlan {
  // A lint uses the plan's sites (and the helpers it exports), never its edits.
  const step = planOrQuestions(analysis, options, true, LINT_LOCAL);
  return 'plan' in step ? step.plan : planWithFacts(analysis, lintFactsNow(analysis.fileName, analysis.source, step.questions), options, true);
}

/**
 * The plan once the file splits the helpers it exports that it can split (check's cross-module
 * pass tells it to, each importer's calls then asking through the halves). Seen one file at a
 * time, a helper an importer cannot call that way is split here, where check keeps it whole.
 */
function splitting(analysis: FileAnalysis, plan: FilePlan, options: TransformOptions): FilePlan {
  const proposed = plan.exportedHelpers.filter((h) => h.split).map((h) => h.name);
  if (proposed.length === 0) return plan;
  const split = lintPlan(analysis, { ...options, splitExported: proposed });
  const kept = splitTogether(plan.exportedHelpers, new Set(split.splitExported));
  if (kept.length === 0) return plan;
  return kept.length === proposed.length ? split : lintPlan(analysis, { ...options, splitExported: kept });
}

let checker: TypeScriptFacts | undefined;

/** LintTypeFacts's answers, from a checker in this thread. */
function lintFactsNow(fileName: string, source: string, questions: TypeQuestions): TypeFacts {
  const locals = asksOfLocals(questions);
  if (!locals && questions.receivers.length === 0) return lintFacts();
  const [answers] = (checker ??= new TypeScriptFacts(loadTypeScript(), loadCarriedDeclarations())).answer([{ fileName, source, questions }]);
  const facts = factsFromAnswers(questions, answers!);
  return locals ? facts : lintFacts(facts);
}

// --- asking helpers of other modules ------------------------------------------------------------

type Helper = { name: string; line: number };

/** The asking helpers a module exports, by path, for as long as the file is the same on disk. */
const exportedHelperCache = new Map<string, { mtimeMs: number; size: number; helpers: Helper[] }>();

/** Relative module specifiers of import declarations (`from './x.js'`), read from the text. */
const RELATIVE_IMPORT = /\bfrom\s*(['"])(\.[^'"\n]*)\1/g;

/**
 * The asking helpers exported by the modules this text imports from, by module path, when the
 * text names one of them (AskingHelperIndex.mentionedIn); else undefined. Found from the text,
 * so that a file that imports none is not parsed.
 */
function helpersImported(dir: string, source: string): Map<string, Helper[]> | undefined {
  const helpers = new Map<string, Helper[]>();
  for (const specifier of new Set([...source.matchAll(RELATIVE_IMPORT)].map((m) => m[2]!))) {
    for (const name of moduleFiles(dir, specifier)) {
      const exported = exportedHelpers(name);
      if (exported.length > 0) helpers.set(name, exported);
    }
  }
  return helpers.size > 0 && new AskingHelperIndex(helpers, (p) => p).mentionedIn(source) ? helpers : undefined;
}

/** What the file imports of `helpers` (TransformOptions.externalHelpers), with modules named as check names them. */
function externalHelpers(analysis: FileAnalysis, helpers: Map<string, Helper[]>, cwd: string): TransformOptions {
  const imported = new AskingHelperIndex(helpers, (p) => displayPath(cwd, p)).importsIn(analysis.fileName, analysis);
  return imported.size > 0 ? { externalHelpers: imported } : {};
}

function exportedHelpers(absolutePath: string): Helper[] {
  let stat;
  try {
    stat = statSync(absolutePath);
  } catch {
    return [];
  }
  if (!stat.isFile()) return [];
  const cached = exportedHelperCache.get(absolutePath);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.helpers;
  let helpers: Helper[] = [];
  const read = stat.size <= DEFAULT_MAX_FILE_BYTES ? readSource(absolutePath) : undefined;
  if (read && PREFILTER.test(read.source)) {
    try {
      helpers = lintPlan(analyseFile(read.source, absolutePath)).exportedHelpers;
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
    }
  }
  exportedHelperCache.set(absolutePath, { mtimeMs: stat.mtimeMs, size: stat.size, helpers });
  return helpers;
}
