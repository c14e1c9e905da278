// One codemod run over the file system: discover → read → prefilter → transform → write.
// Each file is handled on its own: a file that cannot be read, decoded, parsed or written is
// reported and the run goes on with the next one. Nothing here prints; the CLI formats the
// result (src/report).
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
import { readFileSync } from 'node:fs';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { dialectOf, ParseFailure } from '../analyse/parse.ts';
import { PREFILTER } from '../analyse/sdk-surface.ts';
import type { FilePlan, SiteReport } from '../plan/types.ts';
import type { Edit } from '../core/vocabulary.ts';
import {
  askTypes,
  planAsked,
  planWithTypes,
  transformAsked,
  transformWithTypes,
  type AskedFile,
  type TransformOptions,
  type TransformResult,
  type TypeFactsSource,
} from '../transform.ts';
import { ChangedOnDiskError, readOnlyReason, writeFileAtomic } from './atomic-write.ts';
import { approvedSplits, AskingHelperIndex, definerModules, helperKey, type ExportedHelper, type Registered } from './cross-module.ts';
import { compareCodeUnits, describeFsError, discoverFiles, type DiscoverOptions, type Discovery } from './discover.ts';
import { updateManifests } from './manifests.ts';
import { positionMap } from './position-map.ts';
import { type Placement, type StateModuleRecord, StateModules } from './state-modules.ts';
import { decodeSource, displayPath, readSource } from './source-files.ts';
import { isV1Source, officialMarkers, upgradeV1, type UpgradeNote } from './v1-upgrade.ts';
import { cachedReader, v1Reach, type V1Reach } from './v1-reach.ts';
import { verifyParses } from './verify-output.ts';
import { WorkerTypeFacts } from './worker-type-facts.ts';

/** Candidates larger than this are reported and not parsed (see RunOptions.maxFileBytes). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Everything a run is told but what to run over. */
export interface RunSettings {
  /** Rewrite changed files in place; false computes the changes only (dry run). */
  write: boolean;
  cwd: string;
  /**
   * Type facts for the run; by default a WorkerTypeFacts (the checker in its own thread,
   * started only if needed). `false`: syntax only, the checker is never loaded (analysis-only runs):
   * a lifted local then needs an annotation, as in JavaScript.
   */
  types?: TypeFactsSource | false;
  /**
   * Discovery filters (.gitignore, include/exclude), passed to discoverFiles: for the run's own
   * walk of `paths`, and for the walk under a package.json updated after a v1 upgrade.
   */
  discover?: DiscoverOptions;
  /**
   * Read-only files. A file with no write permission bit at all (mode & 0o222 === 0), or one
   * this process may not write (access W_OK), is reported (stage `write`) and left as it is:
   * an atomic write renames a new file over the old one, which the directory's permissions
   * allow whatever the file's own mode says (and root may write anything), so the file's mode
   * is the only sign left that its owner did not want it edited. `true` writes such files
   * anyway; no CLI flag sets it (it is for callers of runCodemod that mean to, such as tests).
   * Such files keep their mode bits, read-only included.
   */
  writeReadOnly?: boolean;
  /**
   * A candidate larger than this many bytes is reported (stage `read`) and not parsed: parsing
   * and planning a multi-megabyte file (generated or bundled code, in practice) takes seconds
   * and hundreds of megabytes. Default DEFAULT_MAX_FILE_BYTES (1 MiB). Files that do not pass
   * the prefilter are never parsed, whatever their size.
   */
  maxFileBytes?: number;
  /**
   * Parse every rewritten text before it is written or returned (default true). A rewrite that
   * would not parse is a bug of the codemod: the file is then left as it is and reported
   * (stage `transform`), and none of its sites are listed as migrated. Analysis-only callers
   * that never use the output (`check`) may turn this off: it costs one more parse per
   * changed file.
   */
  verify?: boolean;
  /**
   * Rewrite what the plans say (default true). `false` plans only: the sites and errors of a
   * run, no changed file, nothing written (a lint, `check`, needs no rewritten text).
   */
  rewrite?: boolean;
  /** Called once for every discovered file when it has been handled (progress display). */
  onFileDone?: (file: string) => void;
  /**
   * Called as each phase of the run starts (progress display), with the steps it adds: `files`
   * one a discovered file (each reported by onFileDone), `v1-upgrade` one a v1 file (each
   * reported by onStep), the others none.
   */
  onPhase?: (phase: RunPhase, steps: number) => void;
  /** One step of a phase other than `files` done (see onPhase). */
  onStep?: () => void;
  /**
   * Called with each changed file as soon as its change is known (the object that ends up in
   * RunResult.changed), so a caller can make its diff while other files still wait for type
   * facts. A file transformed again (see the cross-module pass) is reported again.
   */
  onChanged?: (file: ChangedFile) => void;
  /** Called with the text of every file read (so a caller that also scans text reads nothing twice). */
  onText?: (absolutePath: string, source: string) => void;
  /**
   * Called with each candidate's analysis, while its syntax tree is alive (so a caller that
   * also needs the tree, as `check` does for its markers, parses nothing twice). Keep nothing
   * of it beyond the call: a run holds no syntax tree after its file.
   */
  onAnalysed?: (absolutePath: string, analysis: FileAnalysis) => void;
  /** The user's choices for the migration (`--sampling=flag`). */
  transform?: TransformOptions;
  /**
   * Files on the v1 SDK (`@modelcontextprotocol/sdk`) go through the official v1-to-v2 codemod
   * first, and the package.json above them is updated (default true). `false` leaves them as
   * they are (their legacy sites are then still reported, and cannot be migrated: v1 has no MRTR).
   */
  v1?: boolean;
  /** Where the official codemod works on scratch copies of the v1 files (default: the OS temp directory). */
  v1ScratchDir?: string;
  /**
   * The request-state module's path (`--state-module`), relative to `cwd`: a file, or a folder
   * to put it in. By default each package gets one beside the module that builds its server.
   */
  stateModule?: string;
}

