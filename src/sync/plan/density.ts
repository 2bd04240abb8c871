// The row density of a stream (rows per millisecond of event time), learned from its recent
// complete reads: what sizes windows and estimates requests.
import type { CoverageInterval } from '../../core/intervals.js';

/** Densities come from the reads of the last days (sites grow; old backfill says little of today). */
export const DENSITY_LOOKBACK_MS = 3 * 86_400_000;
/** Reads spanning more than this (the open-ended bottom of history) say nothing about density. */
const DENSITY_MAX_SPAN_MS = 31 * 86_400_000;

export interface ReadSample {
  from: number;
  to: number;
  rows: number;
}

/** Rows per millisecond of event time, or null when nothing was read yet. */
export function density(log: readonly ReadSample[], coverage: readonly CoverageInterval[]): number | null {
  const reads = log.filter((w) => w.to - w.from > 0 && w.to - w.from <= DENSITY_MAX_SPAN_MS);
  if (reads.length) return reads.reduce((n, w) => n + w.rows, 0) / reads.reduce((n, w) => n + (w.to - w.from), 0);
  const known = coverage.filter((c) => c.rows !== null && c.to - c.from <= DENSITY_MAX_SPAN_MS);
  if (known.length) return known.reduce((n, c) => n + c.rows!, 0) / known.reduce((n, c) => n + (c.to - c.from), 0);
  return null;
}
