// Splits carried across module levels. A module's exported function that is no handler and calls
// another module's split helper (`prepareRun()` calling `findRoot()`) becomes a helper that may
// ask in turn: its planning reports the split it would make (FilePlan.exportedHelpers,
// `asksThrough`), and the approvals are made again with it among the run's helpers, so that the
// handlers of a third module ask through its halves. Repeated until a round finds no new one: a
// chain of any depth. A function is split only if the helper it asks through is (approvedSplits'
// `inner`); a module with such functions plans with both what it imports and what it splits.
import { approvedSplits, helperKey, type AskingHelperIndex, type ExportedHelper, type RefusedSplits, type SplitPlanner } from './cross-module.ts';

/** What the approvals of one round work with, built by the pass for a set of helpers. */
export interface Level {
  index: AskingHelperIndex;
  sources: ReadonlyArray<{ absolutePath: string; source: string }>;
  /** The planner of the round's files, told what the pass tells them. */
  plan: SplitPlanner;
}

/** The rounds stop here, whatever is left: a chain this deep is news (and a cycle is no chain). */
const MAX_LEVELS = 8;

/**
 * The splits approved, with the functions found to ask through other modules' helpers added to
 * `helpers` (and their dependency to `inner`) round after round. `level` builds a round's index,
 * files and planner for the helpers given; the last round's is returned with the approvals.
 */
export async function approvedAcrossLevels(
  helpers: Map<string, ExportedHelper[]>,
  inner: Map<string, string>,
  level: (helpers: ReadonlyMap<string, readonly ExportedHelper[]>) => Level,
  refused: RefusedSplits,
): Promise<{ approved: Set<string>; level: Level }> {
  for (let round = 0; ; round++) {
    const current = level(helpers);
    const plan = withOwnSplits(current, helpers, inner);
    const approved = await approvedSplits(current.index, helpers, current.sources, plan, refused, inner);
    if (round === MAX_LEVELS || !addWrappers(helpers, inner, refused.wrappers)) return { approved, level: current };
    // Planned again from the start, with the new helpers: what the round found out is void.
    refused.calls.clear();
    refused.heldBack.clear();
    delete refused.exportedCallers;
  }
}

/** Adds the functions `wrappers` holds that `helpers` does not: whether it added any. */
function addWrappers(helpers: Map<string, ExportedHelper[]>, inner: Map<string, string>, wrappers: RefusedSplits['wrappers']): boolean {
  let added = false;
  for (const [module, list] of wrappers ?? []) {
    for (const { inner: through, ...helper } of list) {
      const key = helperKey(module, helper.name);
      if (inner.has(key) || helpers.get(module)?.some((h) => h.name === helper.name)) continue;
      helpers.set(module, [...(helpers.get(module) ?? []), helper]);
      inner.set(key, through);
      added = true;
    }
  }
  return added;
}

/**
 * The round's planner, a module with functions that ask through other modules' helpers told
 * both: the helpers it imports (their splits as approved so far) and its own approved splits.
 */
function withOwnSplits(level: Level, helpers: ReadonlyMap<string, readonly ExportedHelper[]>, inner: ReadonlyMap<string, string>): SplitPlanner {
  const deep = new Set([...inner.keys()].map((key) => key.slice(0, key.indexOf('\0'))));
  if (deep.size === 0) return level.plan;
  const sources = new Map(level.sources.map((f) => [f.absolutePath, f.source] as const));
  return (absolutePath, options, approved) => {
    if (!deep.has(absolutePath)) return level.plan(absolutePath, options, approved);
    const own = (helpers.get(absolutePath) ?? []).map((h) => h.name).filter((name) => approved.has(helperKey(absolutePath, name)));
    const source = sources.get(absolutePath);
    return level.plan(
      absolutePath,
      {
        ...options,
        externalHelpers: options.externalHelpers ?? (source === undefined ? undefined : level.index.importsOf(absolutePath, source, approved)),
        splitExported: options.splitExported ?? own,
      },
      approved,
    );
  };
}
