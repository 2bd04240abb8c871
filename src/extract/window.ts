// The window of a run (design rules 1 and 5): `to` fixed at run start (dateTo is exclusive);
// `from` = high-water − lookback, or the backfill start (or nothing) on the first run.
import type { SyncState, Window } from '../load/sync-state.js';

export function nextWindow(state: SyncState, now: Date, lookbackMs: number, backfillFrom: Date | null): Window {
  if (!state.highWater) return { from: backfillFrom && backfillFrom < now ? backfillFrom : null, to: now };
  const from = new Date(Math.min(state.highWater.getTime(), now.getTime()) - lookbackMs);
  return { from, to: now };
}
