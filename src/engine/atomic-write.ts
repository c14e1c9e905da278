// Replacing a file so that a crash or a full disk leaves either the old text or the new one,
// never half of each: write a temporary file next to the target (same file system, so the
// rename is atomic), flush it to disk, give it the original's mode, then rename it over.
//
// Two kinds of target:
// - a source file (writeFileAtomic): found by discovery inside the root, written through a link
//   that stays inside it, and only if it still holds what the run read (`expected`, compared
//   just before the rename: an edit made while the run was busy is never overwritten); a file
//   of the run's own (the request-state module) is never written through a link (`noLink`),
//   and a new one never replaces a file made meanwhile (`absent`);
// - an output the user named (reserveFile: --patch, --report): its temporary file is made
//   before the run touches any source, so a path that cannot be written fails first; it is
//   never written through a symbolic link.
//
// The temporary file's name carries the process id: a run killed before it could clean up
// (SIGKILL) leaves one, which the next run recognises (staleTempFile) and removes.
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { access, chmod, chown, constants, lstat, open, readFile, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { processIsAlive, whenInterrupted } from './interrupt-cleanup.ts';
import { isInside } from './source-files.ts';

export interface AtomicWriteOptions {
  /** Mode for a file that does not exist yet (default 0o666 minus the umask). */
  mode?: number;
  /**
   * The bytes the file must still hold just before it is replaced. When it holds anything else
   * (or is gone), nothing is written and a ChangedOnDiskError is thrown.
   */
  expected?: Uint8Array;
  /** The file must not exist just before it is written (a new file): when one does, a ChangedOnDiskError is thrown. */
  absent?: boolean;
  /** Never write through a symbolic link: a file that is one (or becomes one before the rename) throws an OutputPathError. */
  noLink?: boolean;
}

/** The file was edited (or removed) by someone else between the run's read and its write. */
export class ChangedOnDiskError extends Error {
  override name = 'ChangedOnDiskError';
}

/** Why an output file cannot be written; found before anything is written. `cause`: the file system's error, if any. */
export class OutputPathError extends Error {
  override name = 'OutputPathError';
}

const TEMP_SUFFIX = '.mrtr-tmp';
/** `.<name>.<pid>.<12 hex>.mrtr-tmp`: the name as the run makes it. */
const TEMP_NAME = /^\.(.*)\.(\d+)\.[0-9a-f]{12}\.mrtr-tmp$/s;
/** Room left for the target's name in a temporary file's name (most file systems allow 255 bytes). */
const MAX_NAME_BYTES = 255 - '..4194304.0123456789ab.mrtr-tmp'.length;

/**
 * Writes `data` to `file` atomically. An existing file keeps its permission bits (and, when
 * the process may set them, its owner and group). A symlink is written through: its target
 * is replaced and the link stays a link.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  if (options.noLink && (await isLink(file))) throw new OutputPathError('is a symbolic link; it is not written through');
  const target = await resolveTarget(file);
  const existing = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const mode = existing ? existing.mode & 0o7777 : options.mode;
  const temp = await TempFile.open(target, mode ?? 0o666);
  await temp.replace(target, data, existing, mode, async () => {
    if (options.expected && !(await holds(target, options.expected))) {
      throw new ChangedOnDiskError('the file changed on disk during the run');
    }
    if (options.absent && (await lstat(target).catch(() => undefined))) throw new ChangedOnDiskError('a file was made at this path during the run');
    if (options.noLink && (await isLink(target))) throw new OutputPathError('became a symbolic link during the run; not written through it');
  });
}

/** Why a file must not be rewritten without being asked to (its mode says so), or undefined when it may be. */
export async function readOnlyReason(file: string): Promise<string | undefined> {
  const info = await stat(file);
  if ((info.mode & 0o222) === 0) return 'read-only file (no write permission bit)';
  try {
    await access(file, constants.W_OK);
  } catch {
    return 'read-only file (no write permission for this user)';
  }
  return undefined;
}

/** An output file reserved before the run: its temporary file exists, ready to be filled. */
export interface ReservedFile {
  /** Writes `data` into place (never through a link); at most once. */
  write(data: string | Uint8Array): Promise<void>;
  /** Removes the temporary file when nothing was written (safe to call in any case). */
  discard(): Promise<void>;
}

/** Which existing files an output may replace: an empty one, or one whose text `is` says is an earlier output of its kind. */
export interface Replaceable {
  /** What the output is, for the refusal: `a patch mrtr-codemod wrote`. */
  what: string;
  is(text: string): boolean;
}

/**
 * Reserves `file` (absolute) for writing at the end of a run: a file that is a symbolic link, a
 * directory or read-only, a folder that does not exist or cannot be written, and (for a path
 * inside `within`) a folder that a link leads out of `within`, throw an OutputPathError now; so
 * does an existing file that is not empty nor `replaces` (checked again just before the rename).
 */
export async function reserveFile(file: string, within: string, replaces?: Replaceable): Promise<ReservedFile> {
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    // ENOENT: a new file. Anything else (a name too long, a folder that is a file) says it cannot be.
    if (error.code === 'ENOENT') return undefined;
    throw new OutputPathError('cannot be written', { cause: error });
  });
  if (info?.isSymbolicLink()) throw new OutputPathError('is a symbolic link; it is not written through (remove the link or name another file)');
  if (info?.isDirectory()) throw new OutputPathError('is a directory');
  if (info && !info.isFile()) throw new OutputPathError('is not a regular file');
  if (info && (info.mode & 0o222) === 0) throw new OutputPathError('is a read-only file');
  if (info && replaces && !(await replaceable(file, replaces)))
    throw new OutputPathError(`exists and is not ${replaces.what}; it is not overwritten (remove it or name another file)`);
  let dir: string;
  try {
    dir = await realpath(path.dirname(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OutputPathError(code === 'ENOTDIR' ? 'its parent is not a directory' : 'its folder does not exist');
  }
  if (isInside(within, file) && !isInside(await realpath(within).catch(() => within), dir)) {
    throw new OutputPathError('its folder leads out of the current directory through a symbolic link');
  }
  const target = path.join(dir, path.basename(file));
  let temp: TempFile;
  try {
    temp = await TempFile.open(target, 0o666);
  } catch (error) {
    throw new OutputPathError('cannot be written', { cause: error });
  }
  let used = false;
  return {
    async write(data) {
      if (used) throw new Error('a reserved file is written once');
      used = true;
      const existing = await lstat(target).catch(() => undefined);
      await temp.replace(target, data, existing?.isFile() ? existing : undefined, existing?.isFile() ? existing.mode & 0o7777 : undefined, async () => {
        const now = await lstat(target).catch(() => undefined);
        if (now?.isSymbolicLink()) throw new OutputPathError('became a symbolic link during the run; not written through it');
        if (now && replaces && !(await replaceable(target, replaces)))
          throw new OutputPathError(`was made during the run and is not ${replaces.what}; it is not overwritten`);
      });
    },
    async discard() {
      if (used) return;
      used = true;
      await temp.remove();
    },
  };
}

/** Whether the file at `file` may be replaced: empty, or an earlier output of its kind. */
async function replaceable(file: string, replaces: Replaceable): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text !== undefined && (text === '' || replaces.is(text));
}

