// The exit codes of `migrate` and `check`: one rule for both, so a script or a CI step reads
// them alike.
//
//   0  done, and nothing is left: no legacy request, no marker, no error
//   1  done, but something is left for a person: check's findings; after migrate (or, in a dry
//      run, after the change it shows) the markers it left, the official v1 codemod's open
//      items, a candidate it skipped
//   2  something could not be done: a usage error, a path that does not exist, a file that
//      could not be read, parsed or written (every other file was still processed), or a
//      refusal to write (uncommitted changes)
//   128+n  stopped by signal n (130 for Ctrl-C): files already rewritten are complete, the
//      others are as they were
// 2 wins over 1: an error means the findings may be incomplete.

export const EXIT_CLEAN = 0;
export const EXIT_OPEN = 1;
export const EXIT_FAILED = 2;

export type ExitCode = typeof EXIT_CLEAN | typeof EXIT_OPEN | typeof EXIT_FAILED;

export function exitCodeFor(outcome: { open: boolean; failed: boolean }): ExitCode {
  if (outcome.failed) return EXIT_FAILED;
  return outcome.open ? EXIT_OPEN : EXIT_CLEAN;
}
