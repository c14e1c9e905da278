// The legacy requests in a vendored folder the walk passes over (`vendor/`, `third_party/`):
// somebody else's code, never migrated, but counted, so that the note on the folder says what
// a CI lint would otherwise pass over in silence. Cheap: only files that pass the prefilter
// are parsed, and their requests found as in a file the run takes (no plan, no types).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { analyseFile } from '../analyse/analyse-file.ts';
import { PREFILTER } from '../analyse/sdk-surface.ts';
import { isSourceFile, SKIPPED_DIRECTORIES } from './discover.ts';
import { readSource } from './source-files.ts';

/** How many legacy request sites the source files below `folder` hold (links not followed, too large or unreadable files left out). */
export function vendoredRequests(folder: string, maxFileBytes: number): number {
  let sites = 0;
  for (const file of sourceFilesBelow(folder)) {
    const read = readSource(file, (bytes) => bytes.length <= maxFileBytes);
    if (!read || !PREFILTER.test(read.source)) continue;
    try {
      const analysis = analyseFile(read.source, file);
      sites += analysis.sites.length + analysis.urlThrows.length;
    } catch {
      // A file that does not parse is not counted: nothing is migrated here either way.
    }
  }
  return sites;
}

function sourceFilesBelow(folder: string): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) visit(full);
      else if (entry.isFile() && isSourceFile(entry.name)) files.push(full);
    }
  };
  visit(folder);
  return files;
}
