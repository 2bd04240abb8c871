// IANA time zones as users give them (a project's `timezone` in the config, `schedule --timezone`).
// Day boundaries in the views are computed in a project's zone, UTC when none is declared.
import { UsageError } from './errors.js';

export const DEFAULT_TIME_ZONE = 'UTC';

/** The canonical IANA name of `tz` ("utc" → "UTC", "asia/tokyo" → "Asia/Tokyo"), or null if unknown. */
export function canonicalTimeZone(tz: string): string | null {
  if (!tz.trim()) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz.trim() }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Throws UsageError naming `what` (e.g. "--timezone") unless `tz` is a known IANA zone. */
export function checkTimeZone(tz: string, what: string): string {
  if (!tz.trim()) throw new UsageError(`${what} is empty: use an IANA name such as Europe/Berlin or UTC`);
  const zone = canonicalTimeZone(tz);
  if (!zone) throw new UsageError(`unknown time zone "${tz}": use an IANA name such as Europe/Berlin or UTC`);
  return zone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at instant `ms`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(tz: string, ms: number): number {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
}

/** The instant the local day containing `ms` starts, in zone `tz` (UTC ms). */
export function startOfLocalDay(ms: number, tz: string): number {
  const local = ms + zoneOffsetMs(tz, ms);
  const midnightLocal = Math.floor(local / 86_400_000) * 86_400_000;
  // The offset at midnight can differ from the one at `ms` (a DST change that day): settle it.
  let guess = midnightLocal - zoneOffsetMs(tz, midnightLocal);
  guess = midnightLocal - zoneOffsetMs(tz, guess);
  return guess;
}

/** Local days [start, end) of zone `tz` that lie wholly inside [fromMs, toMs), oldest first. */
export function localDays(fromMs: number, toMs: number, tz: string): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let start = startOfLocalDay(fromMs, tz);
  if (start < fromMs) start = startOfLocalDay(start + 36 * 3_600_000, tz);
  for (;;) {
    const end = startOfLocalDay(start + 36 * 3_600_000, tz);
    if (end > toMs) break;
    out.push({ from: start, to: end });
    start = end;
  }
  return out;
}
