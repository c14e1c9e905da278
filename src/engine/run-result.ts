// What a run found and did: the result of src/engine/run.ts, which the CLI formats (src/report).
import type { Edit } from '../core/vocabulary.ts';
import type { SiteReport } from '../plan/types.ts';
import type { EntryPointReport } from '../rewrite/entry-points.ts';
import type { StateModuleRecord } from './state-modules.ts';
import type { UpgradeNote } from './v1-upgrade.ts';

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
  /**
   * The text after the v1-to-v2 upgrade, before the MRTR pass (set when the upgrade changed the
   * file: a v1 source file, or the package.json above one). `original` → `upgraded` is the
   * upgrade, `upgraded` → `output` the MRTR change (the same text when it made none).
   */
  upgraded?: string;
  /** Whether the new text was written to disk (false in a dry run). */
  written: boolean;
}

export interface RunSite extends SiteReport {
  /** File the site is in, relative to cwd, with `/` separators. */
  file: string;
}

/** A migrated handler that asks only through other modules' split helpers: its file (relative to cwd, `/` separators), id and line. */
export interface HandlerAskingThrough {
  file: string;
  handler: string;
  line: number;
}

/** A stdio entry point the run rewrote to serveStdio (both eras), or marked. */
export interface RunEntryPoint extends EntryPointReport {
  /** Relative to cwd, with `/` separators. */
  file: string;
}

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
  /** For a vendored folder: how many legacy request sites it holds (not migrated, not findings). */
  legacyRequests?: number;
}

export interface RunResult {
  /** Source files discovered (and read). */
  filesScanned: number;
  /** Files whose text passed the prefilter, so were parsed. */
  candidates: number;
  changed: ChangedFile[];
  sites: RunSite[];
  /**
   * Migrated handlers with no site of their own: they ask only through other modules' split
   * helpers, whose sites count their questions. The handler tallies count them (absent when none).
   */
  askingThrough?: HandlerAskingThrough[];
  /** Stdio entry points rewritten to serve both eras, or marked (absent when none, and when the run only plans). */
  entryPoints?: RunEntryPoint[];
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
  /**
   * Files on the v1 SDK the upgrade left as they are, MRTR needing none of them (src/engine/v1-scope.ts):
   * relative to cwd, in discovery order. Absent when the run upgrades nothing of v1 (`v1: false`).
   */
  v1Kept?: string[];
  /** The run stopped after the v1-to-v2 upgrade (`v1: 'only'`): no MRTR pass, no site reported. */
  v1Only?: boolean;
}
