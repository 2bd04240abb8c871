// How many pages one read of a window may take. A server that pages forever (hasMore true, a fresh
// cursor each time) is stopped there instead of spending the organization's whole budget; a real
// window that large continues from its cursor next run. Pure.

/** The floor: a stream's first head (its last hour, density unknown, estimate 1) at a million turns a day is about 42 pages; it must fit under the cap with margin. */
export const MIN_PAGE_CAP = 60;

/** The margin over an estimate made from a day or more of event time (a day has busy hours). */
export const MARGIN = 4;

/**
 * The margin over an estimate made from a first head only (no earlier run, under a day of event
 * time): the last hour may be a night hour, and its late data has not arrived yet. A docs site's
 * quietest hours are commonly a fifth to a tenth of its mean; a window estimated from one of them
 * holds that many times more. A server paging forever on such a window spends at most this much
 * once: an optional window pauses where the budget's reserve starts, and the next run knows the
 * density (margin 4).
 */
export const HEAD_ONLY_MARGIN = 16;

/** The cap for a window estimated at `estRequests` requests: the estimate with a wide margin. */
export function pageCap(estRequests: number, margin = MARGIN): number {
  return Math.max(MIN_PAGE_CAP, margin * Math.ceil(estRequests) + 10);
}
