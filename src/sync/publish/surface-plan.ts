// Which files a publish of the read surface writes: a pure decision from the warehouse's
// per-table, per-(project, UTC day) signatures (src/sync/publish/segment-signatures.ts), the previous
// catalog's manifest and the files on disk, made by the lake export's own planner
// (src/outputs/lake/export-plan.ts) over SEGMENTS instead of days:
//   - a day of a month still open is its own segment (re-reads, late arrivals rewrite one day);
//   - a closed month (its last day CLOSE_MONTH_AFTER_MS past) is ONE segment per project: its day
//     files are compacted into one file when it closes, so the file count stays in the hundreds.
// A segment's signature is a hash of its days' signatures and of its table's column list, so a
// changed day rewrites only its segment and a new column rewrites every segment of its table.
import { createHash } from 'node:crypto';
import { planPartitions, type PartitionEntry, type PartitionPlan, type PartitionSignature } from './segment-signatures.js';

/** A month is compacted once its last day is this far in the past (longer than the default re-reads, 24h+6h). */
export const CLOSE_MONTH_AFTER_MS = 3 * 86_400_000;

const MONTH_RE = /^\d{4}-\d{2}$/;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The segment a UTC day belongs to at `now`: 'YYYY-MM' for a closed month, else the day itself. */
export function segmentKeyOf(date: string, now: Date): string {
  const month = date.slice(0, 7);
  const { to } = segmentRange(month);
  return now.getTime() - Date.parse(to) >= CLOSE_MONTH_AFTER_MS ? month : date;
}

/** The half-open UTC range of a segment key (a day or a month), as ISO strings for the COPY filter. */
export function segmentRange(key: string): { from: string; to: string } {
  if (DAY_RE.test(key)) {
    const from = new Date(`${key}T00:00:00.000Z`);
    return { from: from.toISOString(), to: new Date(from.getTime() + 86_400_000).toISOString() };
  }
  if (MONTH_RE.test(key)) {
    const from = new Date(`${key}-01T00:00:00.000Z`);
    const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
    return { from: from.toISOString(), to: to.toISOString() };
  }
  throw new Error(`invalid read-surface segment ${key}`);
}

/**
 * Day signatures grouped into segments per table (the `date` of a segment is its key), in key
 * order. `schemaHash` is per table: a changed column list rewrites every segment of that table.
 */
export function segmentSignatures(days: readonly PartitionSignature[], now: Date, schemaHash: (table: string) => string): PartitionSignature[] {
  const groups = new Map<string, PartitionSignature[]>();
  for (const d of days) {
    const id = JSON.stringify([d.table, d.projectId, segmentKeyOf(d.date, now)]);
    groups.set(id, [...(groups.get(id) ?? []), d]);
  }
  const out: PartitionSignature[] = [];
  for (const [id, ds] of groups) {
    const [table, projectId, key] = JSON.parse(id) as [string, string, string];
    const hash = createHash('sha256').update(schemaHash(table));
    for (const d of ds) hash.update(`|${d.date}:${d.signature}`);
    out.push({ table, projectId, date: key, signature: hash.digest('hex'), rows: ds.reduce((n, d) => n + d.rows, 0) });
  }
  const k = (p: PartitionSignature): string => `${p.table}\u0000${p.projectId}\u0000${p.date}`;
  return out.sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
}

/** Write / keep / remove per segment: the lake export's planner, over segments. */
export function planSegments(a: {
  segments: readonly PartitionSignature[];
  previous: readonly PartitionEntry[];
  fileSize: (rel: string) => number | undefined;
}): PartitionPlan {
  return planPartitions({ current: a.segments, previous: a.previous, fileSize: a.fileSize });
}
