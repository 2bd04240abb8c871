// Bounded exponential backoff with jitter for retriable failures (5xx, 429 on static export,
// resets, timeouts, truncated bodies), shared by the analytics client and the static export
// pipeline. The caller's checkpoint stays; after the last attempt the RetriableError surfaces.
import type { Clock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { RetriableError, StoppedError } from '../../core/errors.js';

export interface RetryPolicy {
  /** Total tries, the first included. */
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 500, maxMs: 30_000 };

/** The longest wait a server's Retry-After can impose on one retry. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/** Half the capped exponential delay plus up to half again at random ("equal jitter"). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export interface RetryContext {
  policy: RetryPolicy;
  clock: Clock;
  signal?: AbortSignal;
  random?: () => number;
  onRetry?: (err: RetriableError, delayMs: number, attempt: number) => void;
  /** Cap on one wait (default 1 h): a longer Retry-After is clamped to it. */
  maxDelayMs?: number;
  /** Time left for the whole operation: a retry that would wait past it gives up at once. */
  remainingMs?: () => number;
}

export async function withRetries<T>(fn: (attempt: number) => Promise<T>, ctx: RetryContext): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!(err instanceof RetriableError) || attempt + 1 >= ctx.policy.attempts) throw err;
      const wanted = Math.max(err.retryAfterMs ?? 0, backoffMs(ctx.policy, attempt, ctx.random));
      const delay = Math.min(ctx.maxDelayMs ?? MAX_RETRY_DELAY_MS, Number.isNaN(wanted) ? 0 : wanted);
      const left = ctx.remainingMs?.();
      if (left !== undefined && delay > left) {
        throw new RetriableError(`${err.message}; the next try would wait ${formatDuration(delay)}, past the time left (${formatDuration(left)})`, err.status);
      }
      ctx.onRetry?.(err, delay, attempt + 1);
      await sleepOrStop(ctx.clock, delay, ctx.signal);
    }
  }
}

/** Sleeps on the injected clock; an abort (SIGTERM/SIGINT) ends the wait with StoppedError. */
export async function sleepOrStop(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new StoppedError('stopped on request');
  await clock.sleep(ms, signal);
  if (signal?.aborted) throw new StoppedError('stopped on request');
}
