// After v1 files were upgraded: the package.json above them gets the v2 server package, and
// loses the v1 SDK once no file under it imports the SDK any more.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { discoverFiles, type DiscoverOptions } from './discover.ts';
import { updateManifest, zodRangeProblem } from './package-json.ts';
import { importedPackages, isV1Source } from './v1-upgrade.ts';
import type { ChangedFile } from './run.ts';

export interface ManifestOutcome {
  absolutePath: string;
  changed?: ChangedFile;
  /** Why the manifest could not be updated. */
  error?: string;
  /** Something to do by hand (a zod range the v2 SDK cannot use). */
  warning?: string;
}

/** Updates (or, without `write`, computes) the manifest above each upgraded file, given their final texts. */
export async function updateManifests(
  upgraded: ReadonlyArray<{ absolutePath: string; text: string }>,
  options: { cwd: string; write: boolean; discover?: DiscoverOptions },
): Promise<ManifestOutcome[]> {
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
      // Every source under the manifest counts, not only the migrated paths (tests, scripts).
      const { files: all } = await discoverFiles([path.dirname(manifest)], options.cwd, options.discover);
      const stillImportsV1 = all.some((f) => isV1Source(finalTexts.get(f) ?? safeRead(f)));
      const packages = [...new Set(files.flatMap((f) => importedPackages(f.text)))];
      const updated = updateManifest(text, { stillImportsV1, packages });
      outcome.warning = zodRangeProblem(updated);
      if (updated === text) continue;
      const relative = path.relative(options.cwd, manifest).split(path.sep).join('/');
      outcome.changed = { path: relative, absolutePath: manifest, original: text, output: updated, written: false };
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

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
