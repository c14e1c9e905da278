// One candidate of a run (a file whose text passed the prefilter): planned or transformed with
// its type facts, its rewrite verified to parse, its sites reported at the lines on disk, its
// new text written atomically. A failure is the file's error; the run goes on with the others.
import { analyseSites, type FileAnalysis } from '../analyse/analyse-file.ts';
import { mentionsMarker } from '../analyse/markers.ts';
import { dialectOf, ParseFailure } from '../analyse/parse.ts';
import type { FilePlan } from '../plan/types.ts';
import {
  askTypes,
  planAsked,
  transformAsked,
  transformWithTypes,
  type AskedFile,
  type TransformOptions,
  type TransformResult,
  type TypeFactsSource,
} from '../transform.ts';
import { readOnlyReason } from './atomic-write.ts';
import type { Registered } from './cross-module.ts';
import { describeFsError } from './discover.ts';
import { positionMap } from '../core/position-map.ts';
import { lineNumberAt } from '../core/vocabulary.ts';
import type { RunSettings } from './run-options.ts';
import type { ChangedFile, ErrorStage, HandlerAskingThrough, RunEntryPoint, RunError, RunSite } from './run-result.ts';
import type { Placement } from './state-modules.ts';
import { sdkTypesMissing } from './installed-types.ts';
import { officialMarkers, type UpgradeNote } from './v1-upgrade.ts';
import type { V1Reach } from './v1-reach.ts';
import { verifyParses } from './verify-output.ts';
import { outputSyntaxes, statementLines, syntaxOfCommentLines, type OutputSyntax } from './output-syntax.ts';

/** What every candidate of a run shares: the run's settings, decided once. */
export interface RunContext {
  types: TypeFactsSource | undefined;
  write: boolean;
  rewrite: boolean;
  writeReadOnly: boolean;
  verify: boolean;
  /** Keep the syntax of verified texts that mention a marker (RunSettings.readsOutputMarkers). */
  readsOutputMarkers: boolean;
  /** The user's choices for the migration. */
  transform: TransformOptions;
  onChanged: RunSettings['onChanged'];
  onAnalysed: RunSettings['onAnalysed'];
  /** Writes the request-state module at this path before a file importing it is written; the reason when it cannot. */
  writeStateModule?: (modulePath: string) => Promise<string | undefined>;
  /**
   * The files whose new text names lines of other modules, each with the bytes it holds on disk:
   * written once those lines are placed (other-module-lines.ts), never with their placeholders.
   */
  heldWrites: Map<string, Uint8Array>;
}

/** What one file contributed; assembled in discovery order at the end of the run. */
export interface FileOutcome {
  sites: RunSite[];
  /** Its stdio entry points, rewritten or marked (a transforming run only). */
  entryPoints?: RunEntryPoint[];
  changed?: ChangedFile;
  errors: RunError[];
  /**
   * The text its plan is of and the file on disk, where they differ and no change holds them (a
   * v1 file a plan-only run upgraded in memory): the lines other modules' words name of it are
   * placed on disk (other-module-lines.ts).
   */
  planned?: { file: string; text: string; onDisk: string };
  /** What its handlers run again on each retry, to list on the reports of other modules' helpers they ask through (FilePlan.rerunAtHelpers). */
  rerunAtHelpers?: FilePlan['rerunAtHelpers'];
  /** Its migrated handlers with no site of their own (RunResult.askingThrough). */
  askingThrough?: HandlerAskingThrough[];
}

