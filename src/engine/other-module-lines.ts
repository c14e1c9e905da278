// A marker or a reason that names a line of another module (`confirm()` asks at confirm.ts:4)
// names the line the user reads there (core/line-refs.ts): each file's transform leaves such
// lines as references (the other module's own markers and migration move its lines), placed
// here once every file is done.
// Placing them changes no line count, so the order the files finished in does not matter.
// No changed file is written before (candidate.ts holds its write back: the cross-module pass
// may transform it again): each is written here, once, finished, so a run stopped earlier
// leaves it as it was.
import { positionMap } from '../core/position-map.ts';
import { hasFileLineRefs, LINE_REF_CHARACTERS, resolveFileLineRefs } from '../core/line-refs.ts';
import { ChangedOnDiskError, writeFileAtomic } from './atomic-write.ts';
import type { FileOutcome } from './candidate.ts';
import { describeFsError } from './discover.ts';
import type { ChangedFile } from './run-result.ts';

/**
 * Places the lines of other modules the outcomes' markers name, and writes each changed file
 * whose write was held back (`held`: its path, and the bytes it holds on disk).
 */
export async function placeOtherModuleLines(
  outcomes: readonly FileOutcome[],
  held: ReadonlyMap<string, Uint8Array>,
  onChanged?: (file: ChangedFile) => void,
): Promise<void> {
  const lineOf = writtenLines(outcomes);
  const place = (text: string) => resolveFileLineRefs(text, lineOf);
  const writes: Array<Promise<void>> = [];
  // forEach: it passes over the files with no outcome.
  outcomes.forEach((outcome) => {
    for (const site of outcome.sites)
      for (const key of ['marker', 'reason', 'next'] as const) {
        const text = site[key];
        if (text !== undefined && hasFileLineRefs(text)) site[key] = place(text);
      }
    const changed = outcome.changed;
    if (!changed) return;
    const refers = hasFileLineRefs(changed.output);
    const placed: ChangedFile = refers
      ? {
          ...changed,
          output: place(changed.output),
          ...(changed.splices ? { splices: changed.splices.map((e) => ({ ...e, text: place(e.text) })) } : {}),
        }
      : changed;
    // A reference left unplaced would be written as a stray private-use character: the file is left.
    if (refsLeft(placed.output) > refsLeft(placed.original)) {
      outcome.errors.push({ file: placed.path, stage: 'transform', message: UNPLACED });
      outcome.changed = undefined;
      return;
    }
    outcome.changed = placed;
    const onDisk = held.get(placed.absolutePath);
    // Told again only where the lines changed its text.
    const told = () => {
      if (refers) onChanged?.(placed);
    };
    if (onDisk || refers) writes.push((onDisk ? write(outcome, placed, onDisk) : Promise.resolve()).then(told));
  });
  await Promise.all(writes);
}

const UNPLACED = 'internal error: the rewritten text names a line it could not place; the file was left as it is (please report this)';

/** How many characters of the line references' own (core/line-refs.ts) `text` holds. */
function refsLeft(text: string): number {
  return text.match(LINE_REF_CHARACTERS)?.length ?? 0;
}

/**
 * The line each line of a file's planned text is on in the text the user reads: what the run
 * leaves there, or, for a run that changes nothing, the file on disk (the same text but for a v1
 * file upgraded in memory).
 */
function writtenLines(outcomes: readonly FileOutcome[]): (file: string, line: number) => number {
  const texts = new Map<string, { planned: string; read: string }>();
  outcomes.forEach((o) => {
    if (o.changed) texts.set(o.changed.path, { planned: o.changed.upgraded ?? o.changed.original, read: o.changed.output });
    else if (o.planned) texts.set(o.planned.file, { planned: o.planned.text, read: o.planned.onDisk });
  });
  const maps = new Map<string, ReturnType<typeof positionMap>>();
  return (file, line) => {
    const t = texts.get(file);
    if (!t) return line;
    let map = maps.get(file);
    if (!map) maps.set(file, (map = positionMap(t.planned, t.read)));
    return map(line, 1).line;
  };
}

/** Writes a held-back file over the bytes it held when its write was held (an edit made since is kept, and the file is no change of the run). */
async function write(outcome: FileOutcome, placed: ChangedFile, onDisk: Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(placed.absolutePath, placed.output, { expected: onDisk });
    placed.written = true;
  } catch (error) {
    const message =
      error instanceof ChangedOnDiskError
        ? 'the file changed on disk during the run; it was left as it is, with that change (run again)'
        : `cannot write: ${describeFsError(error)}`;
    outcome.errors.push({ file: placed.path, stage: 'write', message });
    // Left as it was: no change of the run.
    outcome.changed = undefined;
  }
}
