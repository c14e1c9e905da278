// Where a run may put a file of its own (the request-state module): inside the directory the
// run is in and inside the git work tree of every file that imports it, both compared as real
// paths, and never at a symbolic link. The same bounds as the package.json a v1 upgrade edits
// (manifests.ts): nothing outside the root is touched, and `git checkout` / `git clean` in the
// project undo the run.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { workTreeFinder } from './gitignore-rules.ts';
import { displayPath, isInside } from './source-files.ts';

/** Why `file` (absolute) may not be written for the files in `importers`, or undefined when it may. */
export async function newFileProblem(file: string, cwd: string, importers: Iterable<string>): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (info?.isSymbolicLink()) return 'is a symbolic link; it is not written through';
  if (info && !info.isFile()) return 'is not a regular file';
  const root = await realpath(cwd).catch(() => path.resolve(cwd));
  const dir = await realFolder(path.dirname(file));
  if (!isInside(root, dir)) return 'is outside the directory the run is in';
  // Importers share folders, and folders their ancestors: each is looked up once.
  const workTree = workTreeFinder();
  const checked = new Set<string>();
  for (const importer of importers) {
    const folder = path.dirname(importer);
    if (checked.has(folder)) continue;
    checked.add(folder);
    const top = workTree(await realFolder(folder));
    if (top !== undefined && !isInside(top, dir)) return `is outside the git work tree of ${displayPath(cwd, importer)}`;
  }
  return undefined;
}

/** The real path of a folder that may not exist yet: its nearest existing ancestor resolved (links and all), the rest as written. */
async function realFolder(dir: string): Promise<string> {
  const missing: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch {
      if (path.dirname(current) === current) return path.resolve(dir);
      missing.push(path.basename(current));
    }
  }
}
