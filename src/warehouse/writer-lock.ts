// One docs-etl writer per warehouse, announced in a lock file beside it (warehouse.duckdb.lock):
// who holds it (PID, when it started, what it runs). DuckDB's own file lock also stops any other
// program; this one lets the message tell a second docs-etl sync from a notebook or a BI tool
// holding the file (issue 11). A lock left by a process that died (or whose PID was reused, as PID 1
// is in a container after a restart) is taken over.
import type { Clock } from '../core/clock.js';
import { readFileSync } from 'node:fs';
import { FatalError, messageOf } from '../core/errors.js';
import { currentOwner, ownerAlive, readLockFile, takeLockFile, type Owner } from '../core/owner-lock.js';

/** The lock file's format (read by older and newer versions alike: names kept). */
interface LockInfo {
  pid: number;
  host: string;
  started_at: string;
  /** The process's start time in clock ticks since boot (/proc), so a reused PID is told apart. */
  proc_start: string | null;
  instance: string;
  command: string;
}

type Held = LockInfo & Owner;

export interface WriterLock {
  path: string;
  release(): void;
}

export function acquireWriterLock(warehouse: string, command: string, now: Date): WriterLock {
  const path = `${warehouse}.lock`;
  const me = currentOwner();
  const info: LockInfo = { pid: me.pid, host: me.host, started_at: now.toISOString(), proc_start: me.procStart, instance: me.instance, command };
  return takeLockFile<Held>({
    path,
    text: JSON.stringify(info),
    parse: parseLock,
    attempts: 3,
    busy: (held) => held && ownerAlive(held)
      ? new FatalError(
        `warehouse ${warehouse} is being written by another docs-etl process (PID ${held.pid}, started ${held.started_at}: ${held.command}); only one writer at a time`,
      )
      : new FatalError(`cannot take the writer lock ${path}: it keeps coming back; remove it if no docs-etl process runs`),
    ioError: (err, what) => what === 'create'
      ? new FatalError(`cannot create the writer lock ${path}: ${err.code ?? messageOf(err)}`)
      : unreadable(path, err),
  });
}

/** The writer lock, waiting up to `waitMs` while another docs-etl process holds it (polling the lock file). */
export async function waitForWriterLock(warehouse: string, command: string, clock: Clock, waitMs: number): Promise<WriterLock> {
  for (let waited = 0; ; waited += 500) {
    try {
      return acquireWriterLock(warehouse, command, clock.now());
    } catch (err) {
      if (waited >= waitMs || !writerLockHolder(warehouse)) throw err;
      await clock.sleep(500);
    }
  }
}

/** Who holds a warehouse's writer lock, if anyone alive does (for status and doctor). */
export function writerLockHolder(warehouse: string): { pid: number; startedAt: string; command: string } | null {
  const path = `${warehouse}.lock`;
  const held = readLockFile(path, parseLock, (err) => unreadable(path, err));
  return held && ownerAlive(held) ? { pid: held.pid, startedAt: held.started_at, command: held.command } : null;
}

function unreadable(path: string, err: NodeJS.ErrnoException): FatalError {
  return new FatalError(`the writer lock ${path} cannot be read (${err.code ?? messageOf(err)}): remove it if no docs-etl process runs`);
}

/** A lock file's owner; null when half-written by a process killed while taking it (stale). */
function parseLock(text: string): Held | null {
  const x = JSON.parse(text) as LockInfo;
  return typeof x.pid === 'number' ? { ...x, procStart: x.proc_start } : null;
}

/** The command line of another process (for "held by another program"), or null. */
export function commandLineOf(pid: number): string | null {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter(Boolean).join(' ').replace(/\s+/g, ' ').slice(0, 200) || null;
  } catch {
    return null;
  }
}
