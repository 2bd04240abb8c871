// Dates given by a user (`--from`, a config file's `from`): a calendar date or an ISO 8601 instant.
// A date or time without an offset means UTC, never the machine's zone: the same command gives the
// same instant on every machine (API timestamps and windows are UTC too).
import { UsageError } from './errors.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * `YYYY-MM-DD` (UTC midnight) or `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH[:MM]]`; the date and time must
 * exist (no 2026-02-30, no 25:00). Without an offset the value is UTC. Anything else is null.
 */
export function parseDateValue(v: string): Date | null {
  const m = ISO.exec(v.trim());
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const fraction = m[7] ? Number(m[7]) * 1000 : 0;
  const check = new Date(Date.UTC(y!, mo! - 1, d!));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  const offsetMs = offsetOf(m[8]);
  if (offsetMs === null) return null;
  return new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s) + Math.floor(fraction) - offsetMs);
}

/** `Z`/absent → 0; `+09`, `+0900`, `-05:30` → milliseconds east of UTC; out of range → null. */
function offsetOf(text: string | undefined): number | null {
  if (!text || /^z$/i.test(text)) return 0;
  const sign = text.startsWith('-') ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 18 || minutes > 59) return null;
  return sign * (hours * 60 + minutes) * 60_000;
}

/** A backfill start in the future would silently mean "nothing": it is a mistake (exit 2). */
export function checkNotFuture(date: Date, what: string, now: Date): void {
  if (date.getTime() > now.getTime()) {
    throw new UsageError(`${what} ${date.toISOString()} is in the future (now ${now.toISOString()}): give a past date, e.g. 2026-01-01`);
  }
}

/**
 * Whether the date (and time) at the start of an ISO 8601 text exists. Date.parse rolls 2026-02-30
 * over to March 2; DuckDB refuses it, and so do the contract and the sandbox.
 */
export function calendarValid(s: string): boolean {
  const [y, m, d] = [Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10))];
  if (m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return false;
  if (s.length <= 10) return true;
  return Number(s.slice(11, 13)) <= 23 && Number(s.slice(14, 16)) <= 59 && Number(s.slice(17, 19)) <= 59;
}
