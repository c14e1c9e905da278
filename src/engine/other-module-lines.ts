// A marker that names a line of another module (`confirm()` asks at confirm.ts:4) names the
// line the run writes there: each file's transform leaves such lines as references (the other
// module's own markers and migration move its lines), placed here once every file is done.
// Placing them changes no line count, so the order the files finished in does not matter.
import { positionMap } from '../core/position-map.ts';
import { hasFileLineRefs, resolveFileLineRefs } from '../plan/refusal.ts';
import { writeFileAtomic } from './atomic-write.ts';
import type { FileOutcome } from './candidate.ts';
import { describeFsError } from './discover.ts';
import type { ChangedFile } from './run-result.ts';

/** Places the lines of other modules the outcomes' markers name; a changed file written already is written again. */
export async function placeOtherModuleLines(outcomes: readonly FileOutcome[], onChanged?: (file: ChangedFile) => void): Promise<void> {
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
    if (!changed || !hasFileLineRefs(changed.output)) return;
    const placed: ChangedFile = {
      ...changed,
      output: place(changed.output),
      ...(changed.splices ? { splices: changed.splices.map((e) => ({ ...e, text: place(e.text) })) } : {}),
    };
    outcome.changed = placed;
    if (changed.written) writes.push(rewrite(outcome, changed, placed));
    onChanged?.(placed);
  });
  await Promise.all(writes);
}

/** The line each line of a file's input is on in what the run leaves there (a file it does not change: the same). */
function writtenLines(outcomes: readonly FileOutcome[]): (file: string, line: number) => number {
  const changed = new Map<string, ChangedFile>();
  outcomes.forEach((o) => o.changed && changed.set(o.changed.path, o.changed));
  const maps = new Map<string, ReturnType<typeof positionMap>>();
  return (file, line) => {
    const c = changed.get(file);
    if (!c) return line;
    let map = maps.get(file);
    if (!map) maps.set(file, (map = positionMap(c.upgraded ?? c.original, c.output)));
    return map(line, 1).line;
  };
}

async function rewrite(outcome: FileOutcome, written: ChangedFile, placed: ChangedFile): Promise<void> {
  try {
    await writeFileAtomic(placed.absolutePath, placed.output, { expected: Buffer.from(written.output) });
  } catch (error) {
    outcome.errors.push({ file: placed.path, stage: 'write', message: `cannot write the lines its markers name: ${describeFsError(error)}` });
  }
}
