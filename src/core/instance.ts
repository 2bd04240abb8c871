// This process's identity in shared local state (the request log, download temp files), and
// whether the owner of such state still runs. A PID alone is not an identity: after a crash a new
// process may get the same PID (PID 1 again in a restarted container), so each process also has
// a random instance id, and state left by "our" PID under another instance is a dead process's.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** Random per process: fixed for its lifetime, never reused. */
export const INSTANCE = randomBytes(8).toString('hex');

export interface Owner {
  pid: number;
  /** Absent in state written by older versions. */
  instance?: string;
}

export function ownerAlive(o: Owner): boolean {
  if (o.instance === INSTANCE) return true;
  // Our PID but not our instance: a process before us had this PID and died.
  if (o.pid === process.pid) return false;
  return pidAlive(o.pid);
}

/**
 * Whether a process with this PID still runs here: the one liveness test of every lock and owner
 * record (writer lock, lake lock, request log, temp files). kill(pid, 0) answers ESRCH for a gone
 * process and EPERM for a live one of another user; a zombie (exited, not reaped) answers too but
 * holds nothing, so it counts as dead.
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

/**
 * A process that exited and was not reaped yet (state Z, or X) still answers kill(pid, 0): it holds
 * nothing any more, so a lock it left is stale. Linux /proc; elsewhere, false.
 */
export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}
