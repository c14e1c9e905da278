// Source files as the engine reads them (bytes, then strict UTF-8 text) and names them in
// reports (relative to the run's directory, with `/`). Shared by the run and the manifest
// update, so both read a file the same way.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';

/**
 * A source file's bytes and text, or undefined when it cannot be read or is not UTF-8 text
 * (the main pass reports why), or when `wanted` turns its bytes down (then it is not decoded).
 */
export function readSource(absolutePath: string, wanted?: (bytes: Buffer) => boolean): { bytes: Buffer; source: string } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolutePath);
  } catch {
    return undefined;
  }
  if (wanted && !wanted(bytes)) return undefined;
  const source = decodeSource(bytes);
  return typeof source === 'string' ? { bytes, source } : undefined;
}

/**
 * Reads files one after another into one buffer: a pass over every file of a run drops most of
 * them once read, and a buffer for each was work for the collector. Read to its end rather
 * than by its size: a file's stat costs as much as its read.
 */
export class FileReader {
  private buffer = Buffer.alloc(64 * 1024);

  /**
   * The file's bytes, valid until the next read (copy what is kept); undefined when they are
   * more than `maxBytes`. Throws what readFileSync throws.
   */
  read(absolutePath: string, maxBytes = Infinity): Buffer | undefined {
    const fd = openSync(absolutePath, 'r');
    try {
      let length = 0;
      for (;;) {
        if (length === this.buffer.length) this.buffer = Buffer.concat([this.buffer], this.buffer.length * 2);
        const n = readSync(fd, this.buffer, length, this.buffer.length - length, length);
        if (n === 0) break;
        length += n;
        if (length > maxBytes) return undefined;
      }
      const bytes = this.buffer.subarray(0, length);
      // A buffer grown for a large file is not held for the rest of the pass.
      if (this.buffer.length > LARGE_READ) this.buffer = Buffer.alloc(64 * 1024);
      return bytes;
    } finally {
      closeSync(fd);
    }
  }
}

const LARGE_READ = 4 * 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of a source file, or why it is not one (binary, or not UTF-8). A BOM is kept. */
export function decodeSource(bytes: Uint8Array): string | { problem: string } {
  if (bytes.includes(0)) return { problem: 'binary file (contains NUL bytes); skipped' };
  try {
    return UTF8.decode(bytes);
  } catch {
    return { problem: 'not valid UTF-8; skipped (convert the file to UTF-8 to migrate it)' };
  }
}

/** Whether `candidate` is `root` or lies below it (both absolute; compared as written, not resolved). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

export function displayPath(cwd: string, absolutePath: string): string {
  // The common case, a file under cwd, without path.relative (which resolves both paths: a
  // tenth of a second on 10,000 files, done for each).
  const prefix = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  const under =
    path.isAbsolute(absolutePath) &&
    absolutePath.startsWith(prefix) &&
    !absolutePath.includes(`${path.sep}..`) &&
    !absolutePath.includes(`${path.sep}.${path.sep}`) &&
    !absolutePath.includes(path.sep + path.sep);
  const relative = (under ? absolutePath.slice(prefix.length) : path.relative(cwd, absolutePath)) || path.basename(absolutePath);
  return relative.split(path.sep).join('/');
}
