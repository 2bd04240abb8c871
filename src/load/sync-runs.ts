// One sync_runs row per run: 'running' at start, its outcome at the end, counters per page.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Window } from './sync-state.js';
import { sqlFile } from './sql-files.js';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'budget_exhausted' | 'stopped' | 'interrupted';

export async function interruptStaleRuns(conn: DuckDBConnection, now: Date): Promise<void> {
  await conn.run(sqlFile('load/interrupt-stale-runs.sql'), { now: now.toISOString() });
}

export async function startRun(conn: DuckDBConnection, a: { runId: string; projectId: string; pipeline: string; now: Date }): Promise<void> {
  await conn.run(sqlFile('load/start-run.sql'), { run_id: a.runId, project_id: a.projectId, pipeline: a.pipeline, now: a.now.toISOString() });
}

export async function finishRun(
  conn: DuckDBConnection,
  a: { runId: string; status: RunStatus; error: string | null; window: Window | null; now: Date },
): Promise<void> {
  await conn.run(sqlFile('load/finish-run.sql'), {
    run_id: a.runId, status: a.status, error: a.error, now: a.now.toISOString(),
    window_from: a.window?.from?.toISOString() ?? null, window_to: a.window?.to.toISOString() ?? null,
  });
}
