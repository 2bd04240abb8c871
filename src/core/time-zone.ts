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
