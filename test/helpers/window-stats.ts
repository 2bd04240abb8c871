// Arrival statistics against a sliding-window rate limit.

/** Largest number of arrivals inside any window (t - windowMs, t]. */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j]! - t[i]! >= windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

/**
 * The most arrivals a sliding window of `limit` per `windowMs` admits in an interval of `durationMs`
 * that starts with an empty window: the interval splits into ceil(duration / window) windows of
 * `windowMs` (the last one shorter), each admitting at most `limit` (bursts at the start of each).
 */
export function allowedIn(durationMs: number, limit: number, windowMs: number): number {
  return Math.ceil(durationMs / windowMs) * limit;
}
