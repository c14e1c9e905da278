// The first step of a run: every discovered file read and tested against PREFILTER. A file that
// is not a candidate is dropped once tested; a candidate is queued for its transform (or for the
// official codemod first, on the v1 SDK). Until one has asked the checker something, TypeScript
// candidates are analysed as they are read, so that the checker starts while the rest is read.
import { dialectOf } from '../analyse/parse.ts';
import { PREFILTER } from '../analyse/sdk-surface.ts';
import { askEarly, failer, newCandidate, type Candidate, type FileOutcome, type RunContext } from './candidate.ts';
import { describeFsError, type Discovery } from './discover.ts';
import { tooLargeReason, type RunSettings } from './run-options.ts';
import type { ErrorStage, RunSkip } from './run-result.ts';
import { decodeSource, displayPath, FileReader } from './source-files.ts';
import type { StateModules } from './state-modules.ts';
import { isV1Source } from './v1-upgrade.ts';
import { cachedReader, v1Reach } from './v1-reach.ts';

/**
 * Files are read synchronously, a batch at a time, yielding to the event loop between batches.
 * Measured on 10,000 files (60 MB, page cache warm): readFileSync 95-130 ms, fs.readFile with
 * 16 in flight 120-370 ms, fs/promises readFile with 16 in flight 370-500 ms.
 */
const READ_BATCH = 64;

/**
 * TypeScript candidates analysed while the files are read, until one asks the checker
 * something (each holds its syntax tree until every file is read).
 */
const EARLY_FILES = 16;

/** What reading works with, of its run. */
interface ReadRun {
  context: RunContext;
  cwd: string;
  discovery: Pick<Discovery, 'files'>;
  maxFileBytes: number;
  /** Told every text read (the request-state module's place depends on them). */
  modules: StateModules;
  options: Pick<RunSettings, 'v1' | 'onText' | 'onFileDone'>;
  /** The outcome of the file of this discovery index. */
  outcomeAt: (i: number) => FileOutcome;
}

/** What each file's reading is told: its run's, and what that decides. */
interface Reading extends ReadRun {
  /** Whether files on the v1 SDK are upgraded (RunSettings.v1). */
  upgradeV1: boolean;
  /** The file of this discovery index is done (progress). */
  doneAt: (i: number) => void;
  /** Modules a candidate imports, read to tell whether they are on the v1 SDK. */
  readModule: ReturnType<typeof cachedReader>;
  /** Whether TypeScript candidates are still analysed as they are read (see queueCandidate). */
  early: { checkerAsked: boolean; analysed: number };
  /** Reads every file into one buffer (a candidate keeps a copy). */
  reader: FileReader;
}

/** What reading found. */
export interface ReadCandidates {
  /** Files whose text passed the prefilter (too large ones included). */
  count: number;
  /** The candidates, by path (the cross-module pass looks them up). */
  candidates: Map<string, Candidate>;
  /** Transformed once every file is read: where the request-state module goes depends on them. */
  pending: Candidate[];
  /** Files on the v1 SDK, and files upgraded with them: the official codemod first. */
  v1Queue: Candidate[];
  /** Files read whose text imports the v1 SDK: the manifest update need not read them again. */
  v1Sources: Set<string>;
  /** Candidates too large to analyse: noted, not parsed. */
  tooLarge: RunSkip[];
}

export async function readCandidates(run: ReadRun): Promise<ReadCandidates> {
  const { cwd, discovery, options } = run;
  const step: Reading = {
    ...run,
    upgradeV1: options.v1 !== false,
    doneAt: (i) => options.onFileDone?.(displayPath(cwd, discovery.files[i]!)),
    readModule: cachedReader(),
    early: { checkerAsked: false, analysed: 0 },
    reader: new FileReader(),
  };
  const found: ReadCandidates = { count: 0, candidates: new Map(), pending: [], v1Queue: [], v1Sources: new Set(), tooLarge: [] };
  for (let i = 0; i < discovery.files.length; i++) {
    // Let other I/O progress between runs of reads.
    if (i > 0 && i % READ_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const read = readCandidate(step, found, i);
    if (read) queueCandidate(step, found, read.c, read.v1);
  }
  return found;
}

/** Reads file `i` and tests it: its candidate, or undefined when it is none (or was reported). */
function readCandidate(step: Reading, found: ReadCandidates, i: number): { c: Candidate; v1: boolean } | undefined {
  const { cwd, maxFileBytes } = step;
  const absolutePath = step.discovery.files[i]!;
  const fail = (stage: ErrorStage, message: string) => {
    failer(displayPath(cwd, absolutePath), step.outcomeAt(i))(stage, message);
    step.doneAt(i);
  };
  let bytes: Buffer;
  try {
    bytes = step.reader.read(absolutePath)!;
  } catch (error) {
    fail('read', `cannot read: ${describeFsError(error)}`);
    return undefined;
  }
  const source = decodeSource(bytes);
  if (typeof source !== 'string') {
    fail('read', source.problem);
    return undefined;
  }
  step.options.onText?.(absolutePath, source);
  step.modules.note(absolutePath, source);
  const v1 = step.upgradeV1 && isV1Source(source);
  if (v1) found.v1Sources.add(absolutePath);
  // Most files of a project never mention the legacy surface: they are not parsed at all.
  if (!v1 && !PREFILTER.test(source)) {
    step.doneAt(i);
    return undefined;
  }
  found.count++;
  if (bytes.length > maxFileBytes) {
    // In practice a bundle built from sources that are migrated themselves: a note, not an error.
    found.tooLarge.push({ file: displayPath(cwd, absolutePath), reason: tooLargeReason(bytes.length, maxFileBytes), candidate: true });
    step.doneAt(i);
    return undefined;
  }
  const c = newCandidate(step.context, { absolutePath, file: displayPath(cwd, absolutePath), bytes: Buffer.from(bytes), source }, step.outcomeAt(i));
  found.candidates.set(absolutePath, c);
  return { c, v1 };
}

/** Queues a candidate read: for the official codemod (on the v1 SDK, or reaching it), or for its transform. */
function queueCandidate(step: Reading, found: ReadCandidates, c: Candidate, v1: boolean): void {
  // Reaching the v1 SDK through a module of the project: upgraded with it (its imports of that
  // module pointed at the SDK for the official codemod), or marked where v1 files stay.
  const reach = v1 || isV1Source(c.source) ? undefined : v1Reach(c.absolutePath, c.source, step.readModule);
  if (reach && step.upgradeV1 && reach.aliased && !reach.vendored) {
    c.alias = reach;
    found.v1Queue.push(c);
    return;
  }
  // Where v1 files stay (or the module is a copy of the SDK), a file whose server or handler
  // context may come from one stays v1 too; one that only takes v1 types and utilities does not.
  if (reach?.vendored) c.v1Through = reach.through;
  else if (reach?.serverThrough && !step.upgradeV1) c.v1Through = reach.serverThrough;
  if (v1) {
    // The official codemod runs on batches of v1 files, after reading.
    found.v1Queue.push(c);
    return;
  }
  // Transformed once every file is read: where the request-state module goes depends on them.
  // Until one has asked the checker something, TypeScript files are analysed now and their
  // questions put at once (they do not depend on the module's place): the checker, which
  // takes seconds to start, starts while the rest is read.
  const { early } = step;
  if (step.context.types && !early.checkerAsked && early.analysed < EARLY_FILES && dialectOf(c.absolutePath) !== 'js') {
    early.analysed++;
    c.asked = askEarly(c);
    early.checkerAsked = c.asked?.facts !== undefined;
  }
  found.pending.push(c);
}