/**
 * What a run goes over: `paths` (files or directories, relative to `cwd` or absolute), which
 * it discovers itself, or the `discovery` a caller has already made (used as it is, with no
 * second walk; its problems are reported as errors of stage `discover`, as the run's own are).
 */
export type RunOptions = RunSettings & ({ paths: readonly string[] } | { discovery: Discovery });

export interface ChangedFile {
  /** Relative to cwd, with `/` separators. */
  path: string;
  absolutePath: string;
  original: string;
  output: string;
  /** The splices into `original` that made `output`, when the run knows them (a diff then compares only the lines they touch). */
  splices?: readonly Edit[];
  /** The file did not exist before the run (the request-state module): its patch creates it. */
  created?: boolean;
  /** The file was on the v1 SDK: the official v1-to-v2 codemod changed it first (its diff shows both passes). */
  upgradedFromV1?: boolean;
  /** Whether the new text was written to disk (false in a dry run). */
  written: boolean;
}

export interface RunSite extends SiteReport {
  /** File the site is in, relative to cwd, with `/` separators. */
  file: string;
}

/** The phases of a run, in order (each but `files` only when there is work for it). */
export type RunPhase = 'files' | 'v1-upgrade' | 'finishing' | 'cross-module' | 'state-modules' | 'manifests';

export type ErrorStage = 'discover' | 'read' | 'parse' | 'transform' | 'write';

export interface RunError {
  /** Relative to cwd, with `/` separators. */
  file: string;
  stage: ErrorStage;
  message: string;
  line?: number;
  column?: number;
}

/** Something the run passed over on purpose, with a note (not an error). */
export interface RunSkip {
  /** Relative to cwd, with `/` separators. */
  file: string;
  reason: string;
  /**
   * The file mentions a legacy request but was not analysed (too large): it may still push one,
   * so it is left for a person (exit 1), as a finding would be.
   */
  candidate: boolean;
}

export interface RunResult {
  /** Source files discovered (and read). */
  filesScanned: number;
  /** Files whose text passed the prefilter, so were parsed. */
  candidates: number;
  changed: ChangedFile[];
  sites: RunSite[];
  errors: RunError[];
  /**
   * Vendored and minified code, links out of the root, and candidates too large to analyse:
   * passed over, with the reason (always set by runCodemod; optional for results made by hand).
   */
  skipped?: RunSkip[];
  /** Files upgraded from the v1 SDK by the official codemod, with what it left to do (its markers count as open work). */
  upgrades: Array<{ file: string; notes: UpgradeNote[] }>;
  /** The request-state modules the migrated files import: written, refreshed or left, and where the verifier was wired. */
  stateModules: StateModuleRecord[];
}

