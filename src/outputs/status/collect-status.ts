// What `docs-etl status` reports, as data (the CLI prints it as text or JSON): per stream, how
// fresh and how complete the data is, what the budget allows, and whether the schedule keeps up.
import type { DuckDBConnection } from '@duckdb/node-api';
import { PIPELINES } from '../../../pipelines/index.js';
import { createBudget } from '../../sync/api/budget.js';
import { openBudgetBackend, type BudgetBackend } from '../../sync/api/open-budget-store.js';
import type { Clock } from '../../core/clock.js';
import type { RateLimit } from '../../core/duration.js';
import { formatDuration } from '../../core/duration.js';
import { readCoverage, readWindowLog } from '../../sync/load/coverage-store.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { DENSITY_LOOKBACK_MS, density } from '../../sync/plan/density.js';
import { pageSize, type PipelineDefinition } from '../../sync/pipeline/definition.js';
import { parkedLine, readParkedStatus, type ParkedStatus } from './parked-status.js';
import { newestRecordMs } from './newest-record.js';

const DAY_MS = 86_400_000;

export interface StreamStatus {
  project_id: string;
  pipeline: string;
  organization: string;
  /** Newest event time read completely, and how long ago that is. */
  head_at: string | null;
  head_lag_s: number | null;
  /** The newest record stored (event time or day): it stops moving when no new data arrives (status/newest-record.ts). */
  newest_record_at: string | null;
  /** Everything before this is settled (no re-read due); the rest is still re-read on schedule. */
  settled_to: string | null;
  unsettled_s: number | null;
  covered_from: string | null;
  open_window: { from: string; to: string; purpose: string | null; pages: number } | null;
  /** Backfill left: requests and hours at the current budget (null when unknown). */
  backfill: { complete: boolean; remaining_requests: number | null; remaining_hours: number | null };
  turns_per_day: number | null;
  last_run: { status: string; started_at: string; finished_at: string | null; requests: number; error: string | null } | null;
  quarantined: number;
  lag_profile: { purpose: string; age: string; reads: number; rows: number; new_share: number; changed_share: number }[];
  /** A window the API paged without end, not read before `retry_at` (parked-status.ts). */
  parked: ParkedStatus | null;
  warnings: string[];
}

export interface BudgetStatus {
  organization: string;
  used: number;
  limit: number;
  window: string;
  blocked_until: string | null;
}

export interface Status {
  checked_at: string;
  warehouse: string;
  read_path: string;
  lake: string | null;
  streams: StreamStatus[];
  budget: BudgetStatus[];
  /** Where the request logs are: the budget folder, or the Redis URL with its password redacted. */
  budget_store: string;
  /** Per organization: all its streams' backfill together, at the runs' observed cadence. */
  backfill: OrgBackfill[];
}

export interface OrgBackfill {
  organization: string;
  /** Backfill requests left over every stream of the organization (those with an estimate). */
  remaining_requests: number;
  /** Streams whose backfill is not done but has no estimate yet (all history, density unknown). */
  unknown_streams: number;
  /** Median gap between run starts (s); null with fewer than two runs. */
  cadence_s: number | null;
  /** Requests a run can give to backfill: the budget a run gets (one window's, or its share at shorter cadences), less a head and a re-read per stream. */
  per_run: number;
  /** Runs at that cadence until history is complete (null: unknown or not reachable). */
  runs: number | null;
}

export interface StatusInput {
  conn: DuckDBConnection;
  clock: Clock;
  warehouse: string;
  readPath: string;
  lake: string | null;
  budgetDir: string;
  /** The budget folder of older versions to migrate into budgetDir (per-user default only); `onWarning` hears the one line. */
  legacyBudgetDir?: string | null;
  onWarning?: (message: string) => void;
  /** DOCS_ETL_BUDGET_URL: usage and blocks are read from Redis (unreachable: FatalError). */
  budgetUrl?: string | null;
  rate: RateLimit;
  maxWaitMs: number;
}

const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : v == null ? null : new Date(String(v)).toISOString());

export async function collectStatus(i: StatusInput): Promise<Status> {
  const backend = await openBudgetBackend({ url: i.budgetUrl ?? null, dir: i.budgetDir, legacyDir: i.legacyBudgetDir, onWarning: i.onWarning }, i.clock);
  try {
    return await collect(i, backend);
  } finally {
    await backend.close();
  }
}

