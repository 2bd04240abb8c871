// The first backfill's estimate (issue 34, item 2): how many runs at the team's cadence until
// history is complete. A run gets the budget of one rate window (its share at shorter cadences);
// it spends it on the heads (the data that arrived since the last run) and the re-reads (each
// re-read stage reads that much once more) first, and the backfill gets the rest.
import { formatDuration } from '../../core/duration.js';

const DAY_MS = 86_400_000;
/** An estimate longer than this says so in status, sync and --check (a warning, not a failure). */
export const SLOW_BACKFILL_DAYS = 3;

/** What one stream spends a run before its backfill, and what its backfill needs. */
export interface StreamCost {
  organization: string;
  complete: boolean;
  remainingRequests: number | null;
  /** Rows per ms (days with data only); null: unknown. */
  density: number | null;
  pageSize: number;
  byDay: boolean;
  /** The pipeline's re-read stages (each one a run can catch re-reads what a head read). */
  rereads: readonly { afterMs: number; withinMs: number }[];
  /** Pages the stream's last run read for heads and re-reads; null: no run yet. */
  observedFresh: number | null;
  /** Observed gap between this stream's runs (s), if any. */
  cadenceS: number | null;
}

export interface OrgBackfill {
  organization: string;
  /** Backfill requests left over every stream of the organization (those with an estimate). */
  remaining_requests: number;
  /** Streams whose backfill is not done but has no estimate yet (all history, density unknown). */
  unknown_streams: number;
  /** Gap between run starts (s): the median observed, else the configured schedule's; null: unknown. */
  cadence_s: number | null;
  /** Where cadence_s comes from: 'observed' runs, the configured 'schedule', or null. */
  cadence_source: 'observed' | 'schedule' | null;
  /** Requests a run can give to backfill: the budget a run gets, less what its heads and re-reads take. */
  per_run: number;
  /** Requests a run spends on heads and re-reads at that cadence (the part per_run leaves out). */
  per_run_fresh: number;
  /** Runs at that cadence until history is complete (null: unknown or not reachable). */
  runs: number | null;
  /** Days those runs take at that cadence (null: unknown). */
  days: number | null;
  /** Set when the backfill takes more than SLOW_BACKFILL_DAYS: what it means and how to go faster. */
  warning: string | null;
}

export interface RateBudget {
  limit: number;
  windowMs: number;
}

/** Requests a run of this stream spends on its head and re-reads when runs are `cadenceS` apart. */
export function freshRequests(s: StreamCost, cadenceS: number): number {
  const units = s.byDay ? Math.max(1, Math.round((cadenceS * 1000) / DAY_MS))
    // Rounded, not ceiled: the head's and the re-reads' partial pages average out over runs.
    : s.density === null ? 1 : Math.max(1, Math.round((s.density * cadenceS * 1000) / s.pageSize));
  // At a cadence longer than a stage's slack, that stage's re-read is caught by a later one: at
  // least one re-read (the settle) is always made.
  const stages = Math.max(s.rereads.length ? 1 : 0, s.rereads.filter((st) => cadenceS * 1000 <= st.withinMs).length);
  return Math.max(units * (1 + stages), s.observedFresh ?? 0);
}

export function orgBackfill(streams: readonly StreamCost[], rate: RateBudget, scheduleCadenceS: number | null): OrgBackfill[] {
  const out: OrgBackfill[] = [];
  for (const org of [...new Set(streams.map((s) => s.organization))]) {
    const mine = streams.filter((s) => s.organization === org);
    const left = mine.filter((s) => !s.complete);
    const gaps = mine.map((s) => s.cadenceS).filter((c): c is number => c !== null && c > 0).sort((a, b) => a - b);
    const observed = gaps.length ? gaps[Math.floor(gaps.length / 2)]! : null;
    const cadenceS = observed ?? scheduleCadenceS;
    // Runs further apart than the window each start with the whole budget; closer ones share it.
    const windows = cadenceS === null ? 1 : Math.min(1, (cadenceS * 1000) / rate.windowMs);
    const fresh = mine.reduce((n, s) => n + freshRequests(s, cadenceS ?? DAY_MS / 1000), 0);
    const perRun = Math.max(0, Math.floor(rate.limit * windows) - fresh);
    const remaining = left.reduce((n, s) => n + (s.remainingRequests ?? 0), 0);
    const unknown = left.filter((s) => s.remainingRequests === null).length;
    const runs = !left.length ? 0 : unknown === left.length || perRun <= 0 ? null : Math.ceil(remaining / perRun);
    const days = runs === null || cadenceS === null ? null : (runs * cadenceS) / 86_400;
    const b: OrgBackfill = {
      organization: org, remaining_requests: remaining, unknown_streams: unknown, cadence_s: cadenceS,
      cadence_source: observed !== null ? 'observed' : scheduleCadenceS !== null ? 'schedule' : null,
      per_run: perRun, per_run_fresh: fresh, runs, days: days === null ? null : Math.round(days * 10) / 10, warning: null,
    };
    b.warning = slowWarning(b, rate);
    out.push(b);
  }
  return out;
}

