// `status --check`: the health check a monitor runs. Unhealthy, with one line per stream naming it
// and the reason, when: no run is recorded; a 429 block holds; a stream's last run failed (its
// merge failed, a fatal answer) or is older than --max-age; a stream stopped on the budget in the
// same open window on `stuckRuns` consecutive runs (nothing completed, or the window was open before
// them: sql/status/stuck-streams.sql); a due re-read is past its deadline by more than
// `overdueMs` (late statuses and arrivals are going stale). A budget stop alone is healthy: the
// next run continues.
import type { DuckDBConnection } from '@duckdb/node-api';
import { PIPELINES } from '../../../pipelines/index.js';
import type { Clock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { readCoverage } from '../../warehouse/coverage-store.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { rereadsOf, type PipelineDefinition } from '../../sync/pipeline/definition.js';
import { DEFAULT_REREADS, dueReread, type RereadStage } from '../../sync/plan/reread-schedule.js';
import type { Status } from './collect-status.js';
import { parkedLine } from './parked-status.js';
import { staleLine, staleStreams, type FreshnessSla } from './freshness.js';

/** A tick stopped by the rate budget is a normal outcome: the next run continues. */
const HEALTHY = new Set(['succeeded', 'budget_exhausted']);
/** Consecutive budget stops in one open window that make a stream "stuck". */
export const STUCK_RUNS = 3;
/** How far past its deadline a due re-read may be before the check fails. */
export const OVERDUE_MS = 86_400_000;

export interface HealthFacts {
  /** Streams stuck in one open window (see sql/status/stuck-streams.sql). */
  stuck: { project_id: string; pipeline: string; runs: number; since: string; window: string }[];
  /** The most overdue re-read of each stream whose re-read is past its deadline by over OVERDUE_MS. */
  overdue: { project_id: string; pipeline: string; purpose: string; interval: string; overdue_ms: number }[];
}

/** Reads what the check needs beyond `Status` from the warehouse. */
export async function collectHealthFacts(
  conn: DuckDBConnection, clock: Clock, opts: { rereads?: readonly RereadStage[]; stuckRuns?: number } = {},
): Promise<HealthFacts> {
  const now = clock.now().getTime();
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
  const stuck = (await conn.runAndReadAll(sqlFile('status/stuck-streams.sql'), { runs: opts.stuckRuns ?? STUCK_RUNS })).getRowObjectsJS().map((r) => ({
    project_id: String(r.project_id), pipeline: String(r.pipeline), runs: Number(r.runs), since: iso(r.since),
    window: `${String(r.window_purpose ?? '')} ${iso(r.window_from)} → ${iso(r.window_to)}`.trim(),
  }));
  const overdue: HealthFacts['overdue'] = [];
  const streams = (await conn.runAndReadAll('SELECT DISTINCT project_id, pipeline FROM coverage ORDER BY ALL')).getRowObjectsJS();
  for (const s of streams) {
    const pipeline = (PIPELINES as readonly PipelineDefinition[]).find((p) => p.name === s.pipeline);
    const stages = rereadsOf(pipeline, opts.rereads ?? DEFAULT_REREADS);
    let worst: HealthFacts['overdue'][number] | null = null;
    for (const iv of await readCoverage(conn, String(s.project_id), String(s.pipeline))) {
      if (iv.settled) continue;
      const due = dueReread(stages, iv.to, iv.readAt, now);
      if (!due || now - due.deadline <= OVERDUE_MS) continue;
      if (!worst || now - due.deadline > worst.overdue_ms) {
        worst = {
          project_id: String(s.project_id), pipeline: String(s.pipeline), purpose: due.purpose,
          interval: `${new Date(iv.from).toISOString()} → ${new Date(iv.to).toISOString()}`, overdue_ms: now - due.deadline,
        };
      }
    }
    if (worst) overdue.push(worst);
  }
  return { stuck, overdue };
}

/** One line per problem; empty: healthy. */
export function healthProblems(s: Status, opts: { maxAgeMs: number; facts?: HealthFacts; freshness?: FreshnessSla }): string[] {
  const now = Date.parse(s.checked_at);
  const out: string[] = [];
  if (!s.streams.length) out.push('no runs recorded yet');
  for (const b of s.budget) if (b.blocked_until) out.push(`${b.organization}: the API answered 429, blocked until ${b.blocked_until}`);
  for (const x of s.streams) {
    const name = `${x.project_id}/${x.pipeline}`;
    const r = x.last_run;
    // A sync in progress (a long backfill publishes snapshots as it goes) is healthy while it
    // started within the allowed age; a run left 'running' by a crash is marked interrupted by the next.
    if (r?.status === 'running' && now - Date.parse(r.started_at) <= opts.maxAgeMs) continue;
    if (!r || !HEALTHY.has(r.status)) {
      out.push(`${name}: last run ${r?.status ?? 'missing'}${r?.error ? ` (${r.error})` : ''}`);
      continue;
    }
    const finished = r.finished_at ? Date.parse(r.finished_at) : NaN;
    if (!(now - finished <= opts.maxAgeMs)) out.push(`${name}: last run finished ${Number.isNaN(finished) ? 'never' : `${formatDuration(now - finished)} ago`}`);
  }
  for (const x of s.streams) if (x.parked) out.push(`${x.project_id}/${x.pipeline}: ${parkedLine(x.parked)}`);
  for (const x of opts.facts?.stuck ?? []) {
    out.push(`${x.project_id}/${x.pipeline}: stuck: stopped on the budget in the same open window (${x.window}) on ${x.runs} consecutive runs since ${x.since}`);
  }
  for (const x of opts.facts?.overdue ?? []) {
    out.push(`${x.project_id}/${x.pipeline}: a due ${x.purpose} read (${x.interval}) is ${formatDuration(x.overdue_ms)} past its deadline`);
  }
  if (opts.freshness) out.push(...staleStreams(s, opts.freshness).map(staleLine));
  return out;
}
