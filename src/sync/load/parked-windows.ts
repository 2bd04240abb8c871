// The `parked_windows` table (sql/migrations/0014-parked-windows.sql): a stream's window that the
// API paged without end, and when it is read again (src/sync/plan/park-backoff.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { parkBackoffMs, type Parked } from '../plan/park-backoff.js';

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

export async function readParked(conn: DuckDBConnection, projectId: string, pipeline: string): Promise<Parked | null> {
  const r = (await conn.runAndReadAll(
    `SELECT window_from, window_to, purpose, reason, parked_at, attempts, retry_at FROM parked_windows WHERE project_id = $p AND pipeline = $n`,
    { p: projectId, n: pipeline },
  )).getRowObjectsJS()[0];
  if (!r) return null;
  return {
    from: toDate(r.window_from), to: toDate(r.window_to), purpose: (r.purpose as string | null) ?? null, reason: String(r.reason),
    parkedAt: toDate(r.parked_at), attempts: Number(r.attempts), retryAt: toDate(r.retry_at),
  };
}

/** Parks the window (attempts counted on from the stream's last park); returns the row written. */
export async function parkWindow(
  conn: DuckDBConnection, a: { projectId: string; pipeline: string; from: Date; to: Date; purpose: string | null; reason: string; now: Date },
): Promise<Parked> {
  const attempts = ((await readParked(conn, a.projectId, a.pipeline))?.attempts ?? 0) + 1;
  const retryAt = new Date(a.now.getTime() + parkBackoffMs(attempts));
  await conn.run(
    `INSERT OR REPLACE INTO parked_windows (project_id, pipeline, window_from, window_to, purpose, reason, parked_at, attempts, retry_at)
     VALUES ($p, $n, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), $purpose, $reason, CAST($now AS TIMESTAMPTZ), $attempts, CAST($retry AS TIMESTAMPTZ))`,
    {
      p: a.projectId, n: a.pipeline, from: a.from.toISOString(), to: a.to.toISOString(), purpose: a.purpose, reason: a.reason,
      now: a.now.toISOString(), attempts, retry: retryAt.toISOString(),
    },
  );
  return { from: a.from, to: a.to, purpose: a.purpose, reason: a.reason, parkedAt: a.now, attempts, retryAt };
}

export async function unparkWindow(conn: DuckDBConnection, projectId: string, pipeline: string): Promise<void> {
  await conn.run('DELETE FROM parked_windows WHERE project_id = $p AND pipeline = $n', { p: projectId, n: pipeline });
}
