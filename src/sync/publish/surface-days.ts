// The per-table, per-(project, UTC day) signatures a publish compares, without re-hashing the
// history each time. What each table may skip comes from its lake declaration (LakeTable.changes):
//   - a table with a `stamp` column (conversations' last_seen_at: a run's merges stamp every turn
//     they touch with the merge's time): the previous catalog keeps the day signatures it was built
//     from and a watermark per such table (the largest stamp it saw); only the days between the
//     earliest and the latest day of rows stamped since the watermark (less a margin for clock
//     steps) can have changed: those are recomputed, the rest carried over;
//   - a table `stampedBy` another (sources, rewritten with their turns): recomputed over that
//     table's touched days;
//   - any other dated table: every day is signed at every publish (a hash of its rows).
// Deletes are not stamped: `reset` and `rebuild` publish with `full`, and so does a publish after
// a migration, or with no previous catalog state. As a backstop (a clock stepped back by more than
// the margin, a row changed by hand), the first publish of each UTC day recomputes every day: any
// such difference lasts at most until then.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import { dayExpr, readAllPartitionSignatures, readPartitionSignatures, type PartitionSignature } from './segment-signatures.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { segmentRange } from './surface-plan.js';
import type { SurfaceTable } from './surface-tables.js';
import { withScanMemory } from '../../warehouse/scan-memory.js';

/** Rows stamped this much before the watermark are treated as touched too (a clock stepped back). */
export const WATERMARK_MARGIN_MS = 2_000;

export interface DayState {
  days: PartitionSignature[];
  /** Per table with a stamp column: the largest stamp the signatures saw. */
  watermarks: Record<string, string | null>;
  migrations: number;
  /** UTC day of the last publish that recomputed every day. */
  fullDay: string | null;
}

/** Which days of a table this publish signs again: all, none, or the UTC days [fromDay, toDay]. */
type Recompute = 'all' | 'none' | { fromDay: string; toDay: string };

/** Read under the small pool of bookkeeping scans (src/warehouse/scan-memory.ts). */
export function readDaySignatures(
  conn: DuckDBConnection, tables: readonly SurfaceTable[], previous: DayState | null, full: boolean, now: Date,
): Promise<DayState & { recomputed: 'all' | Record<string, Recompute> }> {
  return withScanMemory(conn, () => daySignatures(conn, tables, previous, full, now));
}

async function daySignatures(
  conn: DuckDBConnection, tables: readonly SurfaceTable[], previous: DayState | null, full: boolean, now: Date,
): Promise<DayState & { recomputed: 'all' | Record<string, Recompute> }> {
  const today = now.toISOString().slice(0, 10);
  const migrations = Number((await conn.runAndReadAll('SELECT count(*) FROM schema_migrations')).getRows()[0]![0]);
  // Every day is recomputed after a delete (`full`: reset, rebuild), with no previous state, after
  // a migration and once a UTC day; then the watermarks are read over every row (after a delete
  // they may go down).
  const prev = !full && previous?.fullDay === today && previous.migrations === migrations ? previous : null;
  const watermarks: Record<string, string | null> = {};
  const modes = new Map<string, Recompute>();
  for (const t of tables) {
    if (t.stamp === undefined) continue;
    const kept = prev?.watermarks[t.name] ?? null;
    const r = await stampedSince(conn, t, t.stamp, kept === null ? null : new Date(Date.parse(kept) - WATERMARK_MARGIN_MS).toISOString());
    // Nothing stamped since the watermark: it stays (the rows at it are still there).
    watermarks[t.name] = r.watermark ?? kept;
    modes.set(t.name, kept === null ? 'all' : r.touched ?? 'none');
  }
  const days: PartitionSignature[] = [];
  // An incremental publish signs the small tables it signs whole (no stamp) together, in one
  // statement (readAllPartitionSignatures); a full one (every table, the history) one at a time,
  // so that no two large scans share the memory limit.
  const whole: SurfaceTable[] = [];
  for (const t of tables) {
    const mode = prev ? modes.get(t.name) ?? (t.stampedBy !== undefined && prev.days.some((d) => d.table === t.name) ? modes.get(t.stampedBy) : undefined) ?? 'all' : 'all';
    modes.set(t.name, mode);
    const before = prev?.days.filter((d) => d.table === t.name) ?? [];
    if (mode === 'none') days.push(...before);
    else if (mode === 'all' && prev) whole.push(t);
    else if (mode === 'all') days.push(...await readPartitionSignatures(conn, t));
    else {
      const range = { from: segmentRange(mode.fromDay).from, to: segmentRange(mode.toDay).to };
      days.push(...before.filter((d) => d.date < mode.fromDay || d.date > mode.toDay), ...await readPartitionSignatures(conn, t, range));
    }
  }
  days.push(...await readAllPartitionSignatures(conn, whole));
  days.sort(byPartition);
  return {
    days, watermarks, migrations, fullDay: prev ? prev.fullDay : today,
    recomputed: prev ? Object.fromEntries(modes) : 'all',
  };
}

/** The largest stamp since `since` (null: ever) and the span of days of the rows stamped since. */
async function stampedSince(
  conn: DuckDBConnection, t: SurfaceTable, stamp: string, since: string | null,
): Promise<{ watermark: string | null; touched: { fromDay: string; toDay: string } | null }> {
  const sql = sqlFile('publish/changes.sql')
    .replaceAll('{{table}}', () => quotedIdentifier(t.name))
    .replaceAll('{{stamp}}', () => `t.${quotedIdentifier(stamp)}`)
    .replaceAll('{{day}}', () => dayExpr(t));
  const r = (await conn.runAndReadAll(sql, { since })).getRowObjectsJS()[0]!;
  return {
    watermark: r.watermark === null ? null : String(r.watermark),
    touched: r.touched_from === null ? null : { fromDay: String(r.touched_from), toDay: String(r.touched_to) },
  };
}

const key = (d: PartitionSignature): string => `${d.table}\u0000${d.projectId}\u0000${d.date}`;
const byPartition = (a: PartitionSignature, b: PartitionSignature): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