/**
 * Whether a directory entry named `name` is a temporary file of a run that is gone (killed
 * before it could clean up): made by this program, by a process that no longer runs.
 */
export function staleTempFile(name: string): boolean {
  const pid = tempFileProcess(name);
  return pid !== undefined && !processIsAlive(pid);
}

/** Whether a directory entry named `name` is a temporary file of this process (a reserved output, a write under way). */
export function ownTempFile(name: string): boolean {
  return tempFileProcess(name) === process.pid;
}

function tempFileProcess(name: string): number | undefined {
  if (!name.endsWith(TEMP_SUFFIX)) return undefined;
  const match = TEMP_NAME.exec(name);
  return match ? Number(match[2]) : undefined;
}

/** Removes those of `files` that are still stale temporary files; returns the ones removed. */
export async function removeStaleTempFiles(files: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const file of files) {
    if (!staleTempFile(path.basename(file))) continue;
    try {
      await unlink(file);
      removed.push(file);
    } catch {
      // Gone already, or not ours to remove: left for the guard (git status) to show.
    }
  }
  return removed;
}

/** A temporary file beside its target, removed if the process is interrupted before the rename. */
class TempFile {
  private done = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly forget: () => void,
  ) {}

  static async open(target: string, mode: number): Promise<TempFile> {
    const temp = path.join(path.dirname(target), tempName(path.basename(target)));
    // Registered before the file exists: a signal handled between the open's creating it and its
    // callback must still find it to remove (a name not there yet is skipped).
    const forget = whenInterrupted(() => unlinkSync(temp));
    try {
      return new TempFile(temp, await open(temp, 'wx', mode), forget);
    } catch (error) {
      forget();
      throw error;
    }
  }

  /**
   * Fills the file, flushes it, gives it `existing`'s owner and `mode`, runs `check` (which may
   * throw to stop the write) and renames it over `target`. On any failure it is removed.
   */
  async replace(
    target: string,
    data: string | Uint8Array,
    existing: { uid: number; gid: number } | undefined,
    mode: number | undefined,
    check: () => Promise<void>,
  ): Promise<void> {
    try {
      await this.handle.writeFile(data);
      await this.handle.sync();
      await this.handle.close();
      // chown first: it clears the setuid and setgid bits, which chmod then sets back.
      if (existing) await chown(this.path, existing.uid, existing.gid).catch(() => undefined);
      // open() applies the umask; chmod does not, so the copy gets exactly the original's bits.
      if (mode !== undefined) await chmod(this.path, mode);
      // Last, so that nothing slow comes between the check and the rename.
      await check();
      await rename(this.path, target);
      this.done = true;
      this.forget();
    } finally {
      if (!this.done) await this.remove();
    }
    await syncDirectory(path.dirname(target));
  }

  async remove(): Promise<void> {
    this.done = true;
    this.forget();
    await this.handle.close().catch(() => undefined);
    await unlink(this.path).catch(() => undefined);
  }
}

/** `.<name>.<pid>.<random>.mrtr-tmp`, the name cut so the whole stays within 255 bytes. */
function tempName(base: string): string {
  let name = base;
  while (Buffer.byteLength(name) > MAX_NAME_BYTES) name = name.slice(0, -1);
  return `.${name}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
}

async function isLink(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => undefined))?.isSymbolicLink() === true;
}

async function holds(file: string, expected: Uint8Array): Promise<boolean> {
  const now = await readFile(file).catch(() => undefined);
  return now !== undefined && now.equals(expected);
}

async function resolveTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path.resolve(file);
    throw error;
  }
}

/** Makes the rename itself durable. Not every platform can open a directory: best effort. */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows and some file systems refuse; the rename has happened either way.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
