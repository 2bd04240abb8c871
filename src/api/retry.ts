// Bounded exponential backoff with full jitter for retriable failures (5xx, resets, timeouts,
// truncated bodies). The caller's checkpoint stays; after the last attempt the error surfaces.
import type { Clock } from '../core/clock.js';
import { RetriableError, StoppedError } from '../core/errors.js';

export interface RetryPolicy {
  attempts: number;   // total tries, first included
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 500, maxMs: 30_000 };

export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export async function withRetries<T>(
  fn: (attempt: number) => Promise<T>,
  opts: { policy: RetryPolicy; clock: Clock; signal?: AbortSignal; onRetry?: (err: RetriableError, delayMs: number, attempt: number) => void },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!(err instanceof RetriableError) || attempt + 1 >= opts.policy.attempts) throw err;
      const delay = Math.max(err.retryAfterMs ?? 0, backoffMs(opts.policy, attempt));
      opts.onRetry?.(err, delay, attempt + 1);
      await opts.clock.sleep(delay, opts.signal);
      if (opts.signal?.aborted) throw new StoppedError('stopped while waiting to retry');
    }
  }
}
