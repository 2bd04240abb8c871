// Publishing files atomically: a file is complete and flushed to disk under its temporary name
// before a rename (atomic within one directory on POSIX file systems) gives it its final name.
// So a reader, a crash or a SIGKILL never leaves a partial file under a final name.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tempName } from './lake-layout.js';

/** Flushes a file's (or a directory's) contents to disk. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } catch (err) {
    // Some file systems (and Windows for directories) refuse fsync on a read-only handle: best effort.
    if (!isErrno(err, 'EINVAL', 'EPERM', 'EISDIR', 'EBADF')) throw err;
  } finally {
    closeSync(fd);
  }
}

/** Flushes `tmp`, then renames it over `final` (replacing the old version in one step). */
export function publish(tmp: string, final: string): void {
  fsyncPath(tmp);
  renameSync(tmp, final);
}

/** Writes text to `path` through a temporary file in the same directory; the directory is flushed too. */
export function writeFileAtomic(path: string, text: string, token: string): void {
  const tmp = join(dirname(path), tempName(basename(path), token));
  try {
    writeFileSync(tmp, text, { flush: true });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncPath(dirname(path));
}

export function isErrno(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes(String((err as NodeJS.ErrnoException).code));
}
