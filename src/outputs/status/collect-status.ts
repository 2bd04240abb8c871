// What `docs-etl status` reports, as data (the CLI prints it as text or JSON): per stream, how
// fresh and how complete the data is, what the budget allows, and whether the schedule keeps up.
import type { DuckDBConnection } from '@duckdb/node-api';
import { PIPELINES } from '../../../pipelines/index.js';
import { createBudget } from '../../budget/budget.js';
import { openBudgetBackend, type BudgetBackend } from '../../budget/open-budget-store.js';
import type { Clock } from '../../core/clock.js';
import type { RateLimit } from '../../core/duration.js';
import { formatDuration } from '../../core/duration.js';
import { readCoverage, readWindowLog } from '../../warehouse/coverage-store.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { DENSITY_LOOKBACK_MS, density } from '../../sync/plan/density.js';
import { defaultHistoryFrom, pageSize, rereadsOf, streamKey, type PipelineDefinition } from '../../sync/pipeline/definition.js';
import { parkedLine, readParkedStatus, type ParkedStatus } from './parked-status.js';
import { newestRecordMs } from './newest-record.js';
import { orgBackfill, type OrgBackfill, type StreamCost } from './backfill-estimate.js';
import { readHistoryProbe, turnsBetween } from '../../warehouse/history-probes.js';
import { PROBED_PIPELINE } from '../../sync/plan/history-start.js';
import { DEFAULT_REREADS } from '../../sync/plan/reread-schedule.js';

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

export type { OrgBackfill } from './backfill-estimate.js';

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
  /** The configured schedule's gap between runs (s; DOCS_ETL_CRON): the cadence before two runs are seen. */
  scheduleCadenceS?: number | null;
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
    .map((r) => [streamKey(String(r.project_id), String(r.pipeline)), Number(r.cadence_s)]));
  const fresh = new Map((await i.conn.runAndReadAll(sqlFile('status/fresh-requests.sql'))).getRowObjectsJS()
    .map((r) => [streamKey(String(r.project_id), String(r.pipeline)), Number(r.pages)]));
  const budgets = new Map<string, BudgetStatus>();
  const streams: StreamStatus[] = [];
  const costs: StreamCost[] = [];
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
    // Days with data only: the empty weeks below history's start say nothing of its density.
    const log = await readWindowLog(i.conn, projectId, pipelineName, now - DENSITY_LOOKBACK_MS);
    const d = density(log.filter((w) => w.rows > 0), coverage.filter((c) => c.rows !== 0)) ?? density(log, coverage);
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
      : byDay && pipeline ? defaultHistoryFrom(pipeline, now) + DAY_MS : null;
    const complete = coveredFrom !== null && (from !== null ? coveredFrom <= from : Boolean(r.bottom_empty) || coveredFrom === 0);
    const probed = !complete && from === null && pipelineName === PROBED_PIPELINE && coveredFrom !== null
      ? await probedRemaining(i, projectId, pipelineName, coveredFrom, size) : null;
    const remainingRequests = complete ? 0 : probed !== null ? probed : d === null || from === null || coveredFrom === null
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
      // Turns are the assistant's: other pipelines' rows are not turns (null there).
      turns_per_day: d === null || pipelineName !== PROBED_PIPELINE ? null : Math.round(d * 86_400_000),
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
      parked: parked.get(streamKey(projectId, pipelineName)) ?? null,
      warnings: [],
    };
    if (s.parked) s.warnings.push(parkedLine(s.parked));
    s.warnings.push(...keepUpWarnings(s, d, size, cadence.get(streamKey(projectId, pipelineName)) ?? null, i));
    streams.push(s);
    costs.push({
      organization: org, complete, remainingRequests, density: d, pageSize: size, byDay,
      rereads: pipeline ? rereadsOf(pipeline, DEFAULT_REREADS) : DEFAULT_REREADS, observedFresh: fresh.get(streamKey(projectId, pipelineName)) ?? null, cadenceS: cadence.get(streamKey(projectId, pipelineName)) ?? null,
    });
  }
  return {
    checked_at: new Date(now).toISOString(), warehouse: i.warehouse, read_path: i.readPath, lake: i.lake, streams, budget: [...budgets.values()],
    budget_store: backend.where,
    backfill: orgBackfill(costs, i.rate, i.scheduleCadenceS ?? null),
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
 * An all-history assistant stream's backfill left, from its probe (run/history-probe.ts): the
 * turns older than the probe, less those read since below it, in pages, plus a request per week
 * left (partial pages) and the final empty window. Null: not probed.
 */
async function probedRemaining(i: StatusInput, projectId: string, pipeline: string, coveredFrom: number, size: number): Promise<number | null> {
  const p = await readHistoryProbe(i.conn, projectId, pipeline);
  if (!p) return null;
  const rows = Math.max(0, p.rows - (await turnsBetween(i.conn, projectId, coveredFrom, p.probeTo)));
  if (rows === 0) return 1;
  const weeks = p.historyStart && p.historyStart > 0 ? Math.max(1, Math.ceil((coveredFrom - p.historyStart) / (7 * DAY_MS))) : 1;
  return Math.ceil(rows / size) + weeks + 1;
}
