// Files written into a test's own scratch folder, and the type facts of a run that must not
// need any.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TypeFactsSource } from '../../src/transform.ts';

/** Writes `content` at `relative` under `dir` (folders made as needed); returns the file's path. */
export async function putFile(dir: string, relative: string, content: string | Uint8Array, mode?: number): Promise<string> {
  const file = path.join(dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  if (mode !== undefined) await chmod(file, mode);
  return file;
}

/** For a run over files that lift no local: it must never ask for type facts. */
export const noTypes: TypeFactsSource = {
  forFile: () => {
    throw new Error('type facts were not expected');
  },
};