/**
 * Files are read synchronously, a batch at a time, yielding to the event loop between batches.
 * Measured on 10,000 files (60 MB, page cache warm): readFileSync 95-130 ms, fs.readFile with
 * 16 in flight 120-370 ms, fs/promises readFile with 16 in flight 370-500 ms.
 */
const READ_BATCH = 64;

/**
 * No more candidates are started while this many wait (most wait for the checker's answers),
 * until some are done: a waiting file holds its syntax tree. Twice the checker's largest round
 * (MAX_ROUND_FILES in src/analyse/type-facts-worker.ts), so that the next round is ready when one ends.
 */
const MAX_WAITING = 128;

/** Candidates started between turns of the event loop, in which those not waiting finish. */
const START_BATCH = 8;

/**
 * TypeScript candidates analysed while the files are read, until one asks the checker
 * something (each holds its syntax tree until every file is read).
 */
const EARLY_FILES = 16;

/** What one file contributed; assembled in discovery order at the end of the run. */
interface FileOutcome {
  sites: RunSite[];
  changed?: ChangedFile;
  errors: RunError[];
}

export async function runCodemod(options: RunOptions): Promise<RunResult> {
  const types = options.types === false ? undefined : (options.types ?? new WorkerTypeFacts());
  try {
    return await run(options, types);
  } finally {
    // The checker's thread, if the run started one.
    await types?.close?.();
  }
}

