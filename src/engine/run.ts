// One codemod run over the file system: discover → read → prefilter → transform → write.
// Each file is handled on its own: a file that cannot be read, decoded, parsed or written is
// reported and the run goes on with the next one. Nothing here prints; the CLI formats the
// result (src/report). This module is the pipeline; its steps are beside it: reading
// (read-candidates.ts), one candidate's transform (candidate.ts), the cross-module pass
// (cross-module-pass.ts), the request-state modules (state-modules.ts), the manifests
// (manifests.ts).
//
// How the cost stays proportional to the candidate bytes (measured by `npm run bench`; the
// numbers are in bench/README.md):
// - Every file is read (synchronously, a batch at a time) and tested against PREFILTER; only a
//   file that passes is parsed, and each candidate is walked once (src/analyse/file-index.ts).
//   A file that is not a candidate is dropped once tested; a candidate's text is kept for the
//   cross-module pass, but no syntax tree outlives its file's transform.
// - The TypeScript checker is needed only by TypeScript files whose plan lifts a local (or
//   doubts a receiver the file's own declarations do not answer). It runs in its own thread (WorkerTypeFacts), started by the first
//   question (a run that asks none never loads TypeScript): while it reads the standard library
//   and the SDK's declarations, this thread plans the other files; a file that waits for
//   answers finishes when they come. No more files are started while MAX_WAITING wait, so
//   memory does not grow with the project. `types: false` never starts it.
// - Each changed file is verified to parse, parsing only the statements the rewrite changed
//   (src/engine/verify-output.ts), and its diff can be made as soon as it is done (onChanged).
import { analyseFile } from '../analyse/analyse-file.ts';
import { INIT_HOOK_TEXT, PREFILTER } from '../analyse/sdk-surface.ts';
import type { TypeFactsSource } from '../transform.ts';
import { finishUpgradeOnly, runCandidate, RunningTransforms, type Candidate, type FileOutcome, type RunContext } from './candidate.ts';
import { crossModulePass } from './cross-module-pass.ts';
import { compareCodeUnits, discoverFiles, type Discovery } from './discover.ts';
import { HookRegistrars } from './hook-registrars.ts';
import { placeOtherModuleLines } from './other-module-lines.ts';
import { positionMap } from '../core/position-map.ts';
import { updateManifests } from './manifests.ts';
import { readCandidates, type ReadCandidates } from './read-candidates.ts';
import { DEFAULT_MAX_FILE_BYTES, type RunOptions } from './run-options.ts';
import type { ChangedFile, RunResult, RunSkip } from './run-result.ts';
import { StateModules } from './state-modules.ts';
import { displayPath, readSource } from './source-files.ts';
import { upgradeV1 } from './v1-upgrade.ts';
import { v1Scope } from './v1-scope.ts';
import { vendoredRequests } from './vendored-requests.ts';
import { WorkerTypeFacts } from './worker-type-facts.ts';

export { DEFAULT_MAX_FILE_BYTES, tooLargeReason, type RunOptions, type RunPhase, type RunSettings } from './run-options.ts';
export type { ChangedFile, ErrorStage, HandlerAskingThrough, RunError, RunResult, RunSite, RunSkip } from './run-result.ts';

/**
 * No more candidates are started while this many wait (most wait for the checker's answers),
 * until some are done: a waiting file holds its syntax tree. Twice the checker's largest round
 * (MAX_ROUND_FILES in src/analyse/type-facts-worker.ts), so that the next round is ready when one ends.
 */
const MAX_WAITING = 128;

export async function runCodemod(options: RunOptions): Promise<RunResult> {
  const types = options.types === false ? undefined : (options.types ?? new WorkerTypeFacts());
  try {
    return await run(options, types);
  } finally {
    // The checker's thread, if the run started one.
    await types?.close?.();
  }
}

/** What the steps of one run share. */
interface RunState {
  options: RunOptions;
  cwd: string;
  context: RunContext;
  discovery: Discovery;
  maxFileBytes: number;
  result: RunResult & { skipped: RunSkip[] };
  /** The request-state module of each package: placed before the transforms, written before the first file importing it. */
  modules: StateModules;
  /**
   * Outcomes by discovery index, made only for a file with something to report (a candidate, a
   * file that cannot be read): most files have none, and an empty outcome and display path held
   * for each of them through the run is work for the collector and nothing else.
   */
  outcomes: FileOutcome[];
  outcomeAt: (i: number) => FileOutcome;
  transforms: RunningTransforms;
  /** A file is done (progress). */
  done: (file: string) => void;
}

