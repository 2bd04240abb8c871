// The coverage map and the window read log in the warehouse (tables `coverage`, `sync_windows`).
// The sync's state, shared: the load writes it, the run plans from it, status reports it; so it lives
// with the warehouse, below the stages and the outputs (docs/design.md, the layers).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { CoverageInterval } from '../core/intervals.js';
import { sqlFile } from './sql-files.js';

const iso = (ms: number) => new Date(ms).toISOString();

export async function readCoverage(conn: DuckDBConnection, projectId: string, pipeline: string): Promise<CoverageInterval[]> {
  const r = await conn.runAndReadAll(
    `SELECT epoch_ms(range_from) AS f, epoch_ms(range_to) AS t, epoch_ms(first_read_at) AS fr, epoch_ms(read_at) AS ra, reads, rows, settled
     FROM coverage WHERE project_id = $p AND pipeline = $pl ORDER BY range_from`,
    { p: projectId, pl: pipeline },
  );
  return r.getRowObjectsJS().map((x) => ({
    from: Number(x.f), to: Number(x.t), firstReadAt: Number(x.fr), readAt: Number(x.ra), reads: Number(x.reads),
    rows: x.rows === null ? null : Number(x.rows), settled: Boolean(x.settled),
  }));
}

/** Replaces a stream's map (inside the caller's transaction). */
export async function writeCoverage(conn: DuckDBConnection, projectId: string, pipeline: string, map: readonly CoverageInterval[]): Promise<void> {
  await conn.run('DELETE FROM coverage WHERE project_id = $p AND pipeline = $pl', { p: projectId, pl: pipeline });
  for (const iv of map) {
    await conn.run(sqlFile('load/insert-coverage.sql'), {
      project_id: projectId, pipeline, from: iso(iv.from), to: iso(iv.to), first_read_at: iso(iv.firstReadAt),
      read_at: iso(iv.readAt), reads: iv.reads, rows: iv.rows, settled: iv.settled,
    });
  }
}

export interface WindowRead {
  purpose: string;
  from: number;
  to: number;
  completedAt: number;
  rows: number;
  newRows: number;
  changedRows: number;
}

/** Complete window reads of a stream since `sinceMs`, oldest first (densities, lag profile). */
export async function readWindowLog(conn: DuckDBConnection, projectId: string, pipeline: string, sinceMs: number): Promise<WindowRead[]> {
  const r = await conn.runAndReadAll(
    `SELECT purpose, epoch_ms(window_from) AS f, epoch_ms(window_to) AS t, epoch_ms(completed_at) AS c, rows, new_rows, changed_rows
     FROM sync_windows WHERE project_id = $p AND pipeline = $pl AND completed_at >= CAST($since AS TIMESTAMPTZ)
     ORDER BY completed_at`,
    { p: projectId, pl: pipeline, since: iso(sinceMs) },
  );
  return r.getRowObjectsJS().map((x) => ({
    purpose: String(x.purpose), from: Number(x.f), to: Number(x.t), completedAt: Number(x.c),
    rows: Number(x.rows), newRows: Number(x.new_rows), changedRows: Number(x.changed_rows),
  }));
}

/** When the stream's last sweep (a read without dates) completed, in ms; null: never. */
export async function readLastSweep(conn: DuckDBConnection, projectId: string, pipeline: string): Promise<number | null> {
  const r = await conn.runAndReadAll(
    `SELECT epoch_ms(max(completed_at)) AS at FROM sync_windows WHERE project_id = $p AND pipeline = $pl AND purpose = 'sweep'`,
    { p: projectId, pl: pipeline },
  );
  const at = r.getRowObjectsJS()[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}