export interface Candidate {
  context: RunContext;
  absolutePath: string;
  file: string;
  /** The bytes on disk: read at the start, then what this run wrote. */
  bytes: Buffer;
  /** The text on disk: what a change is compared with and what a write replaces. */
  source: string;
  /** What the MRTR pass reads: the source, or the official codemod's v2 text of a v1 file. */
  input: string;
  outcome: FileOutcome;
  fail: ReturnType<typeof failer>;
  /**
   * A v1 file's notes from the official codemod, at their place in its text, and the entry of
   * the run's result that reports them at their place in the text the run leaves.
   */
  upgrade?: { notes: readonly UpgradeNote[]; reported: { file: string; notes: UpgradeNote[] } };
  /** In the cross-module pass: the asking helpers of other modules this file imports. */
  externalHelpers?: TransformOptions['externalHelpers'];
  /** In the cross-module pass: this module's exported helpers to split (every caller can ask through them). */
  splitExported?: string[];
  /** In the cross-module pass: this module's functions other modules' migrated tool definitions are handed to. */
  widenDefiners?: string[];
  /** In the cross-module pass: this module's exported functions other modules register as handlers. */
  registeredAs?: Registered[];
  /** In the cross-module pass: this module's part in dispatches across modules. */
  dispatch?: TransformOptions['dispatch'];
  /** In the cross-module pass: the registries of other modules this module hands declarations to. */
  registries?: TransformOptions['registries'];
  /** In the cross-module pass: why helpers stay whole that could be split (its handlers' refusals, its own helpers' refused calls). */
  refusedSplits?: Pick<TransformOptions, 'heldBack' | 'keptWhole' | 'untiedCalls' | 'legacyEntries'>;
  /** Set once transformed: the functions of other modules it hands declarations to, for the pass to read (see registry-modules.ts). */
  registryQuestions?: TransformResult['plan']['registryQuestions'];
  /** The imported functions this file's initialize hooks call that only register (hook-registrars.ts). */
  registersOnly?: string[];
  /** A file that reaches the v1 SDK through a module of the project: upgraded with it (see v1-reach.ts). */
  alias?: V1Reach;
  /** A file that reaches a module of the project that stays on the v1 SDK (by this specifier): its sites are marked. */
  v1Through?: string;
  /** Set once transformed: the definers of other modules this module's migrated tool definitions are handed to. */
  definers?: TransformResult['plan']['definers'];
  /**
   * Set once transformed: the asking helpers this module exports. Only this is kept of the
   * plan, which holds the file's syntax tree (kept for every candidate, the trees were most of
   * a run's memory).
   */
  exportedHelpers?: TransformResult['plan']['exportedHelpers'];
  /** Where the request-state module is for this file (decided once every file is read). */
  placement?: Placement;
  /** Set once transformed: its migrated handlers import the request-state module. */
  importsStateModule?: boolean;
  /** Analysed while the files were read, its questions put to the checker (askEarly); dropped once transformed. */
  asked?: AskedFile;
}

export function newCandidate(
  context: RunContext,
  read: { absolutePath: string; file: string; bytes: Buffer; source: string },
  outcome: FileOutcome,
): Candidate {
  return { context, ...read, input: read.source, outcome, fail: failer(read.file, outcome) };
}

export function failer(file: string, outcome: FileOutcome) {
  return (stage: ErrorStage, message: string, line?: number, column?: number) => {
    outcome.errors.push({ file, stage, message, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) });
  };
}

/**
 * Candidates whose transform is under way (most finish at once; those waiting for type facts
 * finish when their batch is flushed).
 */
export class RunningTransforms {
  readonly tasks = new Set<Promise<void>>();

  track(task: Promise<void>): void {
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Until every transform under way, and any they start, is done. */
  async settle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all(this.tasks);
  }
}

/** The options a candidate is transformed with: the user's, what the run found for it, and (once placed) its request-state module. */
function transformOptionsOf(c: Candidate): TransformOptions {
  return {
    ...c.context.transform,
    ...(c.externalHelpers ? { externalHelpers: c.externalHelpers } : {}),
    ...(c.splitExported ? { splitExported: c.splitExported } : {}),
    ...(c.widenDefiners ? { widenDefiners: c.widenDefiners } : {}),
    ...(c.v1Through ? { v1Through: c.v1Through } : {}),
    ...(c.registeredAs ? { registeredAs: c.registeredAs } : {}),
    ...(c.registries ? { registries: c.registries } : {}),
    ...(c.dispatch ? { dispatch: c.dispatch } : {}),
    ...c.refusedSplits,
    ...(c.registersOnly ? { registersOnly: c.registersOnly } : {}),
    ...(c.placement ? { stateModule: c.placement.options } : {}),
    ...(sdkTypesMissing(c.absolutePath) ? { typesMissing: true } : {}),
    // Placed once every file is written (other-module-lines.ts).
    otherModuleLinesLater: true,
  };
}