async function run(options: RunOptions, types: TypeFactsSource | undefined): Promise<RunResult> {
  const { cwd, write } = options;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const discovery = 'discovery' in options ? options.discovery : await discoverFiles(options.paths, cwd, options.discover);
  const rewrite = options.rewrite !== false;
  const context: RunContext = {
    types,
    write: write && rewrite,
    rewrite,
    writeReadOnly: options.writeReadOnly === true,
    verify: options.verify !== false,
    transform: options.transform ?? {},
    onChanged: options.onChanged,
    onAnalysed: options.onAnalysed,
  };
  const skipped: RunSkip[] = [];
  const result: RunResult = {
    filesScanned: discovery.files.length,
    candidates: 0,
    changed: [],
    sites: [],
    errors: [],
    skipped,
    upgrades: [],
    stateModules: [],
  };
  // The request-state module of each package: placed before the transforms, written after.
  const modules = new StateModules(cwd, options.stateModule, context.writeReadOnly);
  const pending: Candidate[] = [];
  const upgradeV1Files = options.v1 !== false;
  const v1Queue: Candidate[] = [];
  // Files read whose text imports the v1 SDK: the manifest update need not read them again.
  const v1Sources = new Set<string>();
  // The candidates, by path (the cross-module pass looks them up).
  const candidates = new Map<string, Candidate>();
  // Modules a candidate imports, read to tell whether they are on the v1 SDK.
  const readModule = cachedReader();
  for (const problem of discovery.problems) {
    result.errors.push({ file: displayPath(cwd, problem.path), stage: 'discover', message: problem.message });
  }
  const tooLarge: RunSkip[] = [];
  for (const skip of discovery.skipped) skipped.push({ file: displayPath(cwd, skip.path), reason: skip.reason, candidate: false });
  options.onPhase?.('files', discovery.files.length);

  // Outcomes by discovery index, made only for a file with something to report (a candidate, a
  // file that cannot be read): most files have none, and an empty outcome and display path held
  // for each of them through the run is work for the collector and nothing else.
  const outcomes: FileOutcome[] = [];
  const outcomeAt = (i: number) => (outcomes[i] ??= { sites: [], errors: [] });
  // Candidates whose transform is under way (most finish at once; those waiting for type
  // facts finish when their batch is flushed).
  const running = new Set<Promise<void>>();
  const track = (task: Promise<void>) => {
    running.add(task);
    void task.finally(() => running.delete(task));
  };
  const done = (file: string) => options.onFileDone?.(file);
  let checkerAsked = false;
  let analysedEarly = 0;
  const doneAt = (i: number) => options.onFileDone?.(displayPath(cwd, discovery.files[i]!));

  for (let i = 0; i < discovery.files.length; i++) {
    // Let other I/O progress between runs of reads.
    if (i > 0 && i % READ_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const absolutePath = discovery.files[i]!;
    const fail = (stage: ErrorStage, message: string) => {
      failer(displayPath(cwd, absolutePath), outcomeAt(i))(stage, message);
      doneAt(i);
    };

    let bytes: Buffer;
    try {
      bytes = readFileSync(absolutePath);
    } catch (error) {
      fail('read', `cannot read: ${describeFsError(error)}`);
      continue;
    }
    const source = decodeSource(bytes);
    if (typeof source !== 'string') {
      fail('read', source.problem);
      continue;
    }
    options.onText?.(absolutePath, source);
    modules.note(absolutePath, source);
    const v1 = upgradeV1Files && isV1Source(source);
    if (v1) v1Sources.add(absolutePath);
    // Most files of a project never mention the legacy surface: they are not parsed at all.
    if (!v1 && !PREFILTER.test(source)) {
      doneAt(i);
      continue;
    }
    result.candidates++;
    if (bytes.length > maxFileBytes) {
      // In practice a bundle built from sources that are migrated themselves: a note, not an error.
      tooLarge.push({ file: displayPath(cwd, absolutePath), reason: tooLargeReason(bytes.length, maxFileBytes), candidate: true });
      doneAt(i);
      continue;
    }

    const c = candidate(context, { absolutePath, file: displayPath(cwd, absolutePath), bytes, source }, outcomeAt(i));
    candidates.set(absolutePath, c);
    // Reaching the v1 SDK through a module of the project: upgraded with it (its imports of that
    // module pointed at the SDK for the official codemod), or marked where v1 files stay.
    const reach = v1 || isV1Source(source) ? undefined : v1Reach(absolutePath, source, readModule);
    if (reach && upgradeV1Files && reach.aliased && !reach.vendored) {
      c.alias = reach;
      v1Queue.push(c);
      continue;
    }
    if (reach && (!upgradeV1Files || reach.vendored)) c.v1Through = reach.through;
    if (v1) {
      // The official codemod runs on batches of v1 files, after this loop.
      v1Queue.push(c);
      continue;
    }
    // Transformed once every file is read: where the request-state module goes depends on them.
    // Until one has asked the checker something, TypeScript files are analysed now and their
    // questions put at once (they do not depend on the module's place): the checker, which
    // takes seconds to start, starts while the rest is read.
    if (types && !checkerAsked && analysedEarly < EARLY_FILES && dialectOf(absolutePath) !== 'js') {
      analysedEarly++;
      c.asked = askEarly(c);
      checkerAsked = c.asked?.facts !== undefined;
    }
    pending.push(c);
  }

  const placements = await modules.place([...candidates.values()]);
  for (const c of candidates.values()) c.placement = placements.get(c.absolutePath);
  for (const c of pending) {
    track(runCandidate(c, done));
    // A few at a time, so that those that need no answers finish (and drop their syntax trees)
    // before more start; no more than MAX_WAITING waiting (for type facts), since each holds its
    // tree until it is done and memory would grow with the project.
    if (running.size >= START_BATCH) await new Promise<void>((resolve) => setImmediate(resolve));
    while (running.size >= MAX_WAITING) {
      types?.hurry?.();
      await Promise.race(running);
    }
  }

  // v1 files: the official v1-to-v2 codemod first, then the MRTR pass on what it made.
  if (v1Queue.length > 0) {
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
        done(c.file);
      }
    }
    upgraded?.forEach((u, i) => {
      const c = v1Queue[i]!;
      if (u.notes.length > 0) {
        const reported = { file: c.file, notes: u.notes };
        result.upgrades.push(reported);
        c.upgrade = { notes: u.notes, reported };
      }
      c.input = c.alias?.restore ? c.alias.restore(u.text) : u.text;
      track(runCandidate(c, done));
    });
  }

  // Every candidate has asked what it asks: the checker answers what waits now, and any later
  // question as it comes. Candidates waiting for type facts finish as their answers come.
  types?.flush?.();
  if (running.size > 0) options.onPhase?.('finishing', 0);
  while (running.size > 0) await Promise.all(running);

  // Handlers in other modules that call a module's exported asking helper: transformed again,
  // knowing it. Where every such call can ask through the helper's halves (and the helper's own
  // module can split it), the helper is split and they do; otherwise each call is marked (a
  // handler that still pushes a request is never left without a marker).
  const helpers = new Map<string, ExportedHelper[]>();
  for (const [absolutePath, c] of candidates) {
    const exported = c.exportedHelpers ?? [];
    if (exported.length > 0) helpers.set(absolutePath, exported);
  }
  // The registries other modules' migrated tool definitions are handed to: their types are widened.
  const definers = definerModules(candidates, new Set(discovery.files));
  if (helpers.size > 0 || definers.size > 0) {
    options.onPhase?.('cross-module', 0);
    await crossModulePass({ context, cwd, discovery, candidates, helpers, definers, maxFileBytes, modules, outcomeAt, track, running });
  }

  // The request-state modules the migrated files import, and the verifier wired where each
  // server is built (the changed text of a candidate that builds one is replaced).
  // An analysis-only run (verify: false, or a plan-only run, as `check` runs) uses no output:
  // nothing to write or wire.
  const wire = context.verify && context.rewrite;
  if (wire && candidates.size > 0) options.onPhase?.('state-modules', 0);
  const step = wire
    ? await modules.finish(
        [...candidates.values()].map((c) => ({
          absolutePath: c.absolutePath,
          importsModule: c.importsStateModule === true,
          text: c.outcome.changed?.output ?? c.source,
          bytes: c.bytes,
        })),
        context.write,
      )
    : { modules: [], errors: [], changes: [] };
  result.stateModules = step.modules;
  for (const error of step.errors) result.errors.push({ file: error.file, stage: 'write', message: error.message });
  // Listed after the files of the run: the modules wired, then the request-state modules.
  const stepChanged: ChangedFile[] = [];
  for (const change of step.changes) {
    const c = candidates.get(change.absolutePath);
    const changed: ChangedFile = c ? { ...change, original: c.source, ...(c.outcome.changed?.upgradedFromV1 ? { upgradedFromV1: true } : {}) } : change;
    if (c) c.outcome.changed = changed;
    else stepChanged.push(changed);
    options.onChanged?.(changed);
  }

  // The package.json above upgraded v1 files: the v2 server package in, the v1 SDK out once
  // nothing imports it any more.
  if (v1Queue.length > 0) {
    options.onPhase?.('manifests', 0);
    const upgraded = v1Queue.map((c) => ({ absolutePath: c.absolutePath, text: c.outcome.changed?.output ?? c.input }));
    const manifests = await updateManifests(upgraded, { cwd, write, discover: options.discover, read: new Set(discovery.files), v1Sources });
    for (const m of manifests) {
      if (m.changed) result.changed.push(m.changed);
      if (m.error) result.errors.push({ file: displayPath(cwd, m.absolutePath), stage: 'write', message: m.error });
      if (m.warning)
        result.upgrades.push({ file: displayPath(cwd, m.absolutePath), notes: [{ line: 1, column: 1, code: 'mcp-codemod-warning', message: m.warning }] });
    }
  }

  skipped.push(...tooLarge);
  skipped.sort((a, b) => compareCodeUnits(a.file, b.file));
  // In discovery order (forEach passes over the indexes that have no outcome).
  outcomes.forEach((outcome) => {
    result.sites.push(...outcome.sites);
    if (outcome.changed) result.changed.push(outcome.changed);
    result.errors.push(...outcome.errors);
  });
  result.changed.push(...stepChanged);
  return result;
}

