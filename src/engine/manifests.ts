// After v1 files were upgraded: the package.json above them gets the v2 server package, and
// loses the v1 SDK once no file under it imports the SDK any more.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { discoverFiles, type DiscoverOptions } from './discover.ts';
import { updateManifest, zodRangeProblem } from './package-json.ts';
import type { ChangedFile } from './run.ts';
import { displayPath, readSource } from './source-files.ts';
import { importedPackages, isV1Source } from './v1-upgrade.ts';

export interface ManifestOutcome {
  absolutePath: string;
  changed?: ChangedFile;
  /** Why the manifest could not be updated. */
  error?: string;
  /** Something to do by hand (a zod range the v2 SDK cannot use). */
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
  const byManifest = new Map<string, Array<{ absolutePath: string; text: string }>>();
  for (const file of upgraded) {
    const manifest = nearestManifest(path.dirname(file.absolutePath));
    if (manifest) byManifest.set(manifest, [...(byManifest.get(manifest) ?? []), file]);
  }
  const outcomes: ManifestOutcome[] = [];
  for (const [manifest, files] of byManifest) {
    const outcome: ManifestOutcome = { absolutePath: manifest };
    outcomes.push(outcome);
    try {
      const text = readFileSync(manifest, 'utf8');
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
        await writeFileAtomic(manifest, updated);
        outcome.changed.written = true;
      }
    } catch (error) {
      outcome.error = `cannot update: ${(error as Error).message}`;
    }
  }
  return outcomes;
}

function nearestManifest(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'package.json');
    if (existsSync(candidate) && !current.split(path.sep).includes('node_modules')) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}
