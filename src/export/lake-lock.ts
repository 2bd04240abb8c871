// One export at a time per lake: DIR/_docs_etl/lock, created with O_EXCL, holds the owner's pid and
// host. A lock whose process is gone or a zombie (same host; pidAlive in src/core/instance.ts, the
// one liveness test of every lock) is stale and taken over; so is one carrying our own pid but
// another process instance (a container restarted as PID 1 again).
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FatalError } from '../core/errors.js';
import { pidAlive } from '../core/instance.js';
import { isErrno } from './atomic-file.js';
import { META_DIR } from './lake-layout.js';

const LOCK_FILE = 'lock';

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  /** Tells this process apart from an earlier one that had the same pid. */
  instance: string;
}

/** Constant for the life of the process (not state): identifies locks this process created. */
const INSTANCE = randomUUID();

/** A lock file with no readable owner yet is only trusted this long (its writer may be between open and write). */
const UNREADABLE_GRACE_MS = 10_000;

export function acquireLakeLock(outDir: string, now: Date): () => void {
  const dir = join(outDir, META_DIR);
  const path = join(dir, LOCK_FILE);
  mkdirSync(dir, { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: now.toISOString(), instance: INSTANCE };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      return () => {
        // Only remove it while it is still ours (an operator may have removed and someone re-taken it).
        if (readOwner(path)?.instance === INSTANCE) rmSync(path, { force: true });
      };
    } catch (err) {
      if (!isErrno(err, 'EEXIST') || attempt > 0) {
        if (isErrno(err, 'EEXIST')) throw busy(outDir, readOwner(path));
        throw err;
      }
      const owner = readOwner(path);
      if (!isStale(path, owner, now)) throw busy(outDir, owner);
      rmSync(path, { force: true });
    }
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const o = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return null;
    return { pid: o.pid, host: o.host, startedAt: String(o.startedAt ?? ''), instance: String(o.instance ?? '') };
  } catch {
    return null;
  }
}

function isStale(path: string, owner: LockOwner | null, now: Date): boolean {
  if (!owner) {
    try {
      return now.getTime() - statSync(path).mtimeMs > UNREADABLE_GRACE_MS;
    } catch {
      return true;
    }
  }
  // Another host (a shared volume): its pid means nothing here; the operator removes the lock.
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return owner.instance !== INSTANCE;
  // Gone or a zombie (exited, not reaped yet): the same test as the warehouse's writer lock.
  return !pidAlive(owner.pid);
}

function busy(outDir: string, owner: LockOwner | null): FatalError {
  const who = owner ? ` (PID ${owner.pid} on ${owner.host}${owner.startedAt ? `, since ${owner.startedAt}` : ''})` : '';
  return new FatalError(
    `lake ${outDir} is being written by another export${who}; if none is running, remove ${join(outDir, META_DIR, LOCK_FILE)}`,
  );
}