async function collect(i: StatusInput, backend: BudgetBackend): Promise<Status> {
  const now = i.clock.now().getTime();
  const rows = (await i.conn.runAndReadAll(sqlFile('status/streams.sql'))).getRowObjectsJS();
  const lag = (await i.conn.runAndReadAll(sqlFile('status/lag-profile.sql'))).getRowObjectsJS();
  const cadence = new Map((await i.conn.runAndReadAll(sqlFile('status/run-cadence.sql'))).getRowObjectsJS()
    .map((r) => [`${r.project_id}\u0000${r.pipeline}`, Number(r.cadence_s)]));
  const budgets = new Map<string, BudgetStatus>();
  const streams: StreamStatus[] = [];
  const parked = await readParkedStatus(i.conn);
  for (const r of rows) {
    const projectId = String(r.project_id);
    const pipelineName = String(r.pipeline);
    const org = String(r.organization);
    if (!budgets.has(org)) {
      const budget = createBudget({ store: backend.store(org), rate: i.rate, clock: i.clock, maxWaitMs: 0 });
      await budget.refresh();
      const u = budget.usage();
      const blocked = u.blockedUntil > i.clock.now().getTime() ? new Date(u.blockedUntil).toISOString() : null;
      budgets.set(org, { organization: org, used: u.used, limit: u.limit, window: formatDuration(u.windowMs), blocked_until: blocked });
    }
    const pipeline: PipelineDefinition | undefined = PIPELINES.find((p) => p.name === pipelineName);
    const coverage = await readCoverage(i.conn, projectId, pipelineName);
    const d = density(await readWindowLog(i.conn, projectId, pipelineName, now - DENSITY_LOOKBACK_MS), coverage);
    const size = pipeline ? pageSize(pipeline) : 1000;
    const newest = await newestRecordMs(i.conn, pipeline, projectId);
    const headAt = r.head_at == null ? null : new Date(iso(r.head_at)!).getTime();
    const settledTo = r.settled_to == null ? null : new Date(iso(r.settled_to)!).getTime();
    const coveredFrom = r.covered_from == null ? null : new Date(iso(r.covered_from)!).getTime();
    // Backfill is done when coverage reaches --from, or (all history) when its bottom came back
    // empty; day pipelines without --from read their default history of days (one request or more
    // each; the first day may start up to a day after that bound, at the project's midnight).
    const byDay = pipeline?.time.granularity === 'day';
    const from = r.backfill_from != null ? new Date(iso(r.backfill_from)!).getTime()
      : byDay ? now - ((pipeline?.defaultHistoryDays ?? 30) - 1) * DAY_MS : null;
    const complete = coveredFrom !== null && (from !== null ? coveredFrom <= from : Boolean(r.bottom_empty) || coveredFrom === 0);
    const remainingRequests = complete ? 0 : d === null || from === null || coveredFrom === null
      ? (byDay && from !== null && coveredFrom !== null ? Math.ceil((coveredFrom - from) / DAY_MS) : null)
      : Math.max(byDay ? Math.ceil((coveredFrom - from) / DAY_MS) : 0, Math.ceil((d * (coveredFrom - from)) / size));
    const s: StreamStatus = {
      project_id: projectId, pipeline: pipelineName, organization: org,
      head_at: headAt === null ? null : new Date(headAt).toISOString(),
      head_lag_s: headAt === null ? null : Math.round((now - headAt) / 1000),
      newest_record_at: newest === null ? null : new Date(newest).toISOString(),
      settled_to: settledTo === null ? null : new Date(settledTo).toISOString(),
      unsettled_s: headAt === null || settledTo === null ? null : Math.round((headAt - settledTo) / 1000),
      covered_from: coveredFrom === null ? null : new Date(coveredFrom).toISOString(),
      open_window: r.window_to == null ? null : {
        from: iso(r.window_from)!, to: iso(r.window_to)!, purpose: (r.window_purpose as string | null) ?? null, pages: Number(r.window_pages),
      },
      backfill: {
        complete,
        remaining_requests: remainingRequests,
        remaining_hours: remainingRequests === null ? null : (remainingRequests / i.rate.limit) * (i.rate.windowMs / 3_600_000),
      },
      turns_per_day: d === null ? null : Math.round(d * 86_400_000),
      last_run: r.last_status == null ? null : {
        status: String(r.last_status), started_at: iso(r.last_started_at)!, finished_at: iso(r.last_finished_at),
        requests: Number(r.last_requests ?? 0), error: (r.last_error as string | null) ?? null,
      },
      quarantined: Number(r.quarantined),
      lag_profile: lag.filter((x) => x.project_id === projectId && x.pipeline === pipelineName).map((x) => ({
        purpose: String(x.purpose), age: String(x.age), reads: Number(x.reads), rows: Number(x.rows),
        new_share: Number(x.rows) ? Number(x.new_rows) / Number(x.rows) : 0,
        changed_share: Number(x.rows) ? Number(x.changed_rows) / Number(x.rows) : 0,
      })),
      parked: parked.get(`${projectId}\u0000${pipelineName}`) ?? null,
      warnings: [],
    };
    if (s.parked) s.warnings.push(parkedLine(s.parked));
    s.warnings.push(...keepUpWarnings(s, d, size, cadence.get(`${projectId}\u0000${pipelineName}`) ?? null, i));
    streams.push(s);
  }
  return {
    checked_at: new Date(now).toISOString(), warehouse: i.warehouse, read_path: i.readPath, lake: i.lake, streams, budget: [...budgets.values()],
    budget_store: backend.where,
    backfill: orgBackfill(streams, cadence, i),
  };
}

