// The Prometheus series (docs/operations.md) in a registry of their own (never prom-client's global
// one), filled from an OpsView. Gauges show the view as it is; counters only grow: each update adds
// what the warehouse's totals grew by since the last one, so they are monotonic for the life of the
// registry (a fresh registry, as the textfile's, starts at the warehouse's totals).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { OpsView } from './ops-view.js';

const STREAM = ['project', 'pipeline', 'org'] as const;
/** Every status a run can end in (sync_runs.status): docs_etl_last_run_status has one series each. */
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'budget_exhausted', 'stopped', 'interrupted'] as const;
/** Seconds: a head-only run takes seconds, a backfill hours. */
const DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14_400];

export interface OpsMetrics {
  registry: Registry;
  update(view: OpsView): void;
}

const seconds = (iso: string | null) => (iso === null ? null : Date.parse(iso) / 1000);

export function createOpsMetrics(): OpsMetrics {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: readonly string[] = STREAM) => new Gauge({ name, help, labelNames, registers: [registry] });
  const counter = (name: string, help: string, labelNames: readonly string[] = STREAM) => new Counter({ name, help, labelNames, registers: [registry] });
  const g = {
    lastSuccess: gauge('docs_etl_last_success_timestamp_seconds', 'When the stream\'s last succeeded run finished (Unix seconds).'),
    lastRun: gauge('docs_etl_last_run_timestamp_seconds', 'When the stream\'s last run started (status --json last_run.started_at).'),
    lastStatus: gauge('docs_etl_last_run_status', '1 for the status of the stream\'s last run, 0 for the others.', [...STREAM, 'status']),
    newest: gauge('docs_etl_newest_record_timestamp_seconds', 'Event time (or day) of the newest record stored (status --json newest_record_at).'),
    head: gauge('docs_etl_head_timestamp_seconds', 'Coverage head: newest event time read completely (status --json head_at).'),
    unsettled: gauge('docs_etl_unsettled_seconds', 'Span before the head still to be re-read (status --json unsettled_s).'),
    used: gauge('docs_etl_budget_used', 'Requests in the organization\'s sliding budget window (status --json budget[].used).', ['org']),
    limit: gauge('docs_etl_budget_limit', 'Requests allowed per budget window (status --json budget[].limit).', ['org']),
    deferred: gauge('docs_etl_deferred_windows', 'Optional windows (re-reads, backfill) the last run left for later runs.'),
    healthy: gauge('docs_etl_healthy', 'The status --check verdict: 1 healthy, 0 not (every stream of an unhealthy check shows 0).'),
  };
  const c = {
    merged: counter('docs_etl_rows_merged_total', 'Rows merged (new or re-read) over all runs.'),
    quarantined: counter('docs_etl_rows_quarantined_total', 'Records quarantined (failed the contract) over all runs.'),
    requests: counter('docs_etl_api_requests_total', 'API requests by endpoint and status code (error: no answer).', [...STREAM, 'endpoint', 'code']),
    limited: counter('docs_etl_rate_limited_total', 'API answers 429 (rate limited).'),
  };
  const duration = new Histogram({
    name: 'docs_etl_run_duration_seconds', help: 'Duration of finished runs, per stream.', labelNames: STREAM, buckets: DURATION_BUCKETS, registers: [registry],
  });
  const seen = new Map<string, number>();
  const observed = new Set<string>();
  /** Adds to a counter what the total grew by since the last update (never negative). */
  const grow = (m: Counter, name: string, labels: Record<string, string>, total: number) => {
    const key = `${name}\u0000${JSON.stringify(labels)}`;
    const delta = total - (seen.get(key) ?? 0);
    if (delta > 0) m.inc(labels, delta);
    else if (!seen.has(key)) m.inc(labels, 0);
    seen.set(key, Math.max(total, seen.get(key) ?? 0));
  };

  return {
    registry,
    update(view) {
      for (const m of Object.values(g)) m.reset();
      for (const x of view.status.streams) {
        const l = { project: x.project_id, pipeline: x.pipeline, org: x.organization };
        if (x.last_run) {
          g.lastRun.set(l, seconds(x.last_run.started_at)!);
          for (const s of RUN_STATUSES) g.lastStatus.set({ ...l, status: s }, x.last_run.status === s ? 1 : 0);
        }
        if (x.newest_record_at) g.newest.set(l, seconds(x.newest_record_at)!);
        if (x.head_at) g.head.set(l, seconds(x.head_at)!);
        if (x.unsettled_s !== null) g.unsettled.set(l, x.unsettled_s);
        g.healthy.set(l, view.verdict.healthy ? 1 : 0);
      }
      if (!view.status.streams.length) g.healthy.set({ project: '', pipeline: '', org: '' }, view.verdict.healthy ? 1 : 0);
      for (const b of view.status.budget) {
        g.used.set({ org: b.organization }, b.used);
        g.limit.set({ org: b.organization }, b.limit);
      }
      for (const t of view.totals) {
        const l = { project: t.project_id, pipeline: t.pipeline, org: t.organization };
        if (t.last_success_ms !== null) g.lastSuccess.set(l, t.last_success_ms / 1000);
        g.deferred.set(l, t.deferred);
        grow(c.merged, 'merged', l, t.rows_merged);
        grow(c.quarantined, 'quarantined', l, t.rows_quarantined);
        grow(c.limited, 'limited', l, t.rate_limited);
      }
      for (const r of view.responses) {
        grow(c.requests, 'requests', { project: r.project_id, pipeline: r.pipeline, org: r.organization, endpoint: r.endpoint, code: r.code }, r.requests);
      }
      for (const d of view.durations) {
        if (observed.has(d.run_id)) continue;
        observed.add(d.run_id);
        duration.observe({ project: d.project_id, pipeline: d.pipeline, org: d.organization }, d.seconds);
      }
    },
  };
}
