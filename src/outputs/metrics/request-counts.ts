// Counts a sync's API responses per stream, endpoint and status code (SyncDeps.onResponse) and adds
// them, with each run's deferred windows, to the warehouse before the publish (SyncDeps.beforePublish):
// the request counters of the metrics are derived from there, so they survive restarts.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ProjectRunSummary } from '../../sync/run/summary.js';

export interface ResponseEvent { projectId: string; pipeline: string; organization: string; endpoint: string; code: string }

export interface RequestCounter {
  onResponse(e: ResponseEvent): void;
  /** Adds what was counted since the last write, and the runs' deferrals; then starts counting afresh. */
  write(conn: DuckDBConnection, runs: readonly ProjectRunSummary[]): Promise<void>;
}

export function createRequestCounter(): RequestCounter {
  let counts = new Map<string, { e: ResponseEvent; n: number }>();
  return {
    onResponse(e) {
      const k = [e.projectId, e.pipeline, e.organization, e.endpoint, e.code].join('\u0000');
      const c = counts.get(k);
      if (c) c.n++;
      else counts.set(k, { e, n: 1 });
    },
    async write(conn, runs) {
      const mine = counts;
      counts = new Map();
      for (const { e, n } of mine.values()) {
        await conn.run(
          `INSERT INTO api_responses VALUES ($p, $pl, $o, $e, $c, $n)
           ON CONFLICT DO UPDATE SET requests = api_responses.requests + excluded.requests`,
          { p: e.projectId, pl: e.pipeline, o: e.organization, e: e.endpoint, c: e.code, n },
        );
      }
      for (const r of runs) {
        await conn.run('INSERT OR REPLACE INTO run_deferrals VALUES ($r, $d)', { r: r.runId, d: r.deferred });
      }
    },
  };
}
