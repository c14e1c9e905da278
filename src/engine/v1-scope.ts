// Which files on the v1 SDK the v1-to-v2 upgrade takes: only what MRTR needs on v2. MRTR is a
// change of the handlers that ask (elicitation, sampling, roots), so the upgrade takes
// - each file with such a request (a site), on the v1 SDK or reaching it through a module of
//   the project;
// - the files on the v1 SDK that import one of those, directly or through other modules: the
//   modules that build the servers the handlers are registered on, and the entry points that
//   connect those servers to a transport;
// - the files on the v1 SDK that any of the above import, directly or through other modules
//   (the tool modules a server's module registers, the types they share): once the server is on
//   v2, what it hands its server to must be too;
// - and again the v1 importers of those, until nothing is added: a test that hands a tool
//   module a v1 server would not compile against the upgraded module.
// A file whose SDK imports are all `@modelcontextprotocol/sdk/client/...` builds only a client:
// it is never taken. Every other v1 file is left as it is (the official codemod can move it
// whenever its owner wants; nothing of MRTR depends on it).
import type { ImportGraph } from './import-graph.ts';
import { isV1ClientOnly } from './v1-upgrade.ts';

/** A file on the v1 SDK, with the text the official codemod would be given. */
export interface V1File {
  absolutePath: string;
  text: string;
}

/**
 * The files of `v1` the upgrade takes (absolute paths). `graph` holds the relative imports of
 * every file the run read; `hasSites` says whether a file has a server→client request, and
 * `sitesOffV1` lists the files with one that are not on the v1 SDK themselves.
 */
export function v1Scope(
  v1: readonly V1File[],
  graph: Pick<ImportGraph, 'importsOf' | 'importersOf'>,
  hasSites: (file: V1File) => boolean,
  sitesOffV1: readonly string[] = [],
): Set<string> {
  const takeable = new Map(v1.filter((f) => !isV1ClientOnly(f.text)).map((f) => [f.absolutePath, f]));
  // A file with a site that imports nothing of v1 may reach it through the project's modules
  // (its server's type from a shared context module): those modules are where it is on v1.
  const reached = reachable(sitesOffV1, (f) => graph.importsOf(f));
  const seeds = [...takeable.values()].filter((f) => hasSites(f) || reached.has(f.absolutePath)).map((f) => f.absolutePath);
  const scope = new Set(seeds);
  // To a fixed point: a module the upgrade takes because a server's module imports it (a tool
  // module) may have importers of its own on the v1 SDK (a test that hands it a v1 server).
  // Walked as a worklist, each way once: a module reached from any file of the scope leads to
  // the same modules again, so a file taken is walked from only where it was not yet reached.
  const walks = [(f: string) => graph.importersOf(f), (f: string) => graph.importsOf(f)].map((next) => ({ next, reached: new Set<string>() }));
  const queue: Array<{ file: string; walk: (typeof walks)[number] }> = [];
  const reach = (file: string, walk: (typeof walks)[number]) => {
    if (walk.reached.has(file)) return;
    walk.reached.add(file);
    queue.push({ file, walk });
  };
  const take = (file: string) => {
    scope.add(file);
    for (const walk of walks) reach(file, walk);
  };
  for (const file of seeds) take(file);
  for (let item = queue.pop(); item !== undefined; item = queue.pop()) {
    for (const other of item.walk.next(item.file)) {
      if (takeable.has(other) && !scope.has(other)) take(other);
      else reach(other, item.walk);
    }
  }
  return scope;
}

/** Every file reached from `starts` by `next`, through any module (an index module that imports nothing of the SDK included). */
function reachable(starts: readonly string[], next: (file: string) => readonly string[]): Set<string> {
  const seen = new Set(starts);
  const queue = [...starts];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const other of next(file)) {
      if (seen.has(other)) continue;
      seen.add(other);
      queue.push(other);
    }
  }
  return seen;
}
