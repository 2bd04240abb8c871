// Pure measures of the virtual-day scenario (issue 16, "What it must show"): the ideal request count
// of a run, windows by purpose, what the coverage map says after a run (head lag, intervals past
// their settle read that were not settled, spans never read). No I/O: unit-tested on their own.
import { gaps } from '../../src/core/intervals.js';
import { PURPOSES, type Purpose } from '../../src/core/window.js';

export const PAGE_SIZE = 1000;

/** What a run would cost if it read only what became visible since the previous run: full pages. */
export function idealRequests(newVisible: number, pageSize = PAGE_SIZE): number {
  return Math.ceil(Math.max(0, newVisible) / pageSize);
}

export type ByPurpose = Record<Purpose, number>;

export function emptyByPurpose(): ByPurpose {
  return Object.fromEntries(PURPOSES.map((p) => [p, 0])) as ByPurpose;
}

/** Counts items by their purpose (optionally weighted, e.g. by pages). */
export function countByPurpose<T extends { purpose: Purpose }>(items: readonly T[], weight: (t: T) => number = () => 1): ByPurpose {
  const out = emptyByPurpose();
  for (const t of items) out[t.purpose] += weight(t);
  return out;
}

export function addByPurpose(a: ByPurpose, b: ByPurpose): ByPurpose {
  const out = emptyByPurpose();
  for (const p of PURPOSES) out[p] = a[p] + b[p];
  return out;
}

/** One interval of the coverage map as the warehouse's `coverage` table holds it (ms). */
export interface CoverageRow {
  from: number;
  to: number;
  readAt: number;
  settled: boolean;
}

export interface CoverageProbe {
  /** End of coverage (the head), null before anything was read. */
  headAt: number | null;
  /** `now` − head: how stale the newest loaded data is. */
  headLagMs: number | null;
  /**
   * Intervals that ended before `now − settleDueMs` (clipped to `from`) whose last read came less
   * than the settle age after their end: settle reads that are overdue. 0 when every interval got
   * its settle read in time. (An interval's schedule runs from its end: a long interval that ends
   * later is not overdue yet.)
   */
  unsettledOverdueMs: number;
  /**
   * Intervals whose last read did come at least the settle age after their end, yet whose `settled`
   * flag is false (the warehouse's bookkeeping disagrees with its read times), any age.
   */
  settledFlagMissingMs: number;
  /** Event time older than `now − settleDueMs` (and after `from`) never read at all: backfill still to do. */
  unreadOverdueMs: number;
  /** Event time from `from` to `now` never read at all. */
  unreadMs: number;
}

/**
 * Reads the coverage map of one stream at instant `now`. `settleAgeMs`: the schedule's settle age (a
 * read at least this long after an interval's end settles it); `settleDueMs`: the age by which an
 * interval must have had that read (the settle age, its slack, and one run interval to get it done).
 */
export function probeCoverage(
  rows: readonly CoverageRow[], from: number, now: number, o: { settleAgeMs: number; settleDueMs: number },
): CoverageProbe {
  const sorted = [...rows].sort((a, b) => a.from - b.from);
  const headAt = sorted.length ? Math.max(...sorted.map((r) => r.to)) : null;
  const due = now - o.settleDueMs;
  const readSettled = (r: CoverageRow) => r.readAt - r.to >= o.settleAgeMs;
  const clip = (f: number, t: number) => Math.max(0, Math.min(t, due) - Math.max(f, from));
  const asMap = sorted.map((r) => ({ from: r.from, to: r.to, firstReadAt: r.readAt, readAt: r.readAt, reads: 1, rows: null, settled: r.settled }));
  const holes = gaps(asMap, from, now);
  return {
    headAt,
    headLagMs: headAt === null ? null : now - headAt,
    unsettledOverdueMs: sorted.filter((r) => !readSettled(r) && r.to <= due).reduce((n, r) => n + clip(r.from, r.to), 0),
    settledFlagMissingMs: sorted.filter((r) => readSettled(r) && !r.settled).reduce((n, r) => n + (r.to - r.from), 0),
    unreadOverdueMs: holes.reduce((n, g) => n + clip(g.from, g.to), 0),
    unreadMs: holes.reduce((n, g) => n + (g.to - g.from), 0),
  };
}

/** Share with a denominator that may be 0 (nothing to measure counts as all there). */
export function share(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}
