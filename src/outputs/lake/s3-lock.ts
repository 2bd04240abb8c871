// One export at a time per S3 lake: the object _docs_etl/lock holds the owner (pid, host, instance,
// start). Object storage has no exclusive create we can rely on across S3-compatible services, so
// the lock is advisory: written, then read back to see that this writer won. A lock is stale (taken
// over) when its process is gone (same host, pid not alive) or it is older than STALE_AFTER_MS (its
// exporter was killed on another host, e.g. a CronJob pod that moved). Rule (docs/lake.md): do not
// schedule two exporters to one lake at the same time; a second one started while the first runs
// fails with the owner, and the orphan sweep runs only under the lock.
import { hostname } from 'node:os';
import { FatalError } from '../../core/errors.js';
import { INSTANCE, ownerAlive } from '../../core/owner-lock.js';
import { LOCK_KEY } from './lake-layout.js';

interface Owner {
  pid: number;
  host: string;
  instance: string;
  startedAt: string;
  /** Renewed at each manifest checkpoint of the export (confirm): a long export's lock stays fresh. */
  renewedAt?: string;
}

export interface S3LockHandle {
  release(): Promise<void>;
  /**
   * Checks the lock is still this export's and renews it; throws a FatalError when another export
   * took it over (this one must then write no manifest and delete nothing).
   */
  confirm(now: Date): Promise<void>;
}

/** Longer than any export goes without a checkpoint (it renews the lock at each); an older lock is a killed exporter's. */
export const STALE_AFTER_MS = 3 * 3600_000;

interface LockIo {
  location: string;
  readText(key: string): Promise<string | null>;
  writeText(key: string, text: string): Promise<void>;
  deleteKey(key: string): Promise<void>;
}

/**
 * The instances of the locks this process holds now. A lock of this process that is not among
 * them was left by an earlier export of this same process whose release failed (`schedule`, after
 * a 403 or a deadline): it is taken over, not waited for until it is 3 hours old.
 */
const heldHere = new Set<string>();

export async function acquireS3Lock(io: LockIo, now: Date): Promise<S3LockHandle> {
  const current = parse(await io.readText(LOCK_KEY));
  if (current && !isStale(current, now)) throw busy(io.location, current);
  const me: Owner = { pid: process.pid, host: hostname(), instance: `${INSTANCE}-${now.getTime()}`, startedAt: now.toISOString() };
  await io.writeText(LOCK_KEY, JSON.stringify(me));
  const after = parse(await io.readText(LOCK_KEY));
  if (after?.instance !== me.instance) throw busy(io.location, after);
  heldHere.add(me.instance);
  return {
    release: async () => {
      heldHere.delete(me.instance);
      if (parse(await io.readText(LOCK_KEY))?.instance === me.instance) await io.deleteKey(LOCK_KEY);
    },
    confirm: async (at) => {
      const holder = parse(await io.readText(LOCK_KEY));
      if (holder?.instance !== me.instance) {
        const who = holder ? ` by PID ${holder.pid} on ${holder.host} since ${holder.startedAt}` : ' (its lock object is gone)';
        throw new FatalError(`lake ${io.location}: this export's lock was taken over${who}; stopping without writing the manifest or deleting anything`);
      }
      await io.writeText(LOCK_KEY, JSON.stringify({ ...me, renewedAt: at.toISOString() }));
    },
  };
}

function parse(text: string | null): Owner | null {
  if (text === null) return null;
  try {
    const o = JSON.parse(text) as Partial<Owner>;
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return null;
    return { pid: o.pid, host: o.host, instance: String(o.instance ?? ''), startedAt: String(o.startedAt ?? ''), renewedAt: o.renewedAt === undefined ? undefined : String(o.renewedAt) };
  } catch {
    return null;
  }
}

/** Stale: not renewed for STALE_AFTER_MS (on any host), its process is gone (the shared rule, core/owner-lock), or it is this process's leftover. */
function isStale(o: Owner, now: Date): boolean {
  if (o.instance.startsWith(`${INSTANCE}-`) && !heldHere.has(o.instance)) return true;
  const seenAt = Math.max(Date.parse(o.startedAt), o.renewedAt ? Date.parse(o.renewedAt) : -Infinity);
  return !ownerAlive(o, { now, seenAt, staleAfterMs: STALE_AFTER_MS });
}

function busy(location: string, o: Owner | null): FatalError {
  const who = o ? ` (PID ${o.pid} on ${o.host}, since ${o.startedAt})` : '';
  return new FatalError(`lake ${location} is being written by another export${who}; if none is running, delete ${location}/${LOCK_KEY}`);
}
