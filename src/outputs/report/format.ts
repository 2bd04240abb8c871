// How the report writes numbers, rates and instants: fixed en-US formatting and UTC, so the same
// warehouse gives the same page wherever it is generated.
import { formatDuration } from '../../core/duration.js';

export const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A share as a percentage with one decimal; "–" when there is nothing to divide by. */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '–';
}

export const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** "2026-11-01 14:03 UTC". */
export function utc(d: Date | null): string {
  return d ? `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '–';
}

/** "3h ago", "2d4h ago"; "in the future" for clocks that disagree. */
export function ago(d: Date, now: Date): string {
  const ms = now.getTime() - d.getTime();
  if (ms < 0) return 'in the future';
  return `${span(ms)} ago`;
}

/** A span in the largest sensible units: "45s", "3h20m", "12d3h". */
export function span(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  if (days < 1) return formatDuration(ms);
  const hours = Math.floor((ms % 86_400_000) / 3_600_000);
  return hours ? `${days}d${hours}h` : `${days}d`;
}

/** Change of a count against the period before: "+12.5%", "−3.0%", "new", "–". */
export function countChange(now: number, before: number): string {
  if (before === 0) return now === 0 ? '–' : 'new';
  const pct = ((now - before) / before) * 100;
  return `${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(1)}%`;
}

/** Change of a rate in percentage points: "+1.2 pp". */
export function pointChange(now: number | null, before: number | null): string {
  if (now === null || before === null) return '–';
  const pp = (now - before) * 100;
  return `${pp >= 0 ? '+' : '−'}${Math.abs(pp).toFixed(1)} pp`;
}

/** "1.2 MB" style sizes for the summary line. */
export function bytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(2)} MB`;
}
