// The report's period: whole days ending with the day of "now" (today so far included), and the
// period before it, of the same number of days, for the headline comparison. Days are those of the
// zone the views count them in (projects.timezone; UTC when none is declared), so the period's
// totals equal the views' and no empty "today" of another zone appears.
import { UsageError } from '../../core/errors.js';
import { DEFAULT_TIME_ZONE, zoneOffsetMs } from '../../core/time-zone.js';

export const DAY_MS = 86_400_000;
/** The charts are daily: beyond a year they stop being readable and the file grows. */
export const MAX_PERIOD_DAYS = 366;

export interface ReportPeriod {
  /** The IANA zone of the days (the projects' projects.timezone; UTC when none is declared). */
  timeZone: string;
  /** Number of days in the period (and in the period before). */
  days: number;
  /** First and last day of the period, YYYY-MM-DD (`to` is the day of `now` in `timeZone`). */
  from: string;
  to: string;
  /** First and last day of the period before. */
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

/** The day (YYYY-MM-DD) instant `d` falls on in zone `tz`. */
export function dayInZone(d: Date, tz: string): string {
  return tz === DEFAULT_TIME_ZONE ? utcDay(d) : utcDay(new Date(d.getTime() + zoneOffsetMs(tz, d.getTime())));
}

/** How the report names its days: "UTC days", or "days in Europe/Berlin". */
export function daysLabel(p: Pick<ReportPeriod, 'timeZone'>, n = 2): string {
  const s = n === 1 ? '' : 's';
  return p.timeZone === DEFAULT_TIME_ZONE ? `UTC day${s}` : `day${s} in ${p.timeZone}`;
}

export function reportPeriod(now: Date, sinceMs: number, timeZone: string = DEFAULT_TIME_ZONE): ReportPeriod {
  const days = periodDays(sinceMs);
  const to = dayInZone(now, timeZone);
  const from = addDays(to, -(days - 1));
  const prevTo = addDays(from, -1);
  return {
    timeZone, days, from, to, prevTo, prevFrom: addDays(prevTo, -(days - 1)),
    dayList: Array.from({ length: days }, (_, i) => addDays(from, i)),
  };
}
