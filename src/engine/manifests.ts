// After a run: the package.json above v1 files it upgraded gets the v2 server package, and
// loses the v1 SDK once no file under it imports the SDK any more; the package.json above any
// file it changed gets the packages its new imports name.
//
// Which package.json: the nearest above the file that lies inside the root (the directory the
// run is in) and inside the file's git work tree, both compared as real paths. One that is a
// symbolic link is not edited (it is reported), nor is one outside those bounds (a warning says
// to edit it by hand). The dirty-tree guard covers the manifest above each given path
// (manifestsToGuard), and a manifest is replaced only if it still holds what was read.
import type { Stats } from 'node:fs';
import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ChangedOnDiskError, writeFileAtomic } from './atomic-write.ts';
import { discoverFiles, type DiscoverOptions } from './discover.ts';
import { workTreeFinder } from './gitignore-rules.ts';
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
  /** The text after the upgrade's step, when it changed the manifest (see updateManifests). */
  upgraded?: string;
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

/** A file whose manifest the run may edit: its text on disk, the run's final text, and (a v1 file) the upgrade's text. */
export interface ManifestSource {
  absolutePath: string;
  /** The text on disk ('' for a file the run creates). */
  original: string;
  /** The text the run leaves. */
  text: string;
  /** A v1 file the upgrade took: its text after the official codemod, before the MRTR pass. */
  upgraded?: string;
}

/**
 * Updates (or, without `write`, computes) the manifest above each file, given their texts: in
 * two steps, as the run makes its change. The upgrade's step (for the manifests above upgraded
 * v1 files): the v2 server package, the packages the official codemod's imports name, the v1
 * SDK dropped once no file under the manifest imports it. The MRTR step: each package the
 * run's own imports name that the file did not import before (`@modelcontextprotocol/node` for
 * an HTTP entry point, the server for the request-state module), and the server's range raised
 * to what MRTR needs. The change's `upgraded` is the manifest after the first step.
 */
export async function updateManifests(files: readonly ManifestSource[], options: ManifestOptions): Promise<ManifestOutcome[]> {
  const finder = new ManifestFinder(options.cwd);
  const byManifest = new Map<string, ManifestSource[]>();
  const outcomes: ManifestOutcome[] = [];
  const reported = new Set<string>();
  for (const file of files) {
    const found = await finder.above(path.dirname(file.absolutePath));
    if (found.manifest) byManifest.set(found.manifest, [...(byManifest.get(found.manifest) ?? []), file]);
    else if (found.refused && !reported.has(found.refused.path) && file.upgraded !== undefined) {
      reported.add(found.refused.path);
      outcomes.push({ absolutePath: found.refused.path, ...found.refused.outcome });
    }
  }
  for (const [manifest, under] of byManifest) {
    const outcome: ManifestOutcome = { absolutePath: manifest };
    try {
      const bytes = await readFile(manifest);
      const text = bytes.toString('utf8');
      const upgraded = await afterUpgrade(manifest, text, under, options);
      // The MRTR step: only where the MRTR pass changed a file (the server's range, the packages its imports name).
      const migrated = under.some((f) => f.text !== (f.upgraded ?? f.original));
      const named = [...new Set(under.flatMap(newlyNamed))];
      const updated = migrated ? updateManifest(upgraded, { stillImportsV1: true, packages: named }) : upgraded;
      const v1 = under.some((f) => f.upgraded !== undefined);
      outcome.warning = v1 || updated !== text ? zodRangeProblem(updated) : undefined;
      if (updated !== text) {
        outcome.changed = {
          path: displayPath(options.cwd, manifest),
          absolutePath: manifest,
          original: text,
          output: updated,
          ...(upgraded !== text ? { upgraded } : {}),
          written: false,
        };
        if (options.write) {
          await writeFileAtomic(manifest, updated, { expected: bytes });
          outcome.changed.written = true;
        }
      }
    } catch (error) {
      outcome.error =
        error instanceof ChangedOnDiskError ? 'changed on disk during the run; not edited (run again)' : `cannot update: ${(error as Error).message}`;
    }
    if (outcome.changed || outcome.error || outcome.warning) outcomes.push(outcome);
  }
  return outcomes;
}

/** The manifest's text after the upgrade's step (the text itself when no file under it was upgraded). */
async function afterUpgrade(manifest: string, text: string, under: readonly ManifestSource[], options: ManifestOptions): Promise<string> {
  const upgraded = under.filter((f) => f.upgraded !== undefined);
  if (upgraded.length === 0) return text;
  const finalTexts = new Map(under.map((f) => [f.absolutePath, f.text]));
  const importsV1 = (f: string) => {
    const final = finalTexts.get(f);
    if (final !== undefined) return isV1Source(final);
    return options.read.has(f) ? options.v1Sources.has(f) : isV1Source(readSource(f)?.source ?? '');
  };
  // Every source under the manifest counts, not only the migrated paths (tests, scripts);
  // only those the run did not read are read here.
  const { files: all } = await discoverFiles([path.dirname(manifest)], options.cwd, options.discover);
  const stillImportsV1 = all.some(importsV1);
  const packages = [...new Set(upgraded.flatMap((f) => importedPackages(f.upgraded!)))];
  return updateManifest(text, { stillImportsV1, packages });
}

/** The packages the run's change of a file makes it import (relative to the upgrade's text, for an upgraded file). */
function newlyNamed(file: ManifestSource): string[] {
  const before = new Set(importedPackages(file.upgraded ?? file.original));
  return importedPackages(file.text).filter((p) => !before.has(p));
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

/**
 * Finds the manifest for a directory within the bounds (cached by directory). The folders of a
 * run's files share their ancestors: each ancestor's work tree and package.json are looked up once.
 */
class ManifestFinder {
  private realCwd?: Promise<string>;
  private readonly cache = new Map<string, Promise<ManifestLookup>>();
  private readonly workTree = workTreeFinder();
  private readonly entries = new Map<string, Promise<Stats | undefined>>();

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
    const top = this.workTree(real);
    // Nothing above the deeper of the two bounds is edited (none when they do not nest).
    const limit = top === undefined || isInside(root, top) ? (top ?? root) : isInside(top, root) ? root : undefined;
    for (let current = real; ; current = path.dirname(current)) {
      const candidate = path.join(current, 'package.json');
      const info = await this.entry(candidate);
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

  /** The file's own entry (not followed), undefined when there is none. */
  private entry(file: string): Promise<Stats | undefined> {
    let info = this.entries.get(file);
    if (!info) this.entries.set(file, (info = lstat(file).catch(() => undefined)));
    return info;
  }

  /** A real path inside the run's directory, as seen from the directory as given. */
  private asGiven(real: string, root: string): string {
    return isInside(root, real) ? path.join(path.resolve(this.cwd), path.relative(root, real)) : real;
  }
}
