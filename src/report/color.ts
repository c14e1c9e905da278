// Terminal colour for diffs. Colour is decided once, from the stream and the environment
// (https://no-color.org, FORCE_COLOR), and the decision is passed in: nothing here looks at
// process.stdout, so the CLI's tests drive it with a flag instead of a real terminal. No
// runtime imports but the escape table: the CLI loads this module to decide, before any command
// runs.
import { terminalCodeLine } from '../core/escape.ts';
import type { DiffLine, DiffLineKind } from './diff-line.ts';

type ColorEnv = Readonly<Record<string, string | undefined>>;

/**
 * Whether to colour output written to a stream. NO_COLOR (set and not empty) always wins;
 * FORCE_COLOR forces colour even into a pipe (`FORCE_COLOR=0` or `false` turns it off);
 * otherwise colour only on a terminal that is not `TERM=dumb`.
 */
export function shouldColor(isTTY: boolean | undefined, env: ColorEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (!isTTY) return false;
  return env.TERM !== 'dumb';
}

const RESET = '\u001b[0m';
const STYLE: Record<DiffLineKind, string> = {
  'file-old': '\u001b[1m',
  'file-new': '\u001b[1m',
  header: '\u001b[1m',
  hunk: '\u001b[36m',
  add: '\u001b[32m',
  remove: '\u001b[31m',
  context: '',
  'no-newline': '\u001b[2m',
};

/**
 * One classified diff line as shown on a terminal: its control characters escaped (the source's
 * own escape sequences never act on the terminal), with its ANSI colour when `color` (file
 * headers bold, hunk headers cyan, additions green, removals red), and its line end. Stripping
 * the colour gives back `line.text + line.eol` when the line has no control character. See
 * terminalDiff in diff.ts for a whole patch.
 */
export function ansiDiffLine(line: Pick<DiffLine, 'kind' | 'text' | 'eol'>, color = true): string {
  const text = terminalCodeLine(line.text);
  const style = color ? STYLE[line.kind] : '';
  if (!style) return text + line.eol;
  // Keep the CR of a CRLF line outside the escape, so the reset is not pushed to the next line.
  const cr = text.endsWith('\r') ? '\r' : '';
  const body = cr ? text.slice(0, -1) : text;
  return `${style}${body}${RESET}${cr}${line.eol}`;
}

/** Removes the SGR escapes colorizeDiff adds (and any other `ESC [ ... m`). */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
