// Dates given by a user (`--from`, a config file's `from`): a calendar date or an ISO 8601 instant.

/** A calendar date (YYYY-MM-DD, UTC midnight) or an ISO 8601 instant whose date part exists (no 2026-02-30); else null. */
export function parseDateValue(v: string): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (!day) return null;
  const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return Number.isNaN(date.getTime()) ? null : date;
}
