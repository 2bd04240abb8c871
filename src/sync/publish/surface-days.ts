// The per-(project, UTC day) signatures a publish compares, without re-hashing the history each
// time: the previous catalog keeps the day signatures it was built from and a watermark (the
// largest last_seen_at it saw). A run's merges stamp every turn they touch (and rewrite its
// sources) with last_seen_at = the merge's time, so only the days between the earliest and the
// latest occurred_at of turns stamped since the watermark (less a margin for clock steps) can
// have changed: those are recomputed (the lake's signature query over that range), the rest
// carried over. Deletes are not stamped: `reset` and `rebuild` publish with `full`, and so does
// a publish after a migration, or with no previous catalog state. As a backstop (a clock stepped
// back by more than the margin, a row changed by hand), the first publish of each UTC day
// recomputes every day: any such difference lasts at most until then.
import type { DuckDBConnection } from '@duckdb/node-api';
import { readPartitionSignatures, type PartitionSignature } from './segment-signatures.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { segmentRange } from './surface-plan.js';
import { withScanMemory } from '../../warehouse/scan-memory.js';

/** Turns stamped this much before the watermark are treated as touched too (a clock stepped back). */
export const WATERMARK_MARGIN_MS = 2_000;

export interface DayState {
  days: PartitionSignature[];
  watermark: string | null;
  migrations: number;
  /** UTC day of the last publish that recomputed every day. */
  fullDay: string | null;
}

/** Read under the small pool of bookkeeping scans (src/warehouse/scan-memory.ts). */
export function readDaySignatures(
  conn: DuckDBConnection, previous: DayState | null, full: boolean, now: Date,
): Promise<DayState & { recomputed: 'all' | 'none' | { from: string; to: string } }> {
  return withScanMemory(conn, () => daySignatures(conn, previous, full, now));
}

async function daySignatures(
  conn: DuckDBConnection, previous: DayState | null, full: boolean, now: Date,
): Promise<DayState & { recomputed: 'all' | 'none' | { from: string; to: string } }> {
  const today = now.toISOString().slice(0, 10);
  // Every day is recomputed after a delete (`full`: reset, rebuild), with no previous state, and
  // once a UTC day; then the watermark is read over every turn (after a delete it may go down).
  const kept = !full && previous?.fullDay === today ? previous.watermark : null;
  const since = kept === null ? null : new Date(Date.parse(kept) - WATERMARK_MARGIN_MS).toISOString();
  const r = (await conn.runAndReadAll(sqlFile('publish/changes.sql'), { since })).getRowObjectsJS()[0]!;
  // Nothing stamped since the watermark: it stays (the turns at it are still there).
  const watermark = r.watermark === null ? kept : String(r.watermark);
  const migrations = Number(r.migrations);
  if (!previous || kept === null || previous.migrations !== migrations) {
    return { days: await readPartitionSignatures(conn), watermark, migrations, fullDay: today, recomputed: 'all' };
  }
  const { fullDay } = previous;
  if (r.touched_from === null) return { days: previous.days, watermark, migrations, fullDay, recomputed: 'none' };
  const from = segmentRange(String(r.touched_from)).from;
  const to = segmentRange(String(r.touched_to)).to;
  const fresh = await readPartitionSignatures(conn, { from, to });
  const outside = previous.days.filter((d) => d.date < String(r.touched_from) || d.date > String(r.touched_to));
  const days = [...outside, ...fresh].sort((a, b) => (a.projectId === b.projectId ? a.date.localeCompare(b.date) : a.projectId.localeCompare(b.projectId)));
  return { days, watermark, migrations, fullDay, recomputed: { from, to } };
}
