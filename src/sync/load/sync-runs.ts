// One sync_runs row per run of a stream: 'running' at start, its outcome at the end; the merge adds
// each batch's pages, rows and quarantined records to it.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'budget_exhausted' | 'stopped' | 'interrupted';

export async function interruptStaleRuns(conn: DuckDBConnection, now: Date): Promise<void> {
  await conn.run(sqlFile('load/interrupt-stale-runs.sql'), { now: now.toISOString() });
}

export async function registerStream(
  conn: DuckDBConnection, a: { projectId: string; pipeline: string; organization: string; backfillFrom: Date | null; now: Date },
): Promise<void> {
  await conn.run(sqlFile('load/register-stream.sql'), {
    project_id: a.projectId, pipeline: a.pipeline, organization: a.organization, backfill_from: a.backfillFrom?.toISOString() ?? null, now: a.now.toISOString(),
  });
}

export async function startRun(conn: DuckDBConnection, a: { runId: string; projectId: string; pipeline: string; now: Date }): Promise<void> {
  await conn.run(sqlFile('load/start-run.sql'), { run_id: a.runId, project_id: a.projectId, pipeline: a.pipeline, now: a.now.toISOString() });
}

export async function finishRun(
  conn: DuckDBConnection,
  a: { runId: string; status: RunStatus; error: string | null; requests: number; span: { from: Date; to: Date } | null; now: Date },
): Promise<void> {
  await conn.run(sqlFile('load/finish-run.sql'), {
    run_id: a.runId, status: a.status, error: a.error, requests: a.requests, now: a.now.toISOString(),
    window_from: a.span?.from.toISOString() ?? null, window_to: a.span?.to.toISOString() ?? null,
  });
}
