// Moves the request logs of an older version's budget folder (`<warehouse dir>/budget`) into the
// per-user one. Each organization's entries are merged into its log there under both logs' locks:
// an entry already present (same id) is not added again, so a migration interrupted and run again
// never double-counts; a 429 block is kept (the later end wins). The old log is then emptied and
// removed, so nothing is merged twice and no request is lost.
// Idempotent: a crash at any step leaves logs a later run merges again without double counting.
// Only our own files are touched: a file is an organization's log when its name is one
// keyFingerprint gives (`org_<16 hex>.json`) AND its content parses as a request log; anything
// else in the folder (a user's `marketing-2026.json`, a damaged log) is left as it is.
import { join } from 'node:path';
import { readFileSync, readdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import type { LogEntry, LogState } from './request-log.js';
import { RequestLog, isLogState } from './request-log.js';

/** Organization log files: `<keyFingerprint>.json` (core/secrets.ts), not temp files, not lock folders. */
const LOG_FILE = /^(org_[0-9a-f]{16})\.json$/;

export interface BudgetMigration {
  /** Organizations whose logs were merged. */
  organizations: string[];
  /** Entries added to the new logs (entries already there are not counted again). */
  added: number;
}

/** Null when there is nothing to migrate (no legacy folder, or no log in it). */
export async function migrateLegacyBudget(legacyDir: string, dir: string): Promise<BudgetMigration | null> {
  const st = statSync(legacyDir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return null;
  const orgs = readdirSync(legacyDir)
    .map((n) => LOG_FILE.exec(n)?.[1])
    .filter((o): o is string => o !== undefined && holdsRequestLog(join(legacyDir, `${o}.json`)));
  if (!orgs.length) return null;
  let added = 0;
  for (const org of orgs) {
    const old = new RequestLog(legacyDir, org);
    const into = new RequestLog(dir, org);
    // Merge first, then take what the old log holds (emptying it) and merge again: an entry an
    // older version adds meanwhile is still carried over; one merged twice is skipped by id.
    added += await into.update((state) => mergeInto(state, old.readUnlocked()));
    const taken = await old.update((state) => {
      const copy: LogState = { entries: state.entries, blockedUntil: state.blockedUntil };
      state.entries = [];
      state.blockedUntil = 0;
      return copy;
    });
    added += await into.update((state) => mergeInto(state, taken));
    rmSync(old.file, { force: true });
  }
  try {
    rmdirSync(legacyDir);
  } catch {
    // Something else is in it (a lock of a running older version, a stray file): leave the folder.
  }
  return { organizations: orgs, added };
}

/** The file is a regular file whose JSON is a request log (as RequestLog writes it). */
function holdsRequestLog(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    return isLogState(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return false;
  }
}

/** Adds `from`'s entries not in `into` (by id); keeps the later block. Returns how many were added. */
export function mergeInto(into: LogState, from: LogState): number {
  const seen = new Set(into.entries.map(keyOf));
  let n = 0;
  for (const e of from.entries) {
    if (seen.has(keyOf(e))) continue;
    seen.add(keyOf(e));
    into.entries.push(e);
    n++;
  }
  into.entries.sort((a, b) => a.start - b.start);
  into.blockedUntil = Math.max(into.blockedUntil, from.blockedUntil);
  return n;
}

function keyOf(e: LogEntry): string {
  return e.id ?? `${e.start}:${e.pid}:${e.instance ?? ''}`;
}
