// After v1 files were upgraded: the package.json above them gets the v2 server package, and
// loses the v1 SDK once no file under it imports the SDK any more.
//
// Which package.json: the nearest above the file that lies inside the root (the directory the
// run is in) and inside the file's git work tree, both compared as real paths. One that is a
// symbolic link is not edited (it is reported), nor is one outside those bounds (a warning says
// to edit it by hand). The dirty-tree guard covers the manifest above each given path
// (manifestsToGuard), and a manifest is replaced only if it still holds what was read.
import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ChangedOnDiskError, writeFileAtomic } from './atomic-write.ts';
import { discoverFiles, type DiscoverOptions } from './discover.ts';
import { findWorkTree } from './gitignore-rules.ts';
import { updateManifest, zodRangeProblem } from './package-json.ts';
import { displayPath, isInside, readSource } from './source-files.ts';
import { importedPackages, isV1Source } from './v1-upgrade.ts';

/** A manifest's new text, as the run lists it among the changed files. */
export interface ManifestChange {
  /** Relative to cwd, with `/` separators. */
  path: string;
  absolutePath: string;
  original: string;
  output: string;
  /** Whether the new text was written to disk (false in a dry run). */
  written: boolean;
}

export interface ManifestOutcome {
  absolutePath: string;
  changed?: ManifestChange;
  /** Why the manifest could not be updated. */
  error?: string;
  /** Something to do by hand (a zod range the v2 SDK cannot use, a manifest out of bounds). */
  warning?: string;
}

export interface ManifestOptions {
  cwd: string;
  write: boolean;
  discover?: DiscoverOptions;
  /** The files the run read (absolute): not read again. */
  read: ReadonlySet<string>;
  /** Those of them whose text imported the v1 SDK when read. */
  v1Sources: ReadonlySet<string>;
}

/** Updates (or, without `write`, computes) the manifest above each upgraded file, given their final texts. */
export async function updateManifests(upgraded: ReadonlyArray<{ absolutePath: string; text: string }>, options: ManifestOptions): Promise<ManifestOutcome[]> {
  const finder = new ManifestFinder(options.cwd);
  const byManifest = new Map<string, Array<{ absolutePath: string; text: string }>>();
  const outcomes: ManifestOutcome[] = [];
  const reported = new Set<string>();
  for (const file of upgraded) {
    const found = await finder.above(path.dirname(file.absolutePath));
    if (found.manifest) byManifest.set(found.manifest, [...(byManifest.get(found.manifest) ?? []), file]);
    else if (found.refused && !reported.has(found.refused.path)) {
      reported.add(found.refused.path);
      outcomes.push({ absolutePath: found.refused.path, ...found.refused.outcome });
    }
  }
  for (const [manifest, files] of byManifest) {
    const outcome: ManifestOutcome = { absolutePath: manifest };
    outcomes.push(outcome);
    try {
      const bytes = await readFile(manifest);
      const text = bytes.toString('utf8');
      const finalTexts = new Map(files.map((f) => [f.absolutePath, f.text]));
      const importsV1 = (f: string) => {
        const final = finalTexts.get(f);
        if (final !== undefined) return isV1Source(final);
        return options.read.has(f) ? options.v1Sources.has(f) : isV1Source(readSource(f)?.source ?? '');
      };
      // Every source under the manifest counts, not only the migrated paths (tests, scripts);
      // only those the run did not read are read here.
      const { files: all } = await discoverFiles([path.dirname(manifest)], options.cwd, options.discover);
      const stillImportsV1 = all.some(importsV1);
      const packages = [...new Set(files.flatMap((f) => importedPackages(f.text)))];
      const updated = updateManifest(text, { stillImportsV1, packages });
      outcome.warning = zodRangeProblem(updated);
      if (updated === text) continue;
      outcome.changed = { path: displayPath(options.cwd, manifest), absolutePath: manifest, original: text, output: updated, written: false };
      if (options.write) {
        await writeFileAtomic(manifest, updated, { expected: bytes });
        outcome.changed.written = true;
      }
    } catch (error) {
      outcome.error =
        error instanceof ChangedOnDiskError ? 'changed on disk during the run; not edited (run again)' : `cannot update: ${(error as Error).message}`;
    }
  }
  return outcomes;
}

