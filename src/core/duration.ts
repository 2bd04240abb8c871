// Human durations ("24h", "30m", "1h30m", "500ms") and rate limits ("100/1h"). A duration always
// carries its unit: a bare number is a usage error (exit 2) with a hint.
import { UsageError } from './errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Longer than any sensible lookback, wait or window ("999999999d" is a typo); beyond it dates overflow. */
export const MAX_DURATION_MS = 36_500 * 86_400_000;

/** A duration of at most 36500d. Throws UsageError naming `what`. */
export function parseDuration(text: string, what = 'duration'): number {
  const ms = sumDuration(text, what);
  if (ms > MAX_DURATION_MS) throw new UsageError(`invalid ${what} "${text}": at most 36500d`);
  return ms;
}

function sumDuration(text: string, what: string): number {
  const s = text.trim();
  // A bare number was once read as seconds (`--lookback 24` = 24 s, surely meant as hours): a
  // duration always names its unit now.
  if (/^\d+(\.\d+)?$/.test(s)) {
    throw new UsageError(`invalid ${what} "${text}": a duration needs a unit, e.g. ${s}s, ${s}m or ${s}h`);
  }
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * (UNITS[m[2]!] ?? 0);
    consumed = re.lastIndex;
  }
  if (consumed === 0 || consumed !== s.length) {
    throw new UsageError(`invalid ${what} "${text}": use a number with a unit, e.g. 30s, 15m, 24h, 7d`);
  }
  return Math.round(total);
}

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export function parseRateLimit(text: string): RateLimit {
  const m = /^\s*(\d+)\s*\/\s*(\S+)\s*$/.exec(text);
  if (!m) throw new UsageError(`invalid rate limit "${text}": use REQUESTS/WINDOW, e.g. 100/1h`);
  const limit = Number(m[1]);
  const w = m[2]!;
  const windowMs = sumDuration(/^\d/.test(w) ? w : `1${w}`, 'rate-limit window');
  if (limit < 1 || windowMs < 1) throw new UsageError(`invalid rate limit "${text}": both parts must be positive`);
  if (!Number.isSafeInteger(limit)) throw new UsageError(`invalid rate limit "${text}": too many requests`);
  if (windowMs > MAX_DURATION_MS) throw new UsageError(`invalid rate limit "${text}": the window is at most 36500d`);
  return { limit, windowMs };
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60 || (s < 120 && s % 60)) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60 || (m < 120 && m % 60)) return `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
}