/** The runs' name at a cadence: nightly, hourly, or "runs (one every …)". */
export function cadenceName(cadenceS: number | null): string {
  if (cadenceS === null) return 'runs';
  if (Math.abs(cadenceS - 86_400) <= 3 * 3600) return 'nightly runs';
  if (Math.abs(cadenceS - 3600) <= 600) return 'hourly runs';
  return `runs (one every ${formatDuration(cadenceS * 1000)})`;
}

/** The estimate as one phrase: "history complete in about N nightly runs (≈ D days)". */
export function estimatePhrase(b: OrgBackfill): string {
  return `history complete in about ${b.runs} ${cadenceName(b.cadence_s)}${b.days === null ? '' : ` (≈ ${fmtDays(b.days)})`}`;
}

const fmtDays = (d: number) => (d < 1 ? `${Math.round(d * 24)} h` : `${Math.round(d)} day${Math.round(d) === 1 ? '' : 's'}`);

function slowWarning(b: OrgBackfill, rate: RateBudget): string | null {
  if (b.runs === null || b.days === null || b.days <= SLOW_BACKFILL_DAYS) return null;
  // Hourly runs each get a window's budget (at the default 1h window) less an hour's heads.
  const hourly = hourlyEstimate(b, rate);
  return `first backfill of ${b.organization} is slow: ${estimatePhrase(b)}; until then older history is missing from every report. ` +
    `To go faster, run hourly until it is complete (schedule --cron '0 * * * *'${hourly === null ? '' : `: about ${hourly} runs`}), then back to the nightly cron; ` +
    'schedule --catch-up does both (hourly while a backfill is left, the configured cron after)';
}

/** Hourly runs until this organization's backfill is complete (the catch-up's "about N runs"); null: unknown. */
export function hourlyRuns(b: OrgBackfill, rate: RateBudget): number | null {
  if (b.runs === 0) return 0;
  // Runs already about hourly: the estimate is the observed cadence's.
  return b.cadence_s !== null && b.cadence_s <= 4200 ? b.runs : hourlyEstimate(b, rate);
}

function hourlyEstimate(b: OrgBackfill, rate: RateBudget): number | null {
  if (b.cadence_s === null || b.cadence_s <= 3600) return null;
  const fresh = Math.ceil((b.per_run_fresh * 3600) / b.cadence_s);
  const per = Math.floor(rate.limit * Math.min(1, 3_600_000 / rate.windowMs)) - Math.max(fresh, 1);
  return per > 0 ? Math.ceil(b.remaining_requests / per) : null;
}

/** The cadence of a cron expression when it is plainly hourly or daily (5 or 6 fields), else null. */
export function cronCadenceS(expr: string): number | null {
  const f = expr.trim().split(/\s+/);
  const [min, hour, dom, mon, dow] = f.length === 6 ? f.slice(1) : f;
  if (f.length < 5 || f.length > 6 || !/^\d+$/.test(min ?? '') || dom !== '*' || mon !== '*' || dow !== '*') return null;
  if (hour === '*') return 3600;
  if (/^\d+$/.test(hour ?? '')) return 86_400;
  const every = /^\*\/(\d+)$/.exec(hour ?? '');
  return every ? Number(every[1]) * 3600 : null;
}