/** What the cross-module pass works with, of its run. */
interface CrossModuleRun {
  context: RunContext;
  cwd: string;
  discovery: Discovery;
  /** The candidates by path; a file the pass migrates that was none joins them (the request-state step sees it). */
  candidates: Map<string, Candidate>;
  helpers: ReadonlyMap<string, ExportedHelper[]>;
  definers: ReadonlyMap<string, Set<string>>;
  maxFileBytes: number;
  modules: StateModules;
  outcomeAt: (i: number) => FileOutcome;
  track: (task: Promise<void>) => void;
  running: Set<Promise<void>>;
}

/**
 * The cross-module pass: which exported helpers to split (every caller can ask through their
 * halves), then every file concerned transformed again, knowing it: the importers, the helper
 * modules that split, the modules whose functions other modules register as handlers, the
 * registries to widen. A file that was no candidate and now migrates a handler is placed with
 * its package's request-state module.
 */
async function crossModulePass(run: CrossModuleRun): Promise<void> {
  const { context, cwd, discovery, candidates, helpers, definers, maxFileBytes, modules, outcomeAt, track, running } = run;
  const index = new AskingHelperIndex(helpers, (p) => displayPath(cwd, p));
  // The files whose relative imports (read with their text, see import-graph.ts) may name a
  // module that exports a helper: no other file imports one.
  const mayImport = modules.graph.filesImportingAny(new Set(helpers.keys()));
  const importers: Array<{ i: number; absolutePath: string; known?: Candidate; read: { bytes: Buffer; source: string } }> = [];
  for (let i = 0; i < discovery.files.length; i++) {
    const absolutePath = discovery.files[i]!;
    const known = candidates.get(absolutePath);
    const definer = definers.has(absolutePath);
    if (!known && !definer && !mayImport.has(absolutePath)) continue;
    // A file that names no helper cannot import one. A file the main pass did not transform
    // is read again, but decoded (and parsed) only when its bytes name one, within the size
    // a candidate may have.
    const read = known
      ? { bytes: known.bytes, source: known.input }
      : readSource(absolutePath, (bytes) => bytes.length <= maxFileBytes && (definer || index.mentionedIn(bytes)));
    if (read === undefined || (known && !definer && !index.mentionedIn(read.source))) continue;
    importers.push({ i, absolutePath, known, read });
  }
  // First, plans only: which splits every caller can take.
  const inputs = new Map(importers.map((f) => [f.absolutePath, f.read.source] as const));
  const plan = async (absolutePath: string, transform: Partial<TransformOptions>) => {
    const source = inputs.get(absolutePath) ?? candidates.get(absolutePath)?.input;
    if (source === undefined) return undefined;
    try {
      return (await transformWithTypes(source, absolutePath, context.types, { ...context.transform, ...transform })).plan;
    } catch {
      return undefined; // reported by the main pass
    }
  };
  const approved = await approvedSplits(
    index,
    helpers,
    importers.map((f) => ({ absolutePath: f.absolutePath, source: f.read.source })),
    plan,
  );
  const again = filesToTransformAgain(index, approved, importers, helpers, definers, candidates, discovery);

  // A file that was no candidate: placed now (it may migrate a handler through another module's helper).
  const late = [...again].filter(([, f]) => !f.known);
  const placements = late.length > 0 ? await modules.place(late.map(([absolutePath, f]) => ({ absolutePath, source: f.read.source }))) : undefined;
  for (const [absolutePath, f] of again) {
    const outcome: FileOutcome = { sites: [], errors: [] };
    const extra = {
      ...(f.externalHelpers ? { externalHelpers: f.externalHelpers } : {}),
      ...(f.splitExported ? { splitExported: f.splitExported } : {}),
      ...(f.widenDefiners ? { widenDefiners: f.widenDefiners } : {}),
      ...(f.registeredAs ? { registeredAs: f.registeredAs } : {}),
    };
    const rerun: Candidate = f.known
      ? { ...f.known, outcome, fail: failer(f.known.file, outcome), ...extra }
      : {
          ...candidate(context, { absolutePath, file: displayPath(cwd, absolutePath), ...f.read }, outcome),
          ...extra,
          placement: placements?.get(absolutePath),
        };
    const reported = outcomeAt(f.i);
    reported.sites = [];
    reported.changed = undefined;
    reported.errors = [];
    // Started together, so the files that need type facts share one round of the checker.
    track(
      runCandidate(rerun).then(() => {
        Object.assign(reported, outcome);
        // What the request-state step needs of the file: what is on disk, what it imports.
        const settled = f.known ?? { ...rerun, outcome: reported };
        Object.assign(settled, { bytes: rerun.bytes, importsStateModule: rerun.importsStateModule });
        if (!f.known && rerun.importsStateModule) candidates.set(absolutePath, settled);
      }),
    );
  }
  while (running.size > 0) await Promise.all(running);
}

