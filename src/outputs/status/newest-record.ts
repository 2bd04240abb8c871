// The newest record a stream stored (its event time or day), for `status` (newest_record_at) and the
// freshness SLAs: the coverage head advances on every successful run, the newest record only when
// new data arrives, so it is what shows data going stale while the runs succeed.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import type { PipelineDefinition } from '../../sync/pipeline/definition.js';

/** The table and column that date a pipeline's records: its first lake table's layout column, else its time column. */
function datingColumn(p: PipelineDefinition): { table: string; column: string } | null {
  const lake = p.lake?.[0];
  if (lake && 'column' in lake.layout && p.tables.includes(lake.name)) return { table: lake.name, column: lake.layout.column };
  const table = p.tables[0];
  return table ? { table, column: p.time.column } : null;
}

/** Epoch ms of the newest record of the stream; null when it has none (or its table has no such column). */
export async function newestRecordMs(conn: DuckDBConnection, p: PipelineDefinition | undefined, projectId: string): Promise<number | null> {
  const at = p ? datingColumn(p) : null;
  if (!at) return null;
  try {
    const r = await conn.runAndReadAll(
      `SELECT epoch_ms(max(${quotedIdentifier(at.column)})::TIMESTAMPTZ) AS ms FROM ${quotedIdentifier(at.table)} WHERE project_id = $p`, { p: projectId });
    const v = r.getRowObjectsJS()[0]?.ms;
    return v == null ? null : Number(v);
  } catch {
    return null;
  }
}