/** Analyses a candidate and puts its questions to the checker; undefined when it does not parse (its transform reports that). */
export function askEarly(c: Candidate): AskedFile | undefined {
  const { context, absolutePath } = c;
  const onAnalysed = context.onAnalysed;
  try {
    const asked = askTypes(
      c.input,
      absolutePath,
      context.types,
      transformOptionsOf(c),
      onAnalysed && ((analysis) => onAnalysed(absolutePath, analysis)),
      !context.rewrite,
    );
    // Awaited when the file is transformed; a failure then is that file's error.
    asked.facts?.catch(() => undefined);
    return asked;
  } catch {
    return undefined;
  }
}

export function runCandidate(c: Candidate, done?: (file: string) => void): Promise<void> {
  return handleCandidate(c)
    .catch((error: unknown) => c.fail('transform', `internal error: ${(error as Error)?.message ?? String(error)}`))
    .finally(() => done?.(c.file));
}

async function handleCandidate(c: Candidate): Promise<void> {
  // Analysed while the files were read: its tree goes with this transform.
  const asked = c.asked;
  c.asked = undefined;
  // The module's path holds another file: the migrated text would import it (an analysis-only
  // run, which uses no output, goes on).
  if (c.placement?.refused && c.context.verify) {
    c.fail('write', c.placement.refused);
    return;
  }
  const planned = await planCandidate(c, asked);
  if (!planned) return;
  const { plan, transformed } = planned;
  let outputSyntax = planned.outputSyntax;
  if (transformed?.changed && c.context.verify) {
    const wanted = !outputSyntax && c.context.readsOutputMarkers && mentionsMarker(transformed.output);
    const verified = wanted ? outputSyntaxParsed(c, transformed) : rewriteParses(c, transformed);
    if (!verified) return;
    if (verified !== true) outputSyntax = verified;
  }
  reportSites(c, plan);
  c.outcome.rerunAtHelpers = plan.rerunAtHelpers;
  if (!transformed) return;
  reportEntryPoints(c, transformed);
  // Its notes, at their place in the text the run leaves (the MRTR pass may add lines above
  // them: the helper block goes after the imports).
  if (c.upgrade && transformed.output !== c.input) placeUpgradeNotes(c, c.upgrade, transformed.output);
  if (!transformed.changed) {
    // Transformed again (the cross-module pass) to the text it had: what the first pass held goes.
    c.context.heldWrites.delete(c.absolutePath);
    return;
  }
  const changed = changedFile(c, transformed);
  if (outputSyntax) outputSyntaxes.set(changed, outputSyntax);
  if (c.context.write && !(await stateModuleWritten(c, transformed))) return;
  if (c.context.write && !(await holdWrite(c))) return;
  c.outcome.changed = changed;
  c.context.onChanged?.(changed);
}

/**
 * Plans the candidate, and transforms it unless the run plans only (`transformed` then
 * undefined); keeps what the run needs of the plan. Undefined when it failed (reported).
 */
