// What a run is told: the settings of src/engine/run.ts, what it runs over, and the size a
// candidate may have.
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import type { TransformOptions, TypeFactsSource } from '../transform.ts';
import type { DiscoverOptions, Discovery } from './discover.ts';
import type { ChangedFile } from './run-result.ts';

/** Candidates larger than this are reported and not parsed (see RunOptions.maxFileBytes). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Why a candidate of `bytes` was not analysed (the run's note, check's and the ESLint rule's finding). */
export function tooLargeReason(bytes: number, maxFileBytes: number): string {
  return `too large to analyse (${megabytes(bytes)}, the limit is ${megabytes(maxFileBytes)}): likely a bundle; migrate its sources and build it again`;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

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
   * The caller reads the markers of the changed texts (the summary's next check,
   * src/report/next-check.ts): a verified text that mentions one is then parsed whole, not in
   * parts, and what the reader needs of its syntax kept (output-syntax.ts), so that the reader
   * parses it no second time.
   */
  readsOutputMarkers?: boolean;
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
   * Only the files MRTR needs on v2 are upgraded (src/engine/v1-scope.ts). `'only'` runs the
   * upgrade alone (no MRTR pass, no request-state module), so that it can be committed first.
   */
  v1?: boolean | 'only';
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

/** The phases of a run, in order (each but `files` only when there is work for it). */
export type RunPhase = 'files' | 'v1-upgrade' | 'finishing' | 'cross-module' | 'state-modules' | 'manifests';
