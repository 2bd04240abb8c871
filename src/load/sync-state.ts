// The checkpoint of a project's pipeline: high-water mark and the open window with its cursor.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from './sql-files.js';

export interface Window {
  from: Date | null;
  to: Date;
}

export interface SyncState {
  highWater: Date | null;
  open: (Window & { cursor: string | null; pages: number; rows: number }) | null;
}

export async function readSyncState(conn: DuckDBConnection, projectId: string, pipeline: string): Promise<SyncState> {
  const r = await conn.runAndReadAll(
    `SELECT epoch_ms(high_water) AS hw, epoch_ms(window_from) AS wf, epoch_ms(window_to) AS wt, cursor, pages, rows
     FROM sync_state WHERE project_id = $p AND pipeline = $pl`,
    { p: projectId, pl: pipeline },
  );
  const row = r.getRowObjectsJS()[0];
  if (!row) return { highWater: null, open: null };
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)));
  const to = date(row.wt);
  return {
    highWater: date(row.hw),
    open: to
      ? { from: date(row.wf), to, cursor: (row.cursor as string | null) ?? null, pages: Number(row.pages), rows: Number(row.rows) }
      : null,
  };
}

export async function openWindow(
  conn: DuckDBConnection,
  a: { projectId: string; pipeline: string; organization: string; window: Window; runId: string; now: Date },
): Promise<void> {
  await conn.run(sqlFile('load/open-window.sql'), {
    project_id: a.projectId, pipeline: a.pipeline, organization: a.organization,
    window_from: a.window.from?.toISOString() ?? null, window_to: a.window.to.toISOString(),
    run_id: a.runId, now: a.now.toISOString(),
  });
}
