// Time in the aggregated endpoints (searches, views, visitors): daily counts per key, spread over
// the day's UTC hours by the project's diurnal profile, and made visible with a lag.
// - Resolution: an hourly rollup. A count belongs to its hour; a range [from, to) includes the
//   hours that START in it (YYYY-MM-DD bounds are midnights: whole days).
// - Late data: an hour's events are visible in proportion to completeness(): growing while the
//   hour runs, 85% at its end, then linearly to 100% SETTLE_MS later. A day is final SETTLE_MS
//   after it ends; before that its counts keep growing a little.
// - The activity exists for hours starting in [origin, horizon): before the sandbox's history and
//   past its 7-day horizon there is none.
import { hashSeed } from './prng.js';
import { DAY, HOUR } from './site-calendar.js';

/** A day's counts are final this long after it ends. */
export const SETTLE_MS = 6 * HOUR;
/** Share of an hour's events visible when the hour ends. */
const AT_HOUR_END = 0.85;

/** Share of the events of the hour starting at `hourStart` that is visible at `now` (0..1). */
export function completeness(hourStart: number, now: number): number {
  const age = now - hourStart;
  if (age <= 0) return 0;
  if (age < HOUR) return (AT_HOUR_END * age) / HOUR;
  return Math.min(1, AT_HOUR_END + ((1 - AT_HOUR_END) * (age - HOUR)) / SETTLE_MS);
}

/** The cumulative diurnal profile of a project: cum[h] = share of a day's events before hour h (cum[24] = 1). */
export function hourProfile(seed: number, projectId: string): Float64Array {
  const peak = hashSeed(seed, projectId, 'peak-hour') % 24;
  const w = Array.from({ length: 24 }, (_, h) => 1 + 0.6 * Math.cos((2 * Math.PI * (h - peak)) / 24));
  const sum = w.reduce((a, b) => a + b, 0);
  const cum = new Float64Array(25);
  for (let h = 0; h < 24; h++) cum[h + 1] = cum[h]! + w[h]! / sum;
  cum[24] = 1;
  return cum;
}

/** The part of a daily count `n` that falls in hour h (the hours of a day sum to n exactly). */
export function inHour(cum: Float64Array, n: number, h: number): number {
  return Math.floor(cum[h + 1]! * n) - Math.floor(cum[h]! * n);
}

/** The instant at share x ∈ [0, 1) of a day's events (the inverse of the profile). */
export function instantAt(cum: Float64Array, dayStart: number, x: number): number {
  let h = 0;
  while (h < 23 && cum[h + 1]! <= x) h++;
  const within = (x - cum[h]!) / (cum[h + 1]! - cum[h]!);
  return dayStart + Math.floor((h + Math.min(Math.max(within, 0), 0.999999)) * HOUR);
}

/** One UTC day of a range as the rollups read it at `now`. */
export interface RangeDay {
  day: number;
  start: number;
  /** Every hour of the day is included and final: use the daily counts as they are. */
  whole: boolean;
  /** Visible share per hour (0 = not included); all ones when `whole`. */
  share: Float64Array;
}

export interface ActivityBounds {
  origin: number;
  horizon: number;
}

/** The days a range touches at `now`, with the visible share of each hour (days with none are left out). */
export function rangeDays(fromMs: number | null, toMs: number | null, b: ActivityBounds, now: number): RangeDay[] {
  const lo = Math.max(fromMs ?? -Infinity, b.origin);
  const hi = Math.min(toMs ?? Infinity, b.horizon, now);
  if (!(lo < hi)) return [];
  const out: RangeDay[] = [];
  for (let day = Math.floor(lo / DAY); day * DAY < hi; day++) {
    const start = day * DAY;
    const share = new Float64Array(24);
    let whole = true;
    let any = false;
    for (let h = 0; h < 24; h++) {
      const hs = start + h * HOUR;
      const included = hs >= b.origin && hs < b.horizon && (fromMs === null || hs >= fromMs) && (toMs === null || hs < toMs);
      share[h] = included ? completeness(hs, now) : 0;
      if (share[h]! < 1) whole = false;
      if (share[h]! > 0) any = true;
    }
    if (any) out.push({ day, start, whole, share });
  }
  return out;
}

/** The visible part of a daily count `n` on a range day. */
export function visibleOf(cum: Float64Array, n: number, rd: RangeDay): number {
  if (rd.whole || n === 0) return rd.whole ? n : 0;
  let v = 0;
  for (let h = 0; h < 24; h++) {
    const s = rd.share[h]!;
    if (s > 0) v += Math.floor(inHour(cum, n, h) * s);
  }
  return v;
}
