// The scaffold of an e2e test of a migrated project: the project as written in `original/` and
// migrated by the engine in `migrated/`, the request-state key its migrated server signs with
// set while the file's tests run (and restored after), and the two trees read and loaded.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { runCodemod, type RunResult, type RunSettings } from '../../src/engine/run.ts';
import { checkoutScratch, writeOriginalAndCopy } from './scratch.ts';
import { typecheck } from './typecheck.ts';

export type Tree = 'original' | 'migrated';

export interface MigratedPair<M> {
  /** The folder holding `original/` and `migrated/` (made at once; filled before the tests). */
  readonly root: string;
  /** The engine's result for the migrated tree (once the file's tests run). */
  readonly result: RunResult;
  read(tree: Tree, file: string): Promise<string>;
  /** A module of a tree, imported (the server by default). */
  load<T = M>(tree: Tree, file?: string): Promise<T>;
  /** The type errors of `files` in each tree (the migrated one with its request-state module), and what a second run reports. */
  settled(files: readonly string[]): Promise<{ original: string[]; migrated: string[]; errors: unknown[]; changed: unknown[] }>;
}

/**
 * The pair for this test file: call it at the file's top level, where it registers the
 * beforeAll that writes and migrates the project (`paths: ['src']`, written, with `run`'s
 * options) and the afterAll that puts the key back and removes the folder.
 */
export function migratedPair<M = unknown>(prefix: string, files: Readonly<Record<string, string>>, run: Partial<RunSettings> = {}): MigratedPair<M> {
  const root = checkoutScratch(prefix);
  const savedKey = process.env.MCP_REQUEST_STATE_KEY;
  let result: RunResult | undefined;
  beforeAll(async () => {
    process.env.MCP_REQUEST_STATE_KEY = `${prefix}test-key-0123456789abcdef0123456789`;
    await writeOriginalAndCopy(root, files);
    result = await runCodemod({ paths: ['src'], write: true, cwd: path.join(root, 'migrated'), ...run });
  }, 120_000);
  afterAll(async () => {
    if (savedKey === undefined) delete process.env.MCP_REQUEST_STATE_KEY;
    else process.env.MCP_REQUEST_STATE_KEY = savedKey;
    await rm(root, { recursive: true, force: true });
  });
  return {
    root,
    get result() {
      return result!;
    },
    read: (tree, file) => readFile(path.join(root, tree, file), 'utf8'),
    load: async <T = M>(tree: Tree, file = 'src/server.ts') => (await import(pathToFileURL(path.join(root, tree, file)).href)) as T,
    settled: async (files) => {
      const paths = (tree: Tree) => files.map((f) => path.join(root, tree, f));
      const again = await runCodemod({ paths: ['src'], write: false, cwd: path.join(root, 'migrated') });
      return {
        original: typecheck(paths('original')),
        migrated: typecheck([...paths('migrated'), path.join(root, 'migrated', 'src/mrtr-request-state.ts')]),
        errors: again.errors,
        changed: again.changed,
      };
    },
  };
}
