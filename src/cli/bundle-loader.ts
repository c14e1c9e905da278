// The command line bundled into one CommonJS file (scripts/bundle-cli.js), compiled with the V8
// code cache the build made beside it (scripts/code-cache.js): V8 then neither compiles the
// bundle nor, later in the run, the functions the cache holds (the parser's, the analysis's),
// which a cold `check` otherwise spends about a fifth of its CPU time on (bench/README.md).
// Node 22 has a compile cache of its own; Node 20 has none for modules.
//
// V8 accepts a cache for any source of the same length, so the cache file starts with the
// SHA-256 of the bundle it was made for: a bundle edited in place (a patch to an installed
// package) is compiled afresh. A cache this Node's V8 cannot use (another version, other
// flags) is rejected by V8 and the bundle compiled as usual.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

const DIGEST_BYTES = 32;

// A CommonJS module's wrapper (as Node's), with one more parameter: the bundle's dynamic
// imports go through it (scripts/bundle-cli.js), since code compiled by vm.Script cannot
// import() by itself (short of an experimental option of Node's).
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname, __mrtrImport) { ';
const WRAPPER_END = '\n});';

function importModule(specifier: string): Promise<unknown> {
  return import(specifier);
}

export interface LoadedBundle {
  exports: { cli(argv?: string[]): Promise<void> };
  /** Whether the code cache was used: `none` when there was none for this bundle. */
  cache: 'used' | 'rejected' | 'none';
  script: Script;
  /** The SHA-256 of the bundle's bytes. */
  digest: Buffer;
}

/** The code cache beside a bundle. */
export function cachePathOf(bundlePath: string): string {
  return bundlePath.replace(/\.cjs$/, '.cache');
}

/** Compiles and runs the bundle at `bundlePath` as a CommonJS module, with its code cache when there is a good one. */
export function loadBundle(bundlePath: string): LoadedBundle {
  const bytes = readFileSync(bundlePath);
  const digest = createHash('sha256').update(bytes).digest();
  const cachedData = cacheFor(cachePathOf(bundlePath), digest);
  const script = new Script(`${WRAPPER_START}${bytes.toString('utf8')}${WRAPPER_END}`, { filename: bundlePath, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as LoadedBundle['exports'] };
  const run = script.runInThisContext() as (...args: [object, NodeJS.Require, object, string, string, typeof importModule]) => void;
  run(module.exports, createRequire(bundlePath), module, bundlePath, path.dirname(bundlePath), importModule);
  return { exports: module.exports, cache: cachedData ? (script.cachedDataRejected ? 'rejected' : 'used') : 'none', script, digest };
}

/** What the cache file holds for a loaded bundle: its digest, then V8's data (with every function compiled so far). */
export function codeCacheOf(loaded: LoadedBundle): Buffer {
  return Buffer.concat([loaded.digest, loaded.script.createCachedData()]);
}

function cacheFor(cachePath: string, digest: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cachePath);
  } catch {
    return undefined;
  }
  return bytes.length > DIGEST_BYTES && bytes.subarray(0, DIGEST_BYTES).equals(digest) ? bytes.subarray(DIGEST_BYTES) : undefined;
}
