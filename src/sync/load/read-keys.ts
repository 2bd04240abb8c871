// The keys a keyed pipeline reads (PipelineDefinition.keys): its SQL file run against the
// warehouse with `$project_id`, returning a column `key` (NULLs and repeats dropped, order kept).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { sqlFile } from '../../warehouse/sql-files.js';

export async function readKeys(conn: DuckDBConnection, p: PipelineDefinition, projectId: string): Promise<string[] | null> {
  if (!p.keys) return null;
  // A dry run plans from a warehouse as it is, without migrating it: a table the pipeline has not
  // got yet holds nothing, so its keys cannot be read there (the sync itself migrates first).
  const have = new Set((await conn.runAndReadAll('SELECT table_name FROM duckdb_tables()')).getRowObjectsJS().map((r) => String(r.table_name)));
  if (p.tables.some((t) => !have.has(t))) return [];
  const rows = (await conn.runAndReadAll(sqlFile(p.keys.sql), { project_id: projectId })).getRowObjectsJS();
  const keys: string[] = [];
  for (const r of rows) if (r.key !== null && r.key !== undefined) keys.push(String(r.key));
  return [...new Set(keys)];
}