async function run(options: RunOptions, types: TypeFactsSource | undefined): Promise<RunResult> {
  const discovery = 'discovery' in options ? options.discovery : await discoverFiles(options.paths, options.cwd, options.discover);
  const state = startRun(options, types, discovery);
  options.onPhase?.('files', discovery.files.length);
  const read = await readCandidates(state);
  state.result.candidates = read.count;
  scopeV1Upgrade(state, read);
  if (options.v1 === 'only') {
    // The upgrade alone, to be committed first: no MRTR pass, no request-state module.
    state.result.v1Only = true;
    for (const c of read.pending) state.done(c.file);
    await upgradeV1Files(state, read.v1Queue, (c) => finishUpgradeOnly(c, state.done));
    await state.transforms.settle();
    await placeOtherModuleLines(state.outcomes, state.context.heldWrites, options.onChanged);
    await updateManifestsOf(state, read, []);
    return assembleResult(state, read, []);
  }
  await transformCandidates(state, read);
  await upgradeV1Files(state, read.v1Queue, (c) => runCandidate(c, state.done));
  await finishTransforms(state);
  await crossModulePass({ ...state, candidates: read.candidates });
  const moduleChanges = await finishStateModules(state, read.candidates);
  await placeOtherModuleLines(state.outcomes, state.context.heldWrites, options.onChanged);
  await updateManifestsOf(state, read, moduleChanges);
  return assembleResult(state, read, moduleChanges);
}

/**
 * Narrows the files queued for the v1 upgrade to those MRTR needs (v1-scope.ts); the others are
 * listed as kept on v1. One of those with a request (a client's file, say) is transformed as it
 * is, for its sites to be marked; the others are left whole: nothing of MRTR is to be done in a
 * file on the v1 SDK (an entry point there serves a server without a request to migrate).
 */
function scopeV1Upgrade(state: RunState, read: ReadCandidates): void {
  if (state.options.v1 === false) return;
  state.result.v1Kept = [];
  if (read.v1Queue.length === 0) return;
  const files = read.v1Queue.map((c) => ({ absolutePath: c.absolutePath, text: c.alias?.aliased ?? c.source }));
  const withSites = new Set(files.filter(hasSites).map((f) => f.absolutePath));
  // Only a file that imports a module of the project can reach the v1 SDK through one; one
  // analysed while the files were read is not parsed again (its transform parses it anyway).
  const sitesOffV1 = read.pending
    .filter((c) => state.modules.graph.importsOf(c.absolutePath).length > 0)
    .filter((c) => (c.asked ? c.asked.analysis.sites.length > 0 : hasSites({ absolutePath: c.absolutePath, text: c.source })))
    .map((c) => c.absolutePath);
  const scope = v1Scope(files, state.modules.graph, (f) => withSites.has(f.absolutePath), sitesOffV1);
  const kept = read.v1Queue.filter((c) => !scope.has(c.absolutePath));
  if (kept.length === 0) return;
  read.v1Queue = read.v1Queue.filter((c) => scope.has(c.absolutePath));
  for (const c of kept) {
    if (!withSites.has(c.absolutePath)) {
      state.done(c.file);
      continue;
    }
    // A file reaching the v1 SDK through a module of the project: that module stays on v1.
    if (c.alias) c.v1Through = c.alias.through;
    c.alias = undefined;
    read.pending.push(c);
  }
  const order = new Map(state.discovery.files.map((f, i) => [f, i]));
  state.result.v1Kept = kept.sort((a, b) => order.get(a.absolutePath)! - order.get(b.absolutePath)!).map((c) => c.file);
}

/** Whether a file has a server→client request the MRTR pass would take (a syntax check: PREFILTER, then the analysis). */
function hasSites(file: { absolutePath: string; text: string }): boolean {
  if (!PREFILTER.test(file.text)) return false;
  try {
    return analyseFile(file.text, file.absolutePath).sites.length > 0;
  } catch {
    return false; // it does not parse: its transform says so, and there is nothing to upgrade for
  }
}

/** The run's settings decided once, and its result started with what discovery found. */
function startRun(options: RunOptions, types: TypeFactsSource | undefined, discovery: Discovery): RunState {
  const { cwd } = options;
  const rewrite = options.rewrite !== false;
  const context: RunContext = {
    types,
    write: options.write && rewrite,
    rewrite,
    writeReadOnly: options.writeReadOnly === true,
    verify: options.verify !== false,
    readsOutputMarkers: options.readsOutputMarkers === true,
    transform: options.transform ?? {},
    onChanged: options.onChanged,
    onAnalysed: options.onAnalysed,
    heldWrites: new Map(),
  };
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const modules = new StateModules(cwd, options.stateModule, context.writeReadOnly);
  if (context.write && context.verify) context.writeStateModule = (modulePath) => modules.writeBefore(modulePath);
  const result: RunState['result'] = {
    filesScanned: discovery.files.length,
    candidates: 0,
    changed: [],
    sites: [],
    errors: discovery.problems.map((problem) => ({ file: displayPath(cwd, problem.path), stage: 'discover', message: problem.message })),
    skipped: discovery.skipped.map((skip) => ({
      file: displayPath(cwd, skip.path),
      reason: skip.reason,
      candidate: false,
      ...(skip.vendored ? { legacyRequests: vendoredRequests(skip.path, maxFileBytes) } : {}),
    })),
    upgrades: [],
    stateModules: [],
  };
  const outcomes: FileOutcome[] = [];
  return {
    options,
    cwd,
    context,
    discovery,
    maxFileBytes,
    result,
    modules,
    outcomes,
    outcomeAt: (i) => (outcomes[i] ??= { sites: [], errors: [] }),
    transforms: new RunningTransforms(),
    done: (file) => options.onFileDone?.(file),
  };
}

