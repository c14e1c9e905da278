// The progress line: one line on stderr, rewritten in place (`\r`), from the moment files are
// looked for until the run ends, when it is erased so the summary stands alone. It shows the
// phase the run is in (finding files, reading and migrating, the official v1 codemod, finishing
// the files that wait for the type checker or a write, ...), the steps done out of the steps known, and the seconds so far
// (redrawn every second, so a long phase never looks frozen). Shown only when stderr is a
// terminal and the output is for a person (not with --json); never a byte on a pipe or a file.
// Redrawn at most every `intervalMs` between phases.
import type { Discovery } from '../engine/discover.ts';
import type { RunOptions, RunPhase, RunResult, RunSettings } from '../engine/run.ts';

export interface ProgressOptions {
  /** Whether progress may be drawn at all: stderr is a TTY and the output is not --json. */
  enabled: boolean;
  write(text: string): void;
  /** Terminal width (the line is cut to fit). */
  columns?: number;
  now?: () => number;
  intervalMs?: number;
  /** Redraw this often even when nothing moves (0: never; tests draw by hand). */
  tickMs?: number;
}

export interface Progress {
  readonly enabled: boolean;
  /** A new phase, named for a person, adding `steps` to the total (0: a phase counted by what it finds, or not at all). */
  phase(label: string, steps?: number): void;
  /** One step done (or, in a phase without steps, one more thing found). */
  tick(): void;
  /** Erases the line if one was drawn, and stops redrawing. */
  done(): void;
}

/** How each phase of a run reads on the line. */
const RUN_PHASES: Readonly<Record<RunPhase, string>> = {
  files: 'reading and migrating',
  'v1-upgrade': 'upgrading v1 files (official codemod)',
  finishing: 'finishing files',
  'cross-module': 'following helpers across modules',
  'state-modules': 'writing the request-state module',
  manifests: 'updating package.json',
};

export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => Date.now());
  const intervalMs = options.intervalMs ?? 100;
  let startedAt: number | undefined;
  let label = '';
  let total = 0;
  let doneCount = 0;
  let found = 0;
  let lastDraw = -Infinity;
  let drawn = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const draw = () => {
    const width = Math.max(20, (options.columns || 80) - 1); // 0: a terminal of unknown size
    const seconds = `${Math.floor((now() - (startedAt ?? now())) / 1000)}s`;
    options.write(`\r\x1b[2K${progressLine(label, total, doneCount, found, width, seconds).slice(0, width)}`);
    drawn = true;
    lastDraw = now();
  };

  return {
    enabled: options.enabled,
    phase(name, steps = 0) {
      if (!options.enabled) return;
      startedAt ??= now();
      label = name;
      total += steps;
      found = 0;
      draw();
      const tickMs = options.tickMs ?? 1000;
      if (timer === undefined && tickMs > 0) {
        timer = setInterval(draw, tickMs);
        timer.unref();
      }
    },
    tick() {
      if (!options.enabled) return;
      if (total === 0) found++;
      else doneCount++;
      if (now() - lastDraw >= intervalMs || (total > 0 && doneCount === total)) draw();
    },
    done() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (drawn) options.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** The line for a phase: with a bar and counts when steps are known, else what it found so far. */
function progressLine(label: string, total: number, doneCount: number, found: number, width: number, seconds: string): string {
  if (total === 0) return `mrtr-codemod ${label}${found > 0 ? ` ${found}` : ''}  ${seconds}`;
  const ratio = Math.min(1, doneCount / total);
  const counts = `${doneCount}/${total}`;
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  // The bar gives way to the label, and keeps one width for the whole phase: room is
  // reserved for the widest count and a few digits of seconds.
  const room = width - 'mrtr-codemod'.length - `${total}/${total}`.length - percent.length - label.length - 'sss'.length - 10;
  const barWidth = Math.min(30, room);
  const bar = barWidth >= 5 ? ` [${'#'.repeat(Math.round(ratio * barWidth)).padEnd(barWidth, '.')}]` : '';
  return `mrtr-codemod${bar} ${counts} ${percent}  ${label}  ${seconds}`;
}

type Run = (options: RunOptions) => Promise<RunResult>;

/** Runs the codemod over discovered files; each phase and each step shows on the progress line. */
export async function runDiscovered(run: Run, discovery: Discovery, options: RunSettings, progress: Progress): Promise<RunResult> {
  try {
    // Without a line to draw, the run need not name each file it is done with.
    const steps: Partial<RunSettings> = progress.enabled
      ? { onPhase: (phase, steps) => progress.phase(RUN_PHASES[phase], steps), onFileDone: () => progress.tick(), onStep: () => progress.tick() }
      : {};
    return await run({ ...options, discovery, ...steps });
  } finally {
    progress.done();
  }
}
