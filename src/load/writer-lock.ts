// One docs-etl writer per warehouse, announced in a lock file beside it (warehouse.duckdb.lock):
// who holds it (PID, when it started, what it runs). DuckDB's own file lock also stops any other
// program; this one lets the message tell a second docs-etl sync from a notebook or a BI tool
// holding the file (issue 11). A lock left by a process that died (or whose PID was reused, as PID 1
// is in a container after a restart) is taken over.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import type { Clock } from '../core/clock.js';
import { FatalError, messageOf } from '../core/errors.js';
import { pidAlive } from '../core/instance.js';

interface LockInfo {
  pid: number;
  host: string;
  started_at: string;
  /** The process's start time in clock ticks since boot (/proc), so a reused PID is told apart. */
  proc_start: string | null;
  instance: string;
  command: string;
}

export interface WriterLock {
  path: string;
  release(): void;
}

const INSTANCE = randomBytes(8).toString('hex');

export function acquireWriterLock(warehouse: string, command: string, now: Date): WriterLock {
  const path = `${warehouse}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new FatalError(`cannot create the writer lock ${path}: ${code ?? messageOf(err)}`);
      const held = readLock(path);
      if (held && isLive(held)) {
        throw new FatalError(
          `warehouse ${warehouse} is being written by another docs-etl process (PID ${held.pid}, started ${held.started_at}: ${held.command}); only one writer at a time`,
        );
      }
      rmSync(path, { force: true, recursive: false });
      continue;
    }
    const info: LockInfo = {
      pid: process.pid, host: hostname(), started_at: now.toISOString(), proc_start: procStart(process.pid), instance: INSTANCE, command,
    };
    try {
      writeSync(fd, JSON.stringify(info));
    } finally {
      closeSync(fd);
    }
    return {
      path,
      release: () => {
        const cur = readLock(path);
        if (cur?.instance === INSTANCE) rmSync(path, { force: true });
      },
    };
  }
  throw new FatalError(`cannot take the writer lock ${path}: it keeps coming back; remove it if no docs-etl process runs`);
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
  const held = readLock(`${warehouse}.lock`);
  return held && isLive(held) ? { pid: held.pid, startedAt: held.started_at, command: held.command } : null;
}

function readLock(path: string): LockInfo | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new FatalError(`the writer lock ${path} cannot be read (${code ?? messageOf(err)}): remove it if no docs-etl process runs`);
  }
  try {
    const x = JSON.parse(text) as LockInfo;
    return typeof x.pid === 'number' ? x : null;
  } catch {
    return null; // half-written by a process killed while taking it: stale
  }
}

function isLive(l: LockInfo): boolean {
  if (l.host !== hostname()) return true; // another machine on a shared disk: never taken over silently
  if (l.pid === process.pid) return l.instance === INSTANCE;
  // Gone, or a zombie (exited, not reaped yet: it answers kill(pid, 0) but holds nothing).
  if (!pidAlive(l.pid)) return false;
  const start = procStart(l.pid);
  return l.proc_start === null || start === null || start === l.proc_start;
}

function procStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
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
