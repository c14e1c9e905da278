// What a run undoes when a signal stops it (Ctrl-C, `kill`): the temporary files not yet renamed
// into place and the scratch directories it made. Each is registered while it exists; the CLI's
// signal handler runs them all, synchronously, just before the process exits. A run killed
// outright (SIGKILL) cannot clean up: its leftovers are recognised by the next run
// (staleTempFile in atomic-write.ts, stale scratch directories in v1-upgrade.ts), from the
// process id in their names.

const pending = new Set<() => void>();

/** Registers a synchronous cleanup for an interrupted run; call the returned function once it is no longer needed. */
export function whenInterrupted(cleanup: () => void): () => void {
  pending.add(cleanup);
  return () => void pending.delete(cleanup);
}

/** Runs every registered cleanup (each at most once; one that fails does not stop the others). */
export function cleanUpInterrupted(): void {
  const cleanups = [...pending];
  pending.clear();
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // Best effort: the process is exiting.
    }
  }
}

/** Whether a process with this id is running (as far as this process can tell). */
export function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
