// Parsers for flag values: each throws UsageError naming the flag, which main() turns into exit 2.
import { InvalidArgumentError } from 'commander';
import { parseDateValue } from '../core/dates.js';
import { parseDuration, parseRateLimit, type RateLimit } from '../core/duration.js';
import { UsageError } from '../core/errors.js';
import { parseRequestTimeout } from '../config/request-limits.js';
import { parseRereads, type RereadStage } from '../sync/plan/reread-schedule.js';

function wrap<T>(fn: (v: string) => T): (v: string) => T {
  return (v) => {
    try {
      return fn(v);
    } catch (err) {
      if (err instanceof UsageError) throw new InvalidArgumentError(err.message);
      throw err;
    }
  };
}

export const durationArg = wrap((v) => parseDuration(v));
/** A timer's duration: from 1 s to 24 days (Node fires a longer timer at once). */
export const timerDurationArg = wrap((v) => {
  const ms = parseDuration(v);
  if (ms < 1000 || ms > 24 * 86_400_000) throw new UsageError(`expected a duration from 1s to 24d, got "${v}"`);
  return ms;
});
export const rereadsArg = wrap((v): RereadStage[] => parseRereads(v));
export const rateLimitArg = wrap((v): RateLimit => parseRateLimit(v));
export const requestTimeoutArg = wrap(parseRequestTimeout);

export function intArg(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (v: string): number => {
    if (!/^-?\d+$/.test(v.trim())) throw new InvalidArgumentError(`expected an integer, got "${v}"`);
    const n = Number(v);
    if (n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}, got ${n}`);
    return n;
  };
}

export function numberArg(min: number, max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got "${v}"`);
    }
    return n;
  };
}

/** `--from 2026-01-01` or a full ISO instant (a date that exists: not 2026-02-30). */
export function dateArg(v: string): Date {
  const d = parseDateValue(v);
  if (!d) throw new InvalidArgumentError(`expected a date (YYYY-MM-DD or ISO 8601), got "${v}"`);
  return d;
}