async function planCandidate(
  c: Candidate,
  asked: AskedFile | undefined,
): Promise<{ plan: FilePlan; transformed?: TransformResult; outputSyntax?: OutputSyntax } | undefined> {
  const { absolutePath, source, context } = c;
  let plan: FilePlan;
  let transformed: TransformResult | undefined;
  let outputSyntax: OutputSyntax | undefined;
  try {
    const options = transformOptionsOf(c);
    const onAnalysed = context.onAnalysed;
    const onAnalysis = onAnalysed && ((analysis: FileAnalysis) => onAnalysed(absolutePath, analysis));
    if (context.rewrite) {
      let analysis = asked?.analysis;
      const result = asked
        ? await transformAsked(asked, context.types, options)
        : await transformWithTypes(c.input, absolutePath, context.types, options, (a) => {
            analysis = a;
            onAnalysis?.(a);
          });
      // Against the text on disk: a v1 file the official codemod upgraded changed even when
      // the MRTR pass had nothing to add.
      transformed = { ...result, changed: result.output !== source };
      plan = result.plan;
      outputSyntax = analysis && syntaxOfOutput(analysis, result);
    } else {
      // The lines a plan-only run names are those of the file as it is (`check` reads it so);
      // the map is made when one is named.
      let toDisk: ReturnType<typeof positionMap> | undefined;
      const upgraded = c.input !== source;
      if (upgraded) c.outcome.planned = { file: c.file, text: c.input, onDisk: source };
      const lineOf = upgraded ? (line: number) => (toDisk ??= positionMap(c.input, source))(line, 1).line : undefined;
      plan = await planAsked(asked ?? askTypes(c.input, absolutePath, context.types, options, onAnalysis, true), context.types, options, true, lineOf);
    }
    c.exportedHelpers = plan.exportedHelpers;
    c.definers = plan.definers;
    c.registryQuestions = plan.registryQuestions;
    c.importsStateModule = plan.handlers.length > 0;
  } catch (error) {
    if (error instanceof ParseFailure) c.fail('parse', `cannot parse: ${error.message}`, error.line, error.column === undefined ? undefined : error.column + 1);
    else c.fail('transform', `internal error while transforming: ${(error as Error)?.message ?? String(error)}`);
    return undefined;
  }
  return { plan, transformed, ...(outputSyntax ? { outputSyntax } : {}) };
}

/**
 * The syntax of an output that is the parsed text with comment lines added (a file only marked),
 * worked out while that text's tree is at hand: the summary's next check then need not parse the
 * output again. Undefined for any other output.
 */
function syntaxOfOutput(analysis: FileAnalysis, result: TransformResult): OutputSyntax | undefined {
  const { output, edited } = result;
  if (output === analysis.source || edited.base !== analysis.source) return undefined;
  return syntaxOfCommentLines(analysis, edited.edits, output);
}

/** Whether the rewritten text parses; when it does not (a bug of the codemod), the file is reported and left. */
function rewriteParses(c: Candidate, transformed: TransformResult): boolean {
  try {
    verifyParses(transformed.output, dialectOf(c.absolutePath), transformed.edited);
    return true;
  } catch (error) {
    unparsed(c, error);
    return false;
  }
}

/**
 * rewriteParses by parsing the text whole, with what the reader of its markers needs of its
 * syntax (as check-findings.ts's scanSource finds it); as rewriteParses when its analysis fails
 * otherwise (the reader then meets that failure itself).
 */
function outputSyntaxParsed(c: Candidate, transformed: TransformResult): OutputSyntax | boolean {
  const { output } = transformed;
  let analysis;
  try {
    analysis = analyseSites(output, c.absolutePath);
  } catch (error) {
    if (!(error instanceof ParseFailure)) return rewriteParses(c, transformed);
    unparsed(c, error);
    return false;
  }
  return { output, comments: analysis.comments, statements: statementLines(analysis.sites) };
}

function unparsed(c: Candidate, error: unknown): void {
  const where = error instanceof ParseFailure && error.line !== undefined ? ` at line ${error.line}` : '';
  c.fail(
    'transform',
    `internal error: the rewritten text would not parse${where} (${(error as Error).message}); the file was left as it is (please report this)`,
  );
}

function reportSites(c: Candidate, plan: FilePlan): void {
  // A v1 file's sites were found in the official codemod's text: report them at the lines of
  // the file on disk, the old side of its diff. (The lines their words name are those of the
  // text the user reads: placed with the plan, see core/line-refs.ts.)
  const toDisk = c.input === c.source || plan.sites.length === 0 ? undefined : positionMap(c.input, c.source);
  for (const site of plan.sites) c.outcome.sites.push({ file: c.file, ...site, ...toDisk?.(site.line, site.column) });
  // A handler that asks only through other modules' split helpers has no site here: it is counted as a handler all the same.
  const through = plan.handlers.filter((h) => !plan.sites.some((s) => s.handler === h.id));
  const onDisk = through.length > 0 && c.input !== c.source ? positionMap(c.input, c.source) : undefined;
  c.outcome.askingThrough = through.map((h) => {
    const line = lineNumberAt(c.input, h.body.start);
    return { file: c.file, handler: h.id, line: onDisk ? onDisk(line, 1).line : line };
  });
}

