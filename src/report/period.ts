// The report's period: whole UTC days ending with the UTC day of "now" (today so far included), and
// the period before it, of the same number of days, for the headline comparison. Days are UTC, like
// the daily views (until a project time zone is configured).
import { UsageError } from '../core/errors.js';

export const DAY_MS = 86_400_000;
/** The charts are daily: beyond a year they stop being readable and the file grows. */
export const MAX_PERIOD_DAYS = 366;

export interface ReportPeriod {
  /** Number of UTC days in the period (and in the period before). */
  days: number;
  /** First and last UTC day of the period, YYYY-MM-DD (`to` is the day of `now`). */
  from: string;
  to: string;
  /** First and last UTC day of the period before. */
  prevFrom: string;
  prevTo: string;
  /** Every day of the period in order, for charts that show empty days too. */
  dayList: string[];
}

export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(day: string, n: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** `sinceMs` is rounded up to whole days: `--since 36h` covers 2 days. */
export function periodDays(sinceMs: number): number {
  if (!(sinceMs > 0)) throw new UsageError('--since must be positive, e.g. 7d or 30d');
  const days = Math.ceil(sinceMs / DAY_MS);
  if (days > MAX_PERIOD_DAYS) throw new UsageError(`--since is at most ${MAX_PERIOD_DAYS}d (the charts are daily)`);
  return days;
}

export function reportPeriod(now: Date, sinceMs: number): ReportPeriod {
  const days = periodDays(sinceMs);
  const to = utcDay(now);
  const from = addDays(to, -(days - 1));
  const prevTo = addDays(from, -1);
  return {
    days, from, to, prevTo, prevFrom: addDays(prevTo, -(days - 1)),
    dayList: Array.from({ length: days }, (_, i) => addDays(from, i)),
  };
}
