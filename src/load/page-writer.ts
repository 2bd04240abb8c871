// Writes one page in ONE transaction: its turns, their sources (replaced), its quarantined records,
// the checkpoint and the run's counters. A crash loses at most the page in flight.
import type { DuckDBConnection } from '@duckdb/node-api';
import { messageOf } from '../core/errors.js';
import type { QuarantinedRecord } from '../normalize/turns.js';
import { sqlFile } from './sql-files.js';
import { inTransaction } from './warehouse.js';

/** The valid turns as JSON text, an object with them at `$.conversations` (a page body is one), and what validation learned about them. */
export interface PageJson {
  text: string;
  /** Indexes (0-based, in the array) of the turns carrying fields the contract does not name; absent: any may. */
  extraAt?: readonly number[];
  /** True when no turn appears twice in the array; absent: one may. */
  distinct?: boolean;
}

export interface PageWrite {
  projectId: string;
  pipeline: string;
  runId: string;
  now: Date;
  json: PageJson | null;
  quarantined: QuarantinedRecord[];
  checkpoint: { cursor: string | null; complete: boolean };
  requests: number;
  /**
   * The turns are probably not stored yet (a first sync): try a plain insert, much cheaper than the
   * upsert on a large table. If any turn is already stored, the page is written again with the upsert.
   */
  insertFirst?: boolean;
}

export interface PageWritten {
  upserted: number;
  /** How the turns were written: 'insert' (none was stored yet) or 'upsert'. */
  mode: 'insert' | 'upsert';
}

export async function writePage(conn: DuckDBConnection, w: PageWrite): Promise<PageWritten> {
  if (w.insertFirst) {
    try {
      return await writeOnce(conn, w, 'insert');
    } catch (err) {
      // A turn of the page is already stored (primary key): the transaction was rolled back.
      if (!w.json || !/^Constraint Error/.test(messageOf(err))) throw err;
    }
  }
  return writeOnce(conn, w, 'upsert');
}

async function writeOnce(conn: DuckDBConnection, w: PageWrite, mode: PageWritten['mode']): Promise<PageWritten> {
  const now = w.now.toISOString();
  const project_id = w.projectId;
  return inTransaction(conn, async () => {
    let upserted = 0;
    if (w.json) {
      await conn.run(sqlFile('load/page-input.sql'), { page: w.json.text, extra_at: w.json.extraAt ? JSON.stringify(w.json.extraAt) : null });
      await conn.run(sqlFile('load/stage-page.sql'), { project_id });
      if (w.json.distinct !== true) await conn.run(sqlFile('load/dedupe-page.sql'));
      const res = await conn.run(sqlFile(mode === 'insert' ? 'load/insert-conversations.sql' : 'load/upsert-conversations.sql'), { now });
      upserted = Number(res.rowsChanged);
      // Sources are only ever written with their turn, in its transaction: when the insert took
      // every turn as new, none of them has sources yet, and the scan of `sources` is skipped.
      if (mode === 'upsert') await conn.run(sqlFile('load/delete-sources.sql'), { project_id });
      await conn.run(sqlFile('load/insert-sources.sql'));
    }
    for (const q of w.quarantined) {
      await conn.run(sqlFile('load/insert-quarantine.sql'), {
        project_id, run_id: w.runId, now, error: q.error, raw: JSON.stringify(q.raw) ?? 'null',
      });
    }
    await conn.run(sqlFile('load/checkpoint.sql'), {
      project_id, pipeline: w.pipeline, run_id: w.runId, now,
      cursor: w.checkpoint.cursor, complete: w.checkpoint.complete, rows: upserted,
    });
    await conn.run(sqlFile('load/run-progress.sql'), {
      run_id: w.runId, requests: w.requests, rows: upserted, quarantined: w.quarantined.length,
    });
    return { upserted, mode };
  });
}