/** A file the cross-module pass transforms again, and what it is told. */
interface AgainFile {
  i: number;
  known?: Candidate;
  read: { bytes: Buffer; source: string };
  externalHelpers?: TransformOptions['externalHelpers'];
  splitExported?: string[];
  widenDefiners?: string[];
  registeredAs?: Registered[];
}

/** The files to transform again, by path: importers with the approved splits, helper modules splitting them, modules registered elsewhere. */
function filesToTransformAgain(
  index: AskingHelperIndex,
  approved: ReadonlySet<string>,
  importers: ReadonlyArray<{ i: number; absolutePath: string; known?: Candidate; read: { bytes: Buffer; source: string } }>,
  helpers: ReadonlyMap<string, ExportedHelper[]>,
  definers: ReadonlyMap<string, Set<string>>,
  candidates: ReadonlyMap<string, Candidate>,
  discovery: Discovery,
): Map<string, AgainFile> {
  const split = new Map<string, string[]>();
  for (const [module, list] of helpers) {
    const names = list.filter((h) => approved.has(helperKey(module, h.name))).map((h) => h.name);
    if (names.length > 0) split.set(module, names);
  }
  // Exported helpers another module registers as handlers: their module migrates them as such.
  const registered = new Map<string, Registered[]>();
  for (const f of importers)
    for (const [module, list] of index.registrationsOf(f.absolutePath, f.read.source)) registered.set(module, [...(registered.get(module) ?? []), ...list]);
  const again = new Map<string, AgainFile>();
  for (const f of importers) {
    const externalHelpers = index.importsOf(f.absolutePath, f.read.source, approved);
    const widen = definers.get(f.absolutePath);
    if (externalHelpers.size > 0 || widen)
      again.set(f.absolutePath, {
        i: f.i,
        known: f.known,
        read: f.read,
        ...(externalHelpers.size > 0 ? { externalHelpers } : {}),
        ...(widen ? { widenDefiners: [...widen] } : {}),
      });
  }
  const entryOf = (module: string): AgainFile => {
    const known = candidates.get(module)!;
    return again.get(module) ?? { i: discovery.files.indexOf(module), known, read: { bytes: known.bytes, source: known.input } };
  };
  for (const [module, names] of split) again.set(module, { ...entryOf(module), splitExported: names });
  for (const [module, list] of registered) again.set(module, { ...entryOf(module), registeredAs: list });
  return again;
}

