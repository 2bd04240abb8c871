// One export at a time per lake: DIR/_docs_etl/lock, created with O_EXCL, holds the owner's pid and
// host (core/owner-lock.ts: the one lock file and liveness rule of every lock). A lock whose process
// is gone or a zombie (same host) is stale and taken over; so is one carrying our own pid but
// another process instance (a container restarted as PID 1 again).
import { join } from 'node:path';
import { FatalError } from '../../core/errors.js';
import { currentOwner, takeLockFile, type Owner } from '../../core/owner-lock.js';
import { META_DIR } from './lake-layout.js';

const LOCK_FILE = 'lock';

/** The lock file's format (names kept: read by older and newer versions alike). */
interface LockOwner extends Owner {
  pid: number;
  host: string;
  startedAt: string;
  /** Tells this process apart from an earlier one that had the same pid. */
  instance: string;
}

/** A lock file with no readable owner yet is only trusted this long (its writer may be between open and write). */
const UNREADABLE_GRACE_MS = 10_000;

export function acquireLakeLock(outDir: string, now: Date): () => void {
  const me: LockOwner = { ...currentOwner(), startedAt: now.toISOString() };
  const lock = takeLockFile<LockOwner>({
    path: join(outDir, META_DIR, LOCK_FILE),
    text: JSON.stringify(me),
    parse: readOwner,
    unreadableGrace: { ms: UNREADABLE_GRACE_MS, now },
    busy: (owner) => busy(outDir, owner),
  });
  return () => lock.release();
}

function readOwner(text: string): LockOwner | null {
  const o = JSON.parse(text) as Partial<LockOwner>;
  if (typeof o.pid !== 'number' || typeof o.host !== 'string') return null;
  return {
    pid: o.pid, host: o.host, startedAt: String(o.startedAt ?? ''), instance: String(o.instance ?? ''),
    procStart: typeof o.procStart === 'string' ? o.procStart : null,
  };
}

function busy(outDir: string, owner: LockOwner | null): FatalError {
  const who = owner ? ` (PID ${owner.pid} on ${owner.host}${owner.startedAt ? `, since ${owner.startedAt}` : ''})` : '';
  return new FatalError(
    `lake ${outDir} is being written by another export${who}; if none is running, remove ${join(outDir, META_DIR, LOCK_FILE)}`,
  );
}
