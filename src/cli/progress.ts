// The progress line for long runs: one line on stderr, rewritten in place (`\r`), showing
// files done out of the total, and erased when the run ends so the summary stands alone.
// Shown only when stderr is a terminal and the output is for a person (not with --json), and
// only for long runs: at least `minFiles` files (200), or once the run has taken `delayMs`
// (1 s). Redrawn at most every `intervalMs`. Never a byte on a pipe or a file.
import type { Discovery } from '../engine/discover.ts';
import type { RunOptions, RunResult, RunSettings } from '../engine/run.ts';

export interface ProgressOptions {
  /** Whether progress may be drawn at all: stderr is a TTY and the output is not --json. */
  enabled: boolean;
  write(text: string): void;
  /** Terminal width (the line is cut to fit). */
  columns?: number;
  now?: () => number;
  minFiles?: number;
  delayMs?: number;
  intervalMs?: number;
}

export interface Progress {
  readonly enabled: boolean;
  start(total: number): void;
  /** One more file done. */
  tick(): void;
  /** Erases the line if one was drawn. */
  done(): void;
}

export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => Date.now());
  const minFiles = options.minFiles ?? 200;
  const delayMs = options.delayMs ?? 1000;
  const intervalMs = options.intervalMs ?? 100;
  let total = 0;
  let doneCount = 0;
  let startedAt = 0;
  let lastDraw = -Infinity;
  let drawn = false;

  const draw = () => {
    const width = Math.max(20, (options.columns || 80) - 1); // 0: a terminal of unknown size
    const ratio = total === 0 ? 1 : doneCount / total;
    const counts = `${doneCount}/${total} files`;
    const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
    const label = 'mrtr-codemod';
    // The bar keeps one width for the whole run: room is reserved for the widest count.
    const room = width - label.length - `${total}/${total} files`.length - percent.length - 5;
    const barWidth = Math.min(30, room);
    const bar = barWidth >= 5 ? ` [${'#'.repeat(Math.round(ratio * barWidth)).padEnd(barWidth, '.')}]` : '';
    options.write(`\r\x1b[2K${`${label}${bar} ${counts} ${percent}`.slice(0, width)}`);
    drawn = true;
    lastDraw = now();
  };

  return {
    enabled: options.enabled,
    start(n) {
      total = n;
      doneCount = 0;
      startedAt = now();
      if (options.enabled && total >= minFiles) draw();
    },
    tick() {
      doneCount++;
      if (!options.enabled) return;
      const t = now();
      if (!drawn && total < minFiles && t - startedAt < delayMs) return;
      if (t - lastDraw >= intervalMs || doneCount === total) draw();
    },
    done() {
      if (drawn) options.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

type Run = (options: RunOptions) => Promise<RunResult>;

/** Runs the codemod over discovered files; each handled file ticks the progress line. */
export async function runDiscovered(run: Run, discovery: Discovery, options: RunSettings, progress: Progress): Promise<RunResult> {
  progress.start(discovery.files.length);
  try {
    return await run({ ...options, discovery, onFileDone: () => progress.tick() });
  } finally {
    progress.done();
  }
}
