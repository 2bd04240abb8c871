// Per-organization sliding window over request ARRIVAL times. A request is admitted when fewer
// than `limit` admitted requests arrived in the last `windowMs`; refused (429) requests are not
// counted. Retry-After is the time until the oldest counted request leaves the window.
import type { RateLimit } from '../../core/duration.js';

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

export class SlidingWindowLimiter {
  /** Admitted arrival times (ms) per organization key, oldest first. */
  private readonly arrivals = new Map<string, number[]>();

  admit(key: string, now: number, rule: RateLimit | null): Admission {
    const list = this.arrivals.get(key) ?? [];
    this.arrivals.set(key, list);
    // Keep only arrivals still inside the window (t > now - windowMs); without a rule, a day.
    const windowMs = rule?.windowMs ?? 86_400_000;
    while (list.length > 0 && list[0]! <= now - windowMs) list.shift();
    if (rule) {
      if (list.length >= rule.limit) {
        const oldest = list[list.length - rule.limit]!;
        return { ok: false, retryAfterMs: oldest + rule.windowMs - now };
      }
    }
    list.push(now);
    return { ok: true };
  }
}

/** Retry-After header value: whole seconds, rounded up, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
