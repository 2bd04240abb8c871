// What the warehouse holds now, per lake partition and per small table, as signatures to compare
// with the manifest. One query per kind (each a single scan of its tables).
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../load/sql-files.js';
import type { PartitionKey, SmallTable } from './lake-layout.js';

export interface PartitionSignature extends PartitionKey {
  signature: string;
  rows: number;
  sourceRows: number;
  maxUpdatedAt: string | null;
}

export interface TableSignature {
  name: SmallTable;
  signature: string;
  rows: number;
}

/** Every partition, or only those whose day lies in the UTC instant range [from, to). */
export async function readPartitionSignatures(
  conn: DuckDBConnection, range: { from: string | null; to: string | null } = { from: null, to: null },
): Promise<PartitionSignature[]> {
  const rows = (await conn.runAndReadAll(sqlFile('export/partition-signatures.sql'), range)).getRowObjectsJS();
  return rows.map((r) => ({
    projectId: String(r.project_id),
    date: String(r.day),
    signature: String(r.signature),
    rows: Number(r.rows),
    sourceRows: Number(r.source_rows),
    maxUpdatedAt: r.max_updated_at === null ? null : String(r.max_updated_at),
  }));
}

export async function readTableSignatures(conn: DuckDBConnection): Promise<TableSignature[]> {
  const rows = (await conn.runAndReadAll(sqlFile('export/table-signatures.sql'))).getRowObjectsJS();
  return rows.map((r) => ({ name: String(r.name) as SmallTable, signature: String(r.signature), rows: Number(r.rows) }));
}
