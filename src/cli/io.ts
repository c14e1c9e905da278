// What the commands print to and where they run: the process's streams in use, a recorder in
// tests. Whether each stream is a terminal is decided once, here, and passed in.
import { shouldColor } from '../report/color.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  /** Whether stderr is a terminal (the progress line is drawn only there); tests set it. */
  stderrIsTTY?: boolean;
  /** Terminal width for the progress line. */
  stderrColumns?: number;
  /** Terminal width of stdout, where the help is printed (undefined off a terminal). */
  stdoutColumns?: number;
  /** Colour diffs on stdout (decided from the TTY and NO_COLOR/FORCE_COLOR, or by --color / --no-color; tests set it). */
  color?: boolean;
  /**
   * Whether stdout is a terminal: a diff shown there has its control characters escaped; a
   * diff to a pipe or a file is a patch, and a dry run then also says its errors on stderr.
   */
  stdoutIsTTY?: boolean;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    stderrColumns: process.stderr.columns,
    stdoutColumns: process.stdout.columns,
    stdoutIsTTY: process.stdout.isTTY === true,
    color: shouldColor(process.stdout.isTTY, process.env),
  };
}
