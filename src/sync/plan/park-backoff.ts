// When a parked window (the API paged without end: src/sync/extract/endless-paging.ts) is read
// again: an hour after the first park, then twice as long after each further one, at most a day.
// A stream with a parked window is not read before that (its other windows neither: an endpoint
// that pages for ever does so for every window), so it costs about 20 requests per retry, not per
// run. Pure.

export const FIRST_BACKOFF_MS = 3_600_000;
export const MAX_BACKOFF_MS = 86_400_000;

/** The wait after the `attempts`-th read in a row that paged without end. */
export function parkBackoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

export interface Parked {
  from: Date;
  to: Date;
  purpose: string | null;
  reason: string;
  parkedAt: Date;
  attempts: number;
  retryAt: Date;
}

/** True while the stream waits for its parked window's retry. */
export function isParked(p: Parked | null | undefined, now: Date): boolean {
  return p != null && p.retryAt.getTime() > now.getTime();
}
