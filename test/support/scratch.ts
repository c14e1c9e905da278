// Files written into a test's own scratch folder, and the type facts of a run that must not
// need any.
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TypeFactsSource } from '../../src/transform.ts';
import { ROOT } from './fixtures.ts';

/** Writes `content` at `relative` under `dir` (folders made as needed); returns the file's path. */
export async function putFile(dir: string, relative: string, content: string | Uint8Array, mode?: number): Promise<string> {
  const file = path.join(dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  if (mode !== undefined) await chmod(file, mode);
  return file;
}

/**
 * A new folder of a test's own under this checkout's .tmp/ (git-ignored), where files resolve
 * the packages of its node_modules (the SDK, zod); the caller removes it.
 */
export function checkoutScratch(prefix: string): string {
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  return mkdtempSync(path.join(ROOT, '.tmp', prefix));
}

/**
 * A project's files twice, under this checkout's .tmp/ (so that the SDK and zod resolve from its
 * node_modules): as written in `original/`, and a copy to migrate in `migrated/`. Returns the
 * folder, which the caller removes.
 */
export async function originalAndCopy(prefix: string, files: Readonly<Record<string, string>>): Promise<string> {
  const dir = checkoutScratch(prefix);
  await writeOriginalAndCopy(dir, files);
  return dir;
}

/** The project's files in `dir/original/`, and a copy of them in `dir/migrated/`. */
export async function writeOriginalAndCopy(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [file, text] of Object.entries(files)) await putFile(path.join(dir, 'original'), file, text);
  cpSync(path.join(dir, 'original'), path.join(dir, 'migrated'), { recursive: true });
}

/** For a run over files that lift no local: it must never ask for type facts. */
export const noTypes: TypeFactsSource = {
  forFile: () => {
    throw new Error('type facts were not expected');
  },
};
