// How many pages one read of a window may take. A server that pages forever (hasMore true, a fresh
// cursor each time) is stopped there instead of spending the organization's whole budget; a real
// window that large continues from its cursor next run. Pure.

/** The floor: a stream's first head (its last hour, density unknown, estimate 1) at a million turns a day is about 42 pages; it must fit under the cap with margin. */
export const MIN_PAGE_CAP = 60;

/** The cap for a window estimated at `estRequests` requests: the estimate with a wide margin (estimates are averages of a day that has busy hours). */
export function pageCap(estRequests: number): number {
  return Math.max(MIN_PAGE_CAP, 4 * Math.ceil(estRequests) + 10);
}
