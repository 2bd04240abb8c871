// Writes one page in ONE transaction: its turns (upsert), their sources (replaced), its quarantined
// records, the checkpoint and the run's counters. A crash loses at most the page in flight.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { QuarantinedRecord } from '../normalize/turns.js';
import { sqlFile } from './sql-files.js';
import { inTransaction } from './warehouse.js';

export interface PageWrite {
  projectId: string;
  pipeline: string;
  runId: string;
  now: Date;
  /** JSON text holding the valid turns, and the JSON path of their array in it. */
  json: { text: string; path: string } | null;
  quarantined: QuarantinedRecord[];
  checkpoint: { cursor: string | null; complete: boolean };
  requests: number;
}

export async function writePage(conn: DuckDBConnection, w: PageWrite): Promise<{ upserted: number }> {
  const now = w.now.toISOString();
  const project_id = w.projectId;
  return inTransaction(conn, async () => {
    let upserted = 0;
    if (w.json) {
      await conn.run(sqlFile('load/stage-page.sql'), { page: w.json.text, path: w.json.path, project_id });
      const res = await conn.run(sqlFile('load/upsert-conversations.sql'), { now });
      upserted = Number(res.rowsChanged);
      await conn.run(sqlFile('load/delete-sources.sql'), { project_id });
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
    return { upserted };
  });
}