/** The request-state module the migrated text imports, written first; false when it cannot be (reported). */
async function stateModuleWritten(c: Candidate, transformed: TransformResult): Promise<boolean> {
  const modulePath = c.placement?.options.path;
  if (transformed.plan.handlers.length === 0 || modulePath === undefined || !c.context.writeStateModule) return true;
  const refused = await c.context.writeStateModule(modulePath);
  if (refused) c.fail('write', 'left as it is: the request-state module it would import could not be written (see that file)');
  return refused === undefined;
}

function reportEntryPoints(c: Candidate, transformed: TransformResult): void {
  if (transformed.entryPoints.length === 0) return;
  const toDisk = transformed.entryPointsBase === c.source ? undefined : positionMap(transformed.entryPointsBase, c.source);
  c.outcome.entryPoints = transformed.entryPoints.map((entry) => ({ file: c.file, ...entry, ...(toDisk ? { line: toDisk(entry.line, 1).line } : {}) }));
}

function placeUpgradeNotes(c: Candidate, upgrade: NonNullable<Candidate['upgrade']>, output: string): void {
  const toOutput = positionMap(c.input, output);
  // A marker of the official codemod the MRTR pass made obsolete (and removed) is no longer open
  // work; one it cut a message from (of several joined on a line) is open with what is left.
  const written = new Set(officialMarkers(c.input).map((m) => m.message));
  const left = officialMarkers(output);
  const leftMessages = new Set(left.map((m) => m.message));
  const removed = (note: UpgradeNote) => note.code === 'mcp-codemod-error' && written.has(note.message) && !leftMessages.has(note.message);
  const trimmed = left.filter((m) => !written.has(m.message));
  const kept = upgrade.notes.filter((note) => !removed(note)).map((note) => ({ ...note, ...toOutput(note.line, note.column) }));
  upgrade.reported.notes = trimmed.length === 0 ? kept : [...kept, ...trimmed].sort((a, b) => a.line - b.line);
}

function changedFile(c: Candidate, transformed: TransformResult): ChangedFile {
  const { file, absolutePath, source } = c;
  const changed: ChangedFile = {
    path: file,
    absolutePath,
    original: source,
    output: transformed.output,
    written: false,
    ...(c.input !== source ? { upgradedFromV1: true, upgraded: c.input } : {}),
  };
  // Splices into the text on disk (not a v1 file's upgraded text, nor a text edited twice).
  if (transformed.edited.base === source) changed.splices = transformed.edited.edits;
  return changed;
}

/**
 * A v1 file the official codemod upgraded, when the run stops there (`v1: 'only'`): its change
 * is the upgrade alone, written as any other.
 */
export async function finishUpgradeOnly(c: Candidate, done?: (file: string) => void): Promise<void> {
  try {
    if (c.input === c.source) return;
    const changed: ChangedFile = {
      path: c.file,
      absolutePath: c.absolutePath,
      original: c.source,
      output: c.input,
      upgraded: c.input,
      upgradedFromV1: true,
      written: false,
    };
    if (c.context.write && !(await holdWrite(c))) return;
    c.outcome.changed = changed;
    c.context.onChanged?.(changed);
  } finally {
    done?.(c.file);
  }
}

/**
 * Holds the changed text's write for the end of the run (other-module-lines.ts), over the bytes
 * the file has now: the cross-module pass may transform it again, and its markers may name
 * lines of other modules, so it is written once, finished. A run stopped before leaves it as it
 * was. False when the file may not be written (reported).
 */
async function holdWrite(c: Candidate): Promise<boolean> {
  try {
    const readOnly = c.context.writeReadOnly ? undefined : await readOnlyReason(c.absolutePath);
    if (readOnly) {
      c.fail('write', `${readOnly}; left as it is (make it writable to migrate it)`);
      return false;
    }
    c.context.heldWrites.set(c.absolutePath, c.bytes);
    return true;
  } catch (error) {
    c.fail('write', `cannot write: ${describeFsError(error)}`);
    return false;
  }
}