/** Places the request-state modules (once every file is read), then transforms the candidates read. */
async function transformCandidates(state: RunState, read: ReadCandidates): Promise<void> {
  const { transforms } = state;
  const placements = await state.modules.place([...read.candidates.values()]);
  for (const c of read.candidates.values()) c.placement = placements.get(c.absolutePath);
  showHookRegistrars(state, read.candidates);
  for (const c of read.pending) {
    transforms.track(runCandidate(c, state.done));
    // One at a time, so that one that needs no answers finishes (and drops its syntax tree)
    // before the next starts: trees of a few started together outlived the young generation's
    // collections and were promoted (a check of 10,000 files peaked ~60 MB higher). No more
    // than MAX_WAITING waiting (for type facts), since each holds its tree until it is done.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (transforms.size >= MAX_WAITING) {
      state.context.types?.hurry?.();
      await Promise.race(transforms.tasks);
    }
  }
}

/**
 * The imported functions each candidate's initialize hooks call, where they only register: such
 * a call moves to start-up (another module's function, so shown here, where every file is seen).
 */
function showHookRegistrars(state: RunState, candidates: ReadonlyMap<string, Candidate>): void {
  const withHooks = [...candidates.values()].filter((c) => INIT_HOOK_TEXT.test(c.source));
  if (withHooks.length === 0) return;
  const discovered = new Set(state.discovery.files);
  const texts = new Map<string, string | undefined>();
  const read = (file: string): string | undefined => {
    if (!discovered.has(file)) return undefined;
    if (!texts.has(file)) texts.set(file, candidates.get(file)?.source ?? readSource(file, (bytes) => bytes.length <= state.maxFileBytes)?.source);
    return texts.get(file);
  };
  const registrars = new HookRegistrars(read);
  for (const c of withHooks) {
    let analysis;
    try {
      analysis = analyseFile(c.source, c.absolutePath);
    } catch {
      continue; // its transform reports it
    }
    const names = registrars.of(c.absolutePath, analysis);
    if (names.length > 0) c.registersOnly = names;
  }
}

/** v1 files: the official v1-to-v2 codemod first, then `next` (the MRTR pass, or the upgrade's own change) on what it made. */
async function upgradeV1Files(state: RunState, v1Queue: Candidate[], next: (c: Candidate) => Promise<void>): Promise<void> {
  if (v1Queue.length === 0) return;
  const { options } = state;
  options.onPhase?.('v1-upgrade', v1Queue.length);
  let upgraded: Awaited<ReturnType<typeof upgradeV1>> | undefined;
  try {
    upgraded = await upgradeV1(
      v1Queue.map((c) => ({ path: c.absolutePath, text: c.alias?.aliased ?? c.source })),
      { ...(options.v1ScratchDir === undefined ? {} : { tmpDir: options.v1ScratchDir }), onFileDone: () => options.onStep?.() },
    );
  } catch (error) {
    // The official package could not run (not installed, no scratch directory): its files
    // are reported and left as they are, the rest of the run goes on.
    for (const c of v1Queue.splice(0)) {
      c.fail('transform', `the official v1-to-v2 codemod failed: ${(error as Error)?.message ?? String(error)}; the file was left as it is`);
      state.done(c.file);
    }
  }
  upgraded?.forEach((u, i) => {
    const c = v1Queue[i]!;
    if (u.notes.length > 0) {
      const reported = { file: c.file, notes: u.notes };
      state.result.upgrades.push(reported);
      c.upgrade = { notes: u.notes, reported };
    }
    c.input = c.alias?.restore ? c.alias.restore(u.text) : u.text;
    state.transforms.track(next(c));
  });
}

async function finishTransforms(state: RunState): Promise<void> {
  // Every candidate has asked what it asks: the checker answers what waits now, and any later
  // question as it comes. Candidates waiting for type facts finish as their answers come.
  state.context.types?.flush?.();
  if (state.transforms.size > 0) state.options.onPhase?.('finishing', 0);
  await state.transforms.settle();
}