/**
 * A run reads the new data once (head) and an older span once more (settle): about twice the
 * turns that arrived since the last run. When that needs more budget than a run can get (its
 * window's limit plus --max-wait), the schedule falls behind.
 */
function keepUpWarnings(s: StreamStatus, d: number | null, size: number, cadenceS: number | null, i: StatusInput): string[] {
  if (d === null || cadenceS === null || cadenceS <= 0) return [];
  const perDay = d * 86_400_000;
  const need = Math.ceil((2 * d * cadenceS * 1000) / size) + 1;
  const canGet = i.rate.limit * (1 + i.maxWaitMs / i.rate.windowMs);
  if (need <= canGet) return [];
  const hours = (need / i.rate.limit) * (i.rate.windowMs / 3_600_000);
  const every = formatDuration(cadenceS * 1000);
  return [
    `runs every ${every} at ${Math.round(perDay / 1000)}k turns/day need about ${need} requests (${hours.toFixed(1)} h of budget) a run: ` +
    `run more often (hourly needs ${Math.ceil((2 * perDay) / 24 / size) + 1}) or allow --max-wait ${Math.ceil(hours)}h`,
  ];
}

/**
 * One organization's backfill, all pipelines together: they share one budget, so the streams'
 * own estimates (each as if it had the whole budget) add up. A run gets the budget of one window
 * (plus what --max-wait lets free up) and spends about a head and a re-read per stream first.
 */
function orgBackfill(streams: readonly StreamStatus[], cadence: ReadonlyMap<string, number>, i: StatusInput): OrgBackfill[] {
  const out: OrgBackfill[] = [];
  for (const org of [...new Set(streams.map((s) => s.organization))]) {
    const mine = streams.filter((s) => s.organization === org);
    const left = mine.filter((s) => !s.backfill.complete);
    const gaps = mine.map((s) => cadence.get(`${s.project_id}\u0000${s.pipeline}`)).filter((c): c is number => c !== undefined && c > 0).sort((a, b) => a - b);
    const cadenceS = gaps.length ? gaps[Math.floor(gaps.length / 2)]! : null;
    // Runs further apart than the window each start with the whole budget; closer ones share it.
    const windows = cadenceS === null ? 1 : Math.min(1, (cadenceS * 1000) / i.rate.windowMs);
    const perRun = Math.max(0, Math.floor(i.rate.limit * windows) - 2 * mine.length);
    const remaining = left.reduce((n, s) => n + (s.backfill.remaining_requests ?? 0), 0);
    const unknown = left.filter((s) => s.backfill.remaining_requests === null).length;
    out.push({
      organization: org, remaining_requests: remaining, unknown_streams: unknown, cadence_s: cadenceS, per_run: perRun,
      runs: unknown || !left.length ? (left.length ? null : 0) : perRun > 0 ? Math.ceil(remaining / perRun) : null,
    });
  }
  return out;
}
