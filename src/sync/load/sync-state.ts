// The checkpoint of a stream (project and pipeline) in `sync_state`: the open window and where it
// continues, the last landed page merged, and the bisection hint. Written only by the merge, in
// the transaction of the pages it describes.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Purpose, Window } from '../../core/window.js';

export interface OpenWindow extends Window {
  id: string;
  cursor: string | null;
  offset: number | null;
  pages: number;
  rows: number;
  newRows: number;
  changedRows: number;
  runId: string | null;
}

export interface StreamState {
  highWater: Date | null;
  mergedSeq: number;
  /** Largest window span that worked after a bisection (null: no limit learned). */
  windowLimitMs: number | null;
  open: OpenWindow | null;
}

export const EMPTY_STATE: StreamState = { highWater: null, mergedSeq: 0, windowLimitMs: null, open: null };

export async function readSyncState(conn: DuckDBConnection, projectId: string, pipeline: string): Promise<StreamState> {
  const r = await conn.runAndReadAll(
    `SELECT epoch_ms(high_water) AS hw, epoch_ms(window_from) AS wf, epoch_ms(window_to) AS wt, window_purpose, window_id,
            cursor, "offset", pages, rows, window_new, window_changed, merged_seq, window_limit_ms, run_id
     FROM sync_state WHERE project_id = $p AND pipeline = $pl`,
    { p: projectId, pl: pipeline },
  );
  const row = r.getRowObjectsJS()[0];
  if (!row) return EMPTY_STATE;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const wf = num(row.wf);
  const wt = num(row.wt);
  return {
    highWater: row.hw === null ? null : new Date(Number(row.hw)),
    mergedSeq: num(row.merged_seq) ?? 0,
    windowLimitMs: num(row.window_limit_ms),
    open: wt === null
      ? null
      : {
        // A window opened before coverage existed (an older version) starts at the beginning.
        from: new Date(wf ?? 0), to: new Date(wt), purpose: ((row.window_purpose as Purpose | null) ?? 'backfill'),
        id: (row.window_id as string | null) ?? `legacy-${wt}`, cursor: (row.cursor as string | null) ?? null, offset: num(row.offset),
        pages: Number(row.pages), rows: Number(row.rows), newRows: num(row.window_new) ?? 0, changedRows: num(row.window_changed) ?? 0,
        runId: (row.run_id as string | null) ?? null,
      },
  };
}
