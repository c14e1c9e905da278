// The import graph of src/ (and of the transforms beside it) and the two rules it must keep: no cycle, and each layer imports
// only the layers below it (test/architecture.test.ts). Every import counts, `import type` and
// `import()` included: a type-only cycle is still two modules that cannot be read apart.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Module → the modules it imports, as paths relative to the root with `/` separators. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The layers under the entry points, lowest first. */
const PIPELINE = ['core', 'analyse', 'edits', 'plan', 'rewrite', 'pipeline', 'engine', 'report'] as const;
const below = (layer: (typeof PIPELINE)[number]) => PIPELINE.slice(0, PIPELINE.indexOf(layer));

/**
 * The layers of src/, and what each may import besides itself: the pipeline (analyse → plan →
 * rewrite → engine → report) with the shared vocabulary under it and the entry points over it.
 * `holds` are folder prefixes (ending in `/`) or file names; the longest prefix that matches a
 * module decides its layer.
 */
export const LAYERS: ReadonlyArray<{ name: string; holds: readonly string[]; may: readonly string[] }> = [
  // Words every layer shares: spans, edits, input kinds, line arithmetic, escaping.
  { name: 'core', holds: ['core/', 'package-version.ts'], may: [] },
  // Source text (and optional type facts) in, facts about it out.
  { name: 'analyse', holds: ['analyse/'], may: below('analyse') },
  // The text of the edits the planner weighs (what a split or an import leaves unused depends
  // on what it writes): written by the rewriter's builders, which know nothing of plans.
  { name: 'edits', holds: ['rewrite/edits/'], may: below('edits') },
  // Facts in, a plan out: what moves, what travels, what is refused.
  { name: 'plan', holds: ['plan/'], may: below('plan') },
  // A plan in, text out.
  { name: 'rewrite', holds: ['rewrite/'], may: below('rewrite') },
  // One file's text through the layers above.
  { name: 'pipeline', holds: ['transform.ts'], may: below('pipeline') },
  // Files: discovery, the cross-module pass, the v1 upgrade, verification, writing.
  { name: 'engine', holds: ['engine/'], may: below('engine') },
  // A run's result in, what a person or a tool reads out.
  { name: 'report', holds: ['report/'], may: below('report') },
  // The entry points: each stands on the pipeline, none on another (the API exposes check).
  { name: 'cli', holds: ['cli/'], may: PIPELINE },
  { name: 'eslint', holds: ['eslint/'], may: PIPELINE },
  { name: 'transforms', holds: ['transforms/'], may: PIPELINE },
  { name: 'api', holds: ['index.ts'], may: [...PIPELINE, 'cli'] },
];

/**
 * The graph of the TypeScript modules of the project at `root`: src/ (its modules named
 * relative to src/) and the jscodeshift transforms at the top (named `transforms/...`), by
 * their relative imports.
 */
export function importGraph(root: string): Map<string, string[]> {
  const named = (fromRoot: string) => (fromRoot.startsWith('src/') ? fromRoot.slice('src/'.length) : fromRoot);
  const files = ['src', 'transforms'].flatMap((folder) =>
    (readdirSync(path.join(root, folder), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => `${folder}/${f.split(path.sep).join('/')}`),
  );
  const graph = new Map<string, string[]>();
  for (const file of files.sort()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
    const imports = importedFiles.map((i) => i.fileName).filter((name) => name.startsWith('.'));
    graph.set(named(file), [...new Set(imports.map((name) => named(path.posix.normalize(path.posix.join(path.posix.dirname(file), name)))))]);
  }
  return graph;
}

/** Every cycle of the graph, as the modules of each strongly connected part (Tarjan's algorithm), sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(module, Math.min(low.get(module)!, index.get(next)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const part: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      onStack.delete(top);
      part.push(top);
      if (top === module) break;
    }
    if (part.length > 1 || graph.get(module)?.includes(module)) cycles.push(part.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return cycles;
}

/** The layer a module belongs to (the longest matching entry of LAYERS), if any. */
export function layerOf(module: string): string | undefined {
  let found: { name: string; length: number } | undefined;
  for (const layer of LAYERS) {
    for (const prefix of layer.holds) {
      const matches = prefix.endsWith('/') ? module.startsWith(prefix) : module === prefix;
      if (matches && (!found || prefix.length > found.length)) found = { name: layer.name, length: prefix.length };
    }
  }
  return found?.name;
}

/** Each import that crosses the layers the wrong way (`from → to`), and each module of no layer. */
export function layerViolations(graph: ImportGraph): string[] {
  const may = new Map(LAYERS.map((l) => [l.name, new Set([l.name, ...l.may])]));
  const out: string[] = [];
  for (const [module, imports] of graph) {
    const layer = layerOf(module);
    if (!layer) {
      out.push(`${module} belongs to no layer`);
      continue;
    }
    for (const target of imports) {
      const to = layerOf(target);
      if (to === undefined || !may.get(layer)!.has(to)) out.push(`${module} (${layer}) imports ${target} (${to ?? 'no layer'})`);
    }
  }
  return out;
}
