// Who owns a piece of shared local state, whether that owner still runs, and the lock file that
// names it: the one mechanism behind the warehouse's writer lock (warehouse/writer-lock.ts), the local
// lake's lock (export/lake-lock.ts), the S3 lake's lock object (export/s3-lock.ts: its own
// write-then-read-back protocol, this owner rule), request-log entries and download temp files.
//
// An owner is a PID on a host plus a random per-process INSTANCE: a PID alone is not an identity,
// as a process started after a crash may get the same PID (PID 1 again in a restarted container).
// The liveness rule (ownerAlive):
//   - older than `staleAfterMs` since it was last renewed (where the lock has such a rule): dead;
//   - on another host (a shared disk): alive; its PID means nothing here, it is never taken over
//     silently (the operator removes it, or the age rule above ends it);
//   - this process's INSTANCE: alive; this PID under another instance: a dead predecessor's;
//   - otherwise alive while kill(pid, 0) answers and the process is no zombie, and (when the record
//     has the process's start time from /proc) it is the same process, not a reused PID.
// Lock files are created with O_EXCL (take), removed only by their owner (release), and a stale one
// is removed and taken over. Not proper-lockfile (used by the request log, for its short critical
// sections): its staleness is a modification time that a holder must keep touching, so a process
// suspended or busy in a long merge would lose its lock, and its lock directory has no owner to
// name in "held by PID …" or to show in `status`.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/** Random per process: fixed for its lifetime, never reused. */
export const INSTANCE = randomBytes(8).toString('hex');

export interface Owner {
  pid: number;
  /** Absent for records that are local by nature (request-log entries, temp file names). */
  host?: string;
  /** This process's INSTANCE, or INSTANCE-suffix (absent in state written by older versions). */
  instance?: string;
  /** The process's start time in clock ticks since boot (/proc), so a reused PID is told apart. */
  procStart?: string | null;
}

/** The age rule of locks that are renewed (a holder on another host can only be judged by age). */
export interface AgeRule {
  now: Date;
  /** When the owner last showed it was alive (took or renewed the lock), ms since the epoch. */
  seenAt: number;
  staleAfterMs: number;
}

/** This process as an owner. */
export function currentOwner(): Required<Owner> {
  return { pid: process.pid, host: hostname(), instance: INSTANCE, procStart: procStart(process.pid) };
}

/** The one liveness rule (see the top of this file). */
export function ownerAlive(o: Owner, age?: AgeRule): boolean {
  if (age && !(age.now.getTime() - age.seenAt <= age.staleAfterMs)) return false; // also an unreadable time
  if (o.host !== undefined && o.host !== hostname()) return true;
  if (o.instance !== undefined && (o.instance === INSTANCE || o.instance.startsWith(`${INSTANCE}-`))) return true;
  // Our PID but not our instance: a process before us had this PID and died.
  if (o.pid === process.pid) return false;
  if (!pidAlive(o.pid)) return false;
  const start = o.procStart ? procStart(o.pid) : null;
  return start === null || start === o.procStart;
}

/**
 * Whether a process with this PID still runs here. kill(pid, 0) answers ESRCH for a gone process
 * and EPERM for a live one of another user; a zombie (exited, not reaped) answers too but holds
 * nothing, so it counts as dead.
 */
export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** A process that exited and was not reaped yet (state Z, or X). Linux /proc; elsewhere, false. */
export function isZombie(pid: number): boolean {
  const state = statField(pid, 0);
  return state === 'Z' || state === 'X';
}

/** The start time of a process (clock ticks since boot, /proc/PID/stat field 22), or null. */
export function procStart(pid: number): string | null {
  return statField(pid, 19);
}

/** A field of /proc/PID/stat after the command name (0: the state). */
function statField(pid: number, index: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[index] ?? null;
  } catch {
    return null;
  }
}

export interface LockFileSpec<T extends Owner> {
  path: string;
  /** What the lock file says (this process's owner record, in the lock's own format). */
  text: string;
  /** Reads a lock file's text; null when it is not a readable owner record (half-written: stale). */
  parse(text: string): T | null;
  /** Whether the owner of a readable lock still holds it (default: ownerAlive). */
  alive?(held: T): boolean;
  /**
   * An unreadable lock younger than this (by its modification time against `now`) is trusted: its
   * writer may be between creating it and writing its owner. Default: none (taken over at once).
   */
  unreadableGrace?: { ms: number; now: Date };
  /** How many times to try (each removes a stale lock found); default 2. */
  attempts?: number;
  /** The error for a lock held by a live owner (or one that keeps coming back: `held` may be null). */
  busy(held: T | null): Error;
  /** The error for a lock that cannot be created or read (other than "it exists"); default: the error itself. */
  ioError?(err: NodeJS.ErrnoException, what: 'create' | 'read'): Error;
}

export interface HeldLockFile {
  path: string;
  /** Removes the lock file while it is still this process's (an operator may have removed it and another taken it). */
  release(): void;
}

/** Takes a lock file: created exclusively; a stale one (dead owner) is removed and taken over. */
export function takeLockFile<T extends Owner>(spec: LockFileSpec<T>): HeldLockFile {
  const { path } = spec;
  mkdirSync(dirname(path), { recursive: true });
  const attempts = spec.attempts ?? 2;
  let held: T | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(spec, err, 'create');
      held = readLockFile(path, spec.parse, spec.ioError);
      if (!isStale(spec, held)) throw spec.busy(held);
      rmSync(path, { force: true });
      continue;
    }
    try {
      writeSync(fd, spec.text);
    } finally {
      closeSync(fd);
    }
    return {
      path,
      release: () => {
        const cur = readLockFile(path, spec.parse);
        if (cur?.instance === INSTANCE) rmSync(path, { force: true });
      },
    };
  }
  throw spec.busy(held);
}

/** The owner a lock file names; null when there is none or it is unreadable. */
export function readLockFile<T>(path: string, parse: (text: string) => T | null, onError?: LockFileSpec<Owner>['ioError']): T | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || !onError) return null;
    throw onError(err as NodeJS.ErrnoException, 'read');
  }
  try {
    return parse(text);
  } catch {
    return null;
  }
}

function isStale<T extends Owner>(spec: LockFileSpec<T>, held: T | null): boolean {
  if (held) return !(spec.alive ?? ownerAlive)(held);
  if (!spec.unreadableGrace) return true;
  try {
    return spec.unreadableGrace.now.getTime() - statSync(spec.path).mtimeMs > spec.unreadableGrace.ms;
  } catch {
    return true;
  }
}

function ioError<T extends Owner>(spec: LockFileSpec<T>, err: unknown, what: 'create' | 'read'): unknown {
  return spec.ioError ? spec.ioError(err as NodeJS.ErrnoException, what) : err;
}
