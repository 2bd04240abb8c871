// Writing a file atomically, the one way every writer does it (landing zone, lake, read snapshot,
// request log, report, values file, downloaded bundle): the bytes go to a temporary file in the
// target's directory, created exclusively (O_EXCL: never an existing file or a planted symlink),
// flushed (fsync), renamed over the target (atomic within one directory on POSIX file systems),
// and the directory is flushed so the rename itself survives a power loss. A reader, a crash or a
// SIGKILL therefore sees the old file whole or the new file whole, never part of one; a temporary
// file left by a killed writer is the caller's to sweep (each names its temporaries so it can).
//
// Not `write-file-atomic`: it neither flushes the directory nor creates its temporary exclusively,
// and its temporary names (`file.<hash>`) are not the ones the sweeps of leftovers recognise.
import { randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface AtomicWriteOptions {
  /** Permission bits of the new file (before the umask); default 0o666. */
  mode?: number;
  /** The temporary path, in the target's directory; default `.NAME.<12 hex>.tmp` beside the target. */
  temp?: string;
}

/** The default temporary name beside `path`: hidden, random, ending in `.tmp`. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Writes `data` to `path` atomically and durably (see above). The directory must exist. */
export function writeFileAtomicSync(path: string, data: string | Buffer, opts: AtomicWriteOptions = {}): void {
  const tmp = opts.temp ?? tempPathFor(path);
  const fd = openSync(tmp, 'wx', opts.mode ?? 0o666);
  try {
    // write(2) may write less than asked (a full disk, a file size limit): every byte or an error.
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < buf.length;) {
      const n = writeSync(fd, buf, off, buf.length - off);
      if (n <= 0) throw new Error(`short write: ${off} of ${buf.length} bytes of ${path} written`);
      off += n;
    }
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  commitFile(tmp, path, { flushed: true });
}

/** The same for text, bytes or a stream of bytes (a download), without blocking the event loop on the writes. */
export async function writeFileAtomic(path: string, data: string | Buffer | Readable, opts: AtomicWriteOptions = {}): Promise<void> {
  if (typeof data === 'string' || Buffer.isBuffer(data)) {
    writeFileAtomicSync(path, data, opts);
    return;
  }
  const tmp = opts.temp ?? tempPathFor(path);
  try {
    await pipeline(data, createWriteStream(tmp, { flags: 'wx', mode: opts.mode ?? 0o666 }));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  commitFile(tmp, path);
}

/**
 * Gives a finished temporary file (written by someone else: DuckDB's COPY, a copy of the warehouse,
 * a checked download) its final name: flush it, rename it over `final`, flush the directory. On a
 * failure before the rename the temporary file is removed and the old `final` is untouched.
 */
export function commitFile(tmp: string, final: string, o: { flushed?: boolean } = {}): void {
  try {
    if (!o.flushed) fsyncPath(tmp);
    renameSync(tmp, final);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncPath(dirname(final));
}

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

export function isErrno(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes(String((err as NodeJS.ErrnoException).code));
}

/**
 * Writes a file durably for its owner only (a landed page, a repaired one): its folder created
 * first, then writeFileAtomicSync (temp file with a random name, O_EXCL: never follows a planted
 * symlink; fsync, rename, fsync of the folder), mode 0o600.
 */
export function writeDurably(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, data, { mode: 0o600 });
}
