// The persisted request log of one organization: every analytics request it made, shared by all
// processes and runs through a file guarded by a lock (proper-lockfile), so two processes of one
// organization together never exceed the limit in any sliding window.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

export interface LogEntry {
  id: string;
  /** When the slot was taken (before the request left). */
  start: number;
  /** When the response finished; null while in flight. The server saw the request before this. */
  end: number | null;
  pid: number;
}

export interface LogState {
  entries: LogEntry[];
  /** A 429 told us the server's window is full until then. */
  blockedUntil: number;
}

export class RequestLog {
  readonly file: string;

  /** `onDamaged` hears of a log file that cannot be read (it is then replaced by a fresh one). */
  constructor(dir: string, organization: string, private readonly onDamaged?: (file: string, reason: string) => void) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${organization}.json`);
  }

  /** Read-modify-write under the file lock. The lock is short: no request happens while held. */
  async update<T>(fn: (state: LogState) => T): Promise<T> {
    const release = await lockfile.lock(this.file, {
      realpath: false,
      stale: 10_000,
      retries: { retries: 200, minTimeout: 2, maxTimeout: 50, factor: 1.5 },
    });
    try {
      const state = this.readUnlocked();
      const out = fn(state);
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(state));
      renameSync(tmp, this.file);
      return out;
    } finally {
      await release();
    }
  }

  /**
   * A snapshot without the lock (for `status`). A damaged file reads as empty: the budget then
   * relies on the server's 429s until the log has refilled, which is safe, just less polite.
   */
  readUnlocked(): LogState {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return { entries: [], blockedUntil: 0 };
    }
    try {
      const parsed = JSON.parse(text) as Partial<LogState>;
      return {
        entries: Array.isArray(parsed.entries) ? parsed.entries.filter(isEntry) : [],
        blockedUntil: typeof parsed.blockedUntil === 'number' ? parsed.blockedUntil : 0,
      };
    } catch (err) {
      this.onDamaged?.(this.file, (err as Error).message);
      return { entries: [], blockedUntil: 0 };
    }
  }
}

function isEntry(e: unknown): e is LogEntry {
  const x = e as LogEntry;
  return typeof x?.start === 'number' && typeof x.pid === 'number' && (x.end === null || typeof x.end === 'number');
}

export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