/**
 * The request-state modules the migrated files import, and the verifier wired where each
 * server is built (the changed text of a candidate that builds one is replaced). Returns the
 * files the step changed that are no candidates (the request-state modules).
 */
async function finishStateModules(state: RunState, candidates: ReadonlyMap<string, Candidate>): Promise<ChangedFile[]> {
  const { context, options, result } = state;
  // An analysis-only run (verify: false, or a plan-only run, as `check` runs) uses no output:
  // nothing to write or wire.
  const wire = context.verify && context.rewrite;
  if (wire && candidates.size > 0) options.onPhase?.('state-modules', 0);
  const step = wire
    ? await state.modules.finish(
        [...candidates.values()].map((c) => {
          const text = c.outcome.changed?.output ?? c.source;
          const held = context.heldWrites.has(c.absolutePath);
          return { absolutePath: c.absolutePath, importsModule: c.importsStateModule === true, text, bytes: c.bytes, held };
        }),
        context.write,
      )
    : { modules: [], errors: [], changes: [] };
  result.stateModules = step.modules;
  for (const error of step.errors) result.errors.push({ file: error.file, stage: 'write', message: error.message });
  // Listed after the files of the run: the modules wired, then the request-state modules.
  const moduleChanges: ChangedFile[] = [];
  for (const change of step.changes) {
    const c = candidates.get(change.absolutePath);
    const upgraded = c?.outcome.changed?.upgraded;
    const changed: ChangedFile = c ? { ...change, original: c.source, ...(upgraded !== undefined ? { upgradedFromV1: true, upgraded } : {}) } : change;
    // The official codemod's notes are at their lines of the text the run leaves: move them with the wiring.
    if (c?.upgrade) {
      const toWired = positionMap(c.outcome.changed?.output ?? c.source, change.output);
      c.upgrade.reported.notes = c.upgrade.reported.notes.map((note) => ({ ...note, ...toWired(note.line, note.column) }));
    }
    if (c) c.outcome.changed = changed;
    else moduleChanges.push(changed);
    options.onChanged?.(changed);
  }
  return moduleChanges;
}

/**
 * The package.json above the changed files: for upgraded v1 files, the v2 server package in and
 * the v1 SDK out once nothing imports it any more; for every changed file, each package its new
 * imports name (manifests.ts).
 */
async function updateManifestsOf(state: RunState, read: ReadCandidates, moduleChanges: readonly ChangedFile[]): Promise<void> {
  const { options, cwd, result, context } = state;
  if (!context.rewrite) return;
  const upgraded = new Set(read.v1Queue);
  const files = [...read.candidates.values()]
    .filter((c) => upgraded.has(c) || c.outcome.changed)
    .map((c) => ({
      absolutePath: c.absolutePath,
      original: c.source,
      text: c.outcome.changed?.output ?? c.input,
      ...(upgraded.has(c) ? { upgraded: c.input } : {}),
    }));
  files.push(...moduleChanges.map((m) => ({ absolutePath: m.absolutePath, original: m.created ? '' : m.original, text: m.output })));
  if (files.length === 0) return;
  options.onPhase?.('manifests', 0);
  const manifests = await updateManifests(files, {
    cwd,
    write: options.write,
    discover: options.discover,
    read: new Set(state.discovery.files),
    v1Sources: read.v1Sources,
  });
  for (const m of manifests) {
    if (m.changed) result.changed.push(m.changed);
    if (m.error) result.errors.push({ file: displayPath(cwd, m.absolutePath), stage: 'write', message: m.error });
    if (m.warning)
      result.upgrades.push({ file: displayPath(cwd, m.absolutePath), notes: [{ line: 1, column: 1, code: 'mcp-codemod-warning', message: m.warning }] });
  }
}

/** The files' outcomes in discovery order, after what the steps of the run reported. */
function assembleResult(state: RunState, read: ReadCandidates, moduleChanges: readonly ChangedFile[]): RunResult {
  const { result } = state;
  result.skipped.push(...read.tooLarge);
  result.skipped.sort((a, b) => compareCodeUnits(a.file, b.file));
  // In discovery order (forEach passes over the indexes that have no outcome).
  state.outcomes.forEach((outcome) => {
    result.sites.push(...outcome.sites);
    if (outcome.askingThrough?.length) (result.askingThrough ??= []).push(...outcome.askingThrough);
    if (outcome.entryPoints) (result.entryPoints ??= []).push(...outcome.entryPoints);
    if (outcome.changed) result.changed.push(outcome.changed);
    result.errors.push(...outcome.errors);
  });
  result.changed.push(...moduleChanges);
  return result;
}
