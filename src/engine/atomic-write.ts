// Replacing a file so that a crash or a full disk leaves either the old text or the new one,
// never half of each: write a temporary file next to the target (same file system, so the
// rename is atomic), flush it to disk, give it the original's mode, then rename it over.
import { randomBytes } from 'node:crypto';
import { chmod, chown, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** Mode for a file that does not exist yet (default 0o666 minus the umask). */
  mode?: number;
}

/**
 * Writes `data` to `file` atomically. An existing file keeps its permission bits (and, when
 * the process may set them, its owner and group). A symlink is written through: its target
 * is replaced and the link stays a link.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const target = await resolveTarget(file);
  const existing = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const mode = existing ? existing.mode & 0o7777 : options.mode;

  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.mrtr-tmp`);
  const handle = await open(temp, 'wx', mode ?? 0o666);
  let renamed = false;
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    // chown first: it clears the setuid and setgid bits, which chmod then sets back.
    if (existing) await chown(temp, existing.uid, existing.gid).catch(() => undefined);
    // open() applies the umask; chmod does not, so the copy gets exactly the original's bits.
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
    renamed = true;
    await syncDirectory(dir);
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    }
  }
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
