// An exported asking method that no handler of the run was shown to call may still be called in
// the run, on a receiver the run cannot tie to its class (typed by an interface of a package, or
// not typed): its marker names that call rather than saying no call is in the run. The call is
// not followed: a method reached through an interface keeps the contract the interface gives it.
import { analyseFile } from '../analyse/analyse-file.ts';
import { untiedCalls } from '../analyse/member-calls.ts';
import type { UntiedCallIn } from '../plan/plan-options.ts';
import type { Candidate } from './candidate.ts';
import { decodeSource, displayPath, FileReader } from './source-files.ts';

/** What the lookup reads of its run. */
export interface UntiedRun {
  cwd: string;
  files: readonly string[];
  candidates: ReadonlyMap<string, Candidate>;
  maxFileBytes: number;
}

/**
 * For each of `methods` (`Class.method`, by module), the first call of its name in the run's
 * files (in discovery order) on a receiver not declared as its class; a call on a typed receiver
 * is preferred to one on an untyped receiver.
 */
export function findUntiedCalls(run: UntiedRun, methods: ReadonlyMap<string, readonly string[]>): Map<string, Record<string, UntiedCallIn>> {
  const wanted = [...methods].flatMap(([module, names]) => names.map((name) => ({ module, name, owner: name.split('.')[0]!, method: name.split('.')[1]! })));
  const found = new Map<string, Record<string, UntiedCallIn>>();
  if (wanted.length === 0) return found;
  const needles = [...new Set(wanted.map((w) => `.${w.method}(`))];
  const needleBytes = needles.map((n) => Buffer.from(n));
  const reader = new FileReader();
  for (const absolutePath of run.files) {
    const read = run.candidates.get(absolutePath)?.input ?? readIfMentioned(absolutePath, needleBytes, run.maxFileBytes, reader);
    if (read === undefined || !needles.some((n) => read.includes(n))) continue;
    let analysis;
    try {
      analysis = analyseFile(read, absolutePath);
    } catch {
      continue; // reported by the main pass, if a candidate
    }
    for (const w of wanted) {
      const calls = read.includes(`.${w.method}(`) ? untiedCalls(analysis, w.method, w.owner) : [];
      const call = calls.find((c) => c.type !== undefined) ?? calls[0];
      const known = found.get(w.module)?.[w.name];
      if (!call || (known && (known.type !== undefined || call.type === undefined))) continue;
      found.set(w.module, { ...found.get(w.module), [w.name]: { ...call, file: displayPath(run.cwd, absolutePath) } });
    }
    // A call on a typed receiver is kept once found: when each method has one, no later file changes them.
    if (wanted.every((w) => found.get(w.module)?.[w.name]?.type !== undefined)) break;
  }
  return found;
}

/** A file's text when its bytes hold one of `needles` (read into the lookup's one buffer: it reads every file of the run). */
function readIfMentioned(absolutePath: string, needles: readonly Buffer[], maxBytes: number, reader: FileReader): string | undefined {
  let bytes: Buffer | undefined;
  try {
    bytes = reader.read(absolutePath, maxBytes);
  } catch {
    return undefined;
  }
  if (bytes === undefined || !needles.some((n) => bytes.includes(n))) return undefined;
  const source = decodeSource(bytes);
  return typeof source === 'string' ? source : undefined;
}