/** What every candidate of a run shares: the run's settings, decided once. */
interface RunContext {
  types: TypeFactsSource | undefined;
  write: boolean;
  rewrite: boolean;
  writeReadOnly: boolean;
  verify: boolean;
  /** The user's choices for the migration. */
  transform: TransformOptions;
  onChanged: RunSettings['onChanged'];
  onAnalysed: RunSettings['onAnalysed'];
}

interface Candidate {
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

function candidate(context: RunContext, read: { absolutePath: string; file: string; bytes: Buffer; source: string }, outcome: FileOutcome): Candidate {
  return { context, ...read, input: read.source, outcome, fail: failer(read.file, outcome) };
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
    ...(c.placement ? { stateModule: c.placement.options } : {}),
  };
}

/** Analyses a candidate and puts its questions to the checker; undefined when it does not parse (its transform reports that). */
function askEarly(c: Candidate): AskedFile | undefined {
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

function runCandidate(c: Candidate, done?: (file: string) => void): Promise<void> {
  return handleCandidate(c)
    .catch((error: unknown) => c.fail('transform', `internal error: ${(error as Error)?.message ?? String(error)}`))
    .finally(() => done?.(c.file));
}

async function handleCandidate(c: Candidate): Promise<void> {
  const { absolutePath, file, source, outcome, fail, context } = c;
  let plan: FilePlan;
  // Undefined when the run plans only.
  let transformed: TransformResult | undefined;
  // Analysed while the files were read: its tree goes with this transform.
  const asked = c.asked;
  c.asked = undefined;
  // The module's path holds another file: the migrated text would import it (an analysis-only
  // run, which uses no output, goes on).
  if (c.placement?.refused && context.verify) {
    fail('write', c.placement.refused);
    return;
  }
  try {
    const options = transformOptionsOf(c);
    const onAnalysed = context.onAnalysed;
    const onAnalysis = onAnalysed && ((analysis: FileAnalysis) => onAnalysed(absolutePath, analysis));
    if (context.rewrite) {
      const result = asked
        ? await transformAsked(asked, context.types, options)
        : await transformWithTypes(c.input, absolutePath, context.types, options, onAnalysis);
      // Against the text on disk: a v1 file the official codemod upgraded changed even when
      // the MRTR pass had nothing to add.
      transformed = { ...result, changed: result.output !== source };
      plan = result.plan;
    } else {
      plan = asked ? await planAsked(asked, context.types, options, true) : await planWithTypes(c.input, absolutePath, context.types, options, onAnalysis);
    }
    c.exportedHelpers = plan.exportedHelpers;
    c.definers = plan.definers;
    c.importsStateModule = plan.handlers.length > 0;
  } catch (error) {
    if (error instanceof ParseFailure) fail('parse', `cannot parse: ${error.message}`, error.line, error.column === undefined ? undefined : error.column + 1);
    else fail('transform', `internal error while transforming: ${(error as Error)?.message ?? String(error)}`);
    return;
  }

  if (transformed?.changed && context.verify) {
    try {
      verifyParses(transformed.output, dialectOf(absolutePath), transformed.edited);
    } catch (error) {
      const where = error instanceof ParseFailure && error.line !== undefined ? ` at line ${error.line}` : '';
      fail(
        'transform',
        `internal error: the rewritten text would not parse${where} (${(error as Error).message}); the file was left as it is (please report this)`,
      );
      return;
    }
  }
  // A v1 file's sites were found in the official codemod's text: report them at the lines of
  // the file on disk, the old side of its diff.
  const toDisk = c.input === source || plan.sites.length === 0 ? undefined : positionMap(c.input, source);
  for (const site of plan.sites) outcome.sites.push({ file, ...site, ...toDisk?.(site.line, site.column) });
  if (!transformed) return;
  // Its notes, at their place in the text the run leaves (the MRTR pass may add lines above
  // them: the helper block goes after the imports).
  if (c.upgrade && transformed.output !== c.input) {
    const toOutput = positionMap(c.input, transformed.output);
    // A marker of the official codemod the MRTR pass made obsolete (and removed) is no longer open work.
    const written = new Set(officialMarkers(c.input).map((m) => m.message));
    const left = new Set(officialMarkers(transformed.output).map((m) => m.message));
    const removed = (note: UpgradeNote) => note.code === 'mcp-codemod-error' && written.has(note.message) && !left.has(note.message);
    c.upgrade.reported.notes = c.upgrade.notes.filter((note) => !removed(note)).map((note) => ({ ...note, ...toOutput(note.line, note.column) }));
  }
  if (!transformed.changed) return;

  const changed: ChangedFile = {
    path: file,
    absolutePath,
    original: source,
    output: transformed.output,
    written: false,
    ...(c.input !== source ? { upgradedFromV1: true } : {}),
  };
  // Splices into the text on disk (not a v1 file's upgraded text, nor a text edited twice).
  if (transformed.edited.base === source) changed.splices = transformed.edited.edits;
  if (context.write) {
    try {
      if (!context.writeReadOnly) {
        const readOnly = await readOnlyReason(absolutePath);
        if (readOnly) {
          fail('write', `${readOnly}; left as it is (make it writable to migrate it)`);
          return;
        }
      }
      // The file may have been edited while the run was busy: never overwrite that edit (it is
      // compared just before the rename).
      await writeFileAtomic(absolutePath, transformed.output, { expected: c.bytes });
      changed.written = true;
      // What is on disk now: the cross-module pass may transform this file again and write
      // it over this text (it still diffs against the original, `source`).
      c.bytes = Buffer.from(transformed.output);
    } catch (error) {
      if (error instanceof ChangedOnDiskError) fail('write', 'the file changed on disk during the run; it was left as it is, with that change (run again)');
      else fail('write', `cannot write: ${describeFsError(error)}`);
      return;
    }
  }
  outcome.changed = changed;
  context.onChanged?.(changed);
}

function failer(file: string, outcome: FileOutcome) {
  return (stage: ErrorStage, message: string, line?: number, column?: number) => {
    outcome.errors.push({ file, stage, message, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) });
  };
}

/** Why a candidate of `bytes` was not analysed (the run's note, check's and the ESLint rule's finding). */
export function tooLargeReason(bytes: number, maxFileBytes: number): string {
  return `too large to analyse (${megabytes(bytes)}, the limit is ${megabytes(maxFileBytes)}): likely a bundle; migrate its sources and build it again`;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