/**
 * The manifests above the given paths (files or directories) that a v1 upgrade under them might
 * edit: the dirty-tree guard checks them with the paths. Those below a given directory are
 * covered by the guard's check of the directory itself. A manifest that already has the v2
 * server package and not the v1 SDK is left out: an upgrade does not change it.
 */
export async function manifestsToGuard(paths: readonly string[], cwd: string): Promise<string[]> {
  const finder = new ManifestFinder(cwd);
  const found = new Set<string>();
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    const info = await lstat(absolute).catch(() => undefined);
    if (!info) continue;
    const { manifest } = await finder.above(info.isDirectory() ? absolute : path.dirname(absolute));
    if (manifest && (await mightChange(manifest))) found.add(manifest);
  }
  return [...found].sort();
}

async function mightChange(manifest: string): Promise<boolean> {
  try {
    const text = await readFile(manifest, 'utf8');
    return updateManifest(text, { stillImportsV1: false }) !== text;
  } catch {
    return true; // unreadable or not JSON: the update will say so; guard it anyway
  }
}

interface ManifestLookup {
  /** The manifest to edit (absolute, under the run's directory as given when it is inside it). */
  manifest?: string;
  /** A manifest found but not to be edited, and what to report about it. */
  refused?: { path: string; outcome: Pick<ManifestOutcome, 'error' | 'warning'> };
}

/** Finds the manifest for a directory within the bounds (cached by directory). */
class ManifestFinder {
  private realCwd?: Promise<string>;
  private readonly cache = new Map<string, Promise<ManifestLookup>>();

  constructor(private readonly cwd: string) {}

  above(dir: string): Promise<ManifestLookup> {
    let lookup = this.cache.get(dir);
    if (!lookup) {
      lookup = this.find(dir);
      this.cache.set(dir, lookup);
    }
    return lookup;
  }

  private async find(dir: string): Promise<ManifestLookup> {
    this.realCwd ??= realpath(this.cwd).catch(() => path.resolve(this.cwd));
    const root = await this.realCwd;
    const real = await realpath(dir).catch(() => undefined);
    if (real === undefined) return {};
    const top = await findWorkTree(real);
    // Nothing above the deeper of the two bounds is edited (none when they do not nest).
    const limit = top === undefined || isInside(root, top) ? (top ?? root) : isInside(top, root) ? root : undefined;
    for (let current = real; ; current = path.dirname(current)) {
      const candidate = path.join(current, 'package.json');
      const info = await lstat(candidate).catch(() => undefined);
      const inBounds = limit !== undefined && isInside(limit, current);
      if (info && !current.split(path.sep).includes('node_modules')) {
        const shown = this.asGiven(candidate, root);
        if (!inBounds) {
          const where = !isInside(root, current) ? 'outside the directory the run is in' : 'outside the git work tree';
          return {
            refused: {
              path: shown,
              outcome: {
                warning: `${where}, so not edited: add @modelcontextprotocol/server ^2.4.0 to it by hand (and drop @modelcontextprotocol/sdk once nothing imports it).`,
              },
            },
          };
        }
        if (info.isSymbolicLink()) return { refused: { path: shown, outcome: { error: 'is a symbolic link; not edited through it (update it by hand)' } } };
        if (info.isFile()) return { manifest: shown };
      }
      if (path.dirname(current) === current) return {};
    }
  }

  /** A real path inside the run's directory, as seen from the directory as given. */
  private asGiven(real: string, root: string): string {
    return isInside(root, real) ? path.join(path.resolve(this.cwd), path.relative(root, real)) : real;
  }
}
