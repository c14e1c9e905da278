// The cross-module pass's part in dispatches across modules (see dispatch-links.ts): the methods
// that ask through another module's helper with no handler of their module reaching them are
// linked, up their class's chain, to the handlers of other modules that dispatch to them.
import path from 'node:path';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import type { DispatchLinks } from '../plan/plan-options.ts';
import type { FilePlan } from '../plan/types.ts';
import type { RefusedSplits } from './cross-module.ts';
import { moduleFiles } from './cross-module.ts';
import { dispatchLinks, type DispatchLink, type LinkWorld, type Unlinked } from './dispatch-links.ts';
import type { ImportGraph } from './import-graph.ts';
import { readSource } from './source-files.ts';

/** What the search reads of the run. */
export interface DispatchRun {
  files: readonly string[];
  graph: Pick<ImportGraph, 'filesImportingAny'>;
  /** A module's text in the run (a candidate's, an importer's), else read from disk. */
  textOf: (module: string) => string | undefined;
  /** The files of `files` the refused calls are found in (the candidates and importers): looked in first. */
  planned: Iterable<string>;
  maxFileBytes: number;
}

/** The links of the methods `refused` names as callers no handler reaches (by the file the run names them in), and those that cannot be linked. */
export function linksOfUnreached(run: DispatchRun, refused: RefusedSplits, display: (absolutePath: string) => string): ReturnType<typeof dispatchLinks> {
  const inCallers = [...refused.calls.values()].filter((c) => c.caller);
  if (inCallers.length === 0) return { links: [], unlinked: [] };
  const byDisplay = filesByDisplay(run, new Set(inCallers.map((c) => c.file)), display);
  const callers = inCallers.flatMap((c) => {
    const module = byDisplay.get(c.file);
    return module ? [{ module, caller: c.caller! }] : [];
  });
  return callers.length === 0 ? { links: [], unlinked: [] } : dispatchLinks(linkWorld(run, display), callers);
}

/**
 * The file of the run each of `names` (display paths) names. A display path names one file, so
 * the few files planned are looked through first; the run's every file only for a name not
 * found there (a display path for each of thousands of files is most of a small run's pass).
 */
function filesByDisplay(run: DispatchRun, names: ReadonlySet<string>, display: (absolutePath: string) => string): Map<string, string> {
  const found = new Map<string, string>();
  const lookThrough = (files: Iterable<string>) => {
    for (const f of files) {
      if (found.size === names.size) return;
      const name = display(f);
      if (names.has(name)) found.set(name, f);
    }
  };
  const discovered = new Set(run.files);
  lookThrough([...run.planned].filter((f) => discovered.has(f)));
  lookThrough(run.files);
  return found;
}

/** Tells the refused calls made in a method dispatched to that cannot be linked why (the helper's markers say it). */
export function noteUnlinked(refused: RefusedSplits, unlinked: readonly Unlinked[], display: (absolutePath: string) => string): void {
  for (const [key, call] of refused.calls) {
    const u = call.caller ? unlinked.find((x) => x.caller === call.caller && display(x.module) === call.file) : undefined;
    if (u) refused.calls.set(key, { ...call, unlinked: { file: display(u.at.module), line: u.at.line, why: u.why, fix: u.fix } });
  }
}

function linkWorld(run: DispatchRun, display: (absolutePath: string) => string): LinkWorld {
  const discovered = new Set(run.files);
  const analyses = new Map<string, FileAnalysis | undefined>();
  return {
    analyse(module) {
      if (!analyses.has(module)) {
        const source = discovered.has(module) ? (run.textOf(module) ?? readSource(module, (bytes) => bytes.length <= run.maxFileBytes)?.source) : undefined;
        let analysis: FileAnalysis | undefined;
        try {
          analysis = source === undefined ? undefined : analyseFile(source, module);
        } catch {
          analysis = undefined; // the main pass reports it
        }
        analyses.set(module, analysis);
      }
      return analyses.get(module);
    },
    display,
    importersOf: (modules) => run.graph.filesImportingAny(modules),
    resolve: (from, specifier) => moduleFiles(path.dirname(from), specifier).find((f) => discovered.has(f)),
  };
}

/** The links whose method migrates, planned with the methods linked (`plan` of a module, told them). */
export async function migratingLinks(
  links: readonly DispatchLink[],
  plan: (module: string, dispatch: DispatchLinks) => Promise<FilePlan | undefined>,
): Promise<DispatchLink[]> {
  const modules = [...new Set(links.map((l) => l.module))];
  const migrated = new Map<string, ReadonlySet<string>>();
  await Promise.all(
    modules.map(async (module) => {
      const planned = await plan(module, { methods: links.filter((l) => l.module === module).map((l) => l.method) });
      migrated.set(module, new Set(planned?.linkedMigrated ?? []));
    }),
  );
  return links.filter((l) => migrated.get(l.module)!.has(`${l.method.cls}.${l.method.method}`));
}
