// The persisted request log of one organization: every analytics request it made, shared by all
// processes and runs through a file guarded by a lock (proper-lockfile), so two processes of one
// organization together never exceed the limit in any sliding window.
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { writeFileAtomicSync } from '../core/atomic-file.js';
import { FatalError, messageOf } from '../core/errors.js';

export interface LogEntry {
  id: string;
  /** When the slot was taken (before the request left). */
  start: number;
  /** When the response finished; null while in flight. The server saw the request before this. */
  end: number | null;
  pid: number;
  /** The owning process's INSTANCE (core/owner-lock; absent in logs written by older versions). */
  instance?: string;
  /** After this an in-flight slot is abandoned: its request's deadline (plus a margin) has passed. */
  expires?: number;
}

export interface LogState {
  entries: LogEntry[];
  /** A 429 told us the server's window is full until then. */
  blockedUntil: number;
}

/** Temp files of writers killed between write and rename are removed once this old. */
const STALE_TEMP_MS = 60_000;

export class RequestLog {
  readonly file: string;
  readonly lockPath: string;

  /** `onDamaged` hears of a log file that cannot be read (it is then replaced by a fresh one). */
  constructor(dir: string, organization: string, private readonly onDamaged?: (file: string, reason: string) => void) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new FatalError(`cannot use the budget directory ${dir}: ${codeOf(err)} (it holds the shared request log; is it a file?)`);
    }
    this.file = join(dir, `${organization}.json`);
    this.lockPath = `${this.file}.lock`;
    const lock = statSync(this.lockPath, { throwIfNoEntry: false });
    if (lock && !lock.isDirectory()) throw strayLock(this.lockPath);
    removeStaleTemps(dir, `${organization}.json.`);
  }

  /** Read-modify-write under the file lock. The lock is short: no request happens while held. */
  async update<T>(fn: (state: LogState) => T): Promise<T> {
    const release = await this.lock();
    try {
      const state = this.readUnlocked();
      const out = fn(state);
      // A fresh random name (the one removeStaleTemps sweeps), created exclusively by core/atomic-file.
      const temp = `${this.file}.${randomBytes(8).toString('hex')}.tmp`;
      try {
        writeFileAtomicSync(this.file, JSON.stringify(state), { mode: 0o600, temp });
      } catch (err) {
        throw new FatalError(`cannot write the request log ${this.file}: ${codeOf(err)}`);
      }
      return out;
    } finally {
      await release().catch(() => {});
    }
  }

  /**
   * A snapshot without the lock (for `status`). A damaged file reads as empty: the budget then
   * relies on the server's 429s until the log has refilled, which is safe, just less polite.
   */
  readUnlocked(): LogState {
    return readLogFile(this.file, this.onDamaged);
  }

  private async lock(): Promise<() => Promise<void>> {
    // A file there would make every attempt fail (ENOTDIR) until the retries run out: say so at once.
    const stray = statSync(this.lockPath, { throwIfNoEntry: false });
    if (stray && !stray.isDirectory()) throw strayLock(this.lockPath);
    try {
      return await lockfile.lock(this.file, {
        realpath: false,
        stale: 10_000,
        retries: { retries: 200, minTimeout: 2, maxTimeout: 50, factor: 1.5 },
      });
    } catch (err) {
      const lock = statSync(this.lockPath, { throwIfNoEntry: false });
      if (lock && !lock.isDirectory()) throw strayLock(this.lockPath);
      if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
        throw new FatalError(`the request log ${this.file} stayed locked by another process; if no docs-etl process is running, remove ${this.lockPath}`);
      }
      throw new FatalError(`cannot lock the request log ${this.file} (lock ${this.lockPath}): ${codeOf(err)}`);
    }
  }
}

/** The log at `file`; missing reads as empty, damaged as empty after `onDamaged`. */
export function readLogFile(file: string, onDamaged?: (file: string, reason: string) => void): LogState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { entries: [], blockedUntil: 0 };
  }
  try {
    const parsed = JSON.parse(text) as Partial<LogState>;
    return {
      entries: Array.isArray(parsed.entries) ? parsed.entries.filter(isEntry) : [],
      blockedUntil: typeof parsed.blockedUntil === 'number' && Number.isFinite(parsed.blockedUntil) ? parsed.blockedUntil : 0,
    };
  } catch (err) {
    onDamaged?.(file, messageOf(err));
    return { entries: [], blockedUntil: 0 };
  }
}

/** The shape RequestLog writes: `{ entries: LogEntry[], blockedUntil?: number }` (every entry valid). */
export function isLogState(v: unknown): v is LogState {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const x = v as Partial<LogState>;
  return Array.isArray(x.entries) && x.entries.every(isEntry) &&
    (x.blockedUntil === undefined || (typeof x.blockedUntil === 'number' && Number.isFinite(x.blockedUntil)));
}

function isEntry(e: unknown): e is LogEntry {
  const x = e as LogEntry;
  return typeof x?.start === 'number' && typeof x.pid === 'number' && (x.end === null || typeof x.end === 'number') &&
    (x.instance === undefined || typeof x.instance === 'string') && (x.expires === undefined || typeof x.expires === 'number');
}

function strayLock(path: string): FatalError {
  return new FatalError(`${path} is in the way of the request log's lock (docs-etl creates a directory there while it updates the log): remove it`);
}

function removeStaleTemps(dir: string, prefix: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const path = join(dir, name);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st && !st.isDirectory() && Date.now() - st.mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
  }
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? messageOf(err);
}
