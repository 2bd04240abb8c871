// The one Parquet writer of docs-etl's partitioned files: a partition's rows (one project, one UTC
// day or month of an instant column, or one date) COPYed by DuckDB to a file. The lake export
// (src/outputs/lake/partition-writer.ts: a declared table's lake SELECT, sorted, with Iceberg field
// ids) and the read surface (src/sync/publish/surface-files.ts: a warehouse table's segment, in
// bounded row groups) both build their statement here, from sql/parquet/copy-partition.sql.
// Identifiers are quoted with DuckDB's quoting; every value is a bound parameter.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../core/sql-quoting.js';
import { sqlFile } from '../warehouse/sql-files.js';

/** Which rows of the source form the partition. */
export interface PartitionRows {
  /** A SELECT (no trailing semicolon) whose rows are filtered. */
  source: string;
  /** Only this project's rows (the column is `project_id` in every partitioned table). */
  projectId?: string;
  /**
   * Only the rows of this time range: an instant column in [from, to), a date column equal to
   * `date`, or a date column in the UTC days of [from, to) (`dates`).
   */
  time?: { column: string; from: string; to: string; dates?: true } | { column: string; date: string };
  /** Row order in the file: column names, or 'all' (ORDER BY ALL); none: the source's order (no sort). */
  order?: readonly string[] | 'all';
  /** COPY options after FORMAT and COMPRESSION, e.g. `FIELD_IDS {...}`. */
  options?: readonly string[];
  /** Rows per row group (bounds the writer's memory: it buffers one group). */
  rowGroupRows?: number;
}

/** The SELECT of a whole table, for `source`. */
export const wholeTable = (table: string): string => `SELECT * FROM ${quotedIdentifier(table)}`;

export function partitionCopy(p: PartitionRows): { sql: string; params: Record<string, string | number> } {
  const filter: string[] = [];
  const params: Record<string, string | number> = {};
  if (p.projectId !== undefined) {
    filter.push('project_id = $project_id');
    params.project_id = p.projectId;
  }
  if (p.time && 'date' in p.time) {
    filter.push(`${quotedIdentifier(p.time.column)} = CAST($date AS DATE)`);
    params.date = p.time.date;
  } else if (p.time?.dates) {
    const c = quotedIdentifier(p.time.column);
    filter.push(`${c} >= CAST($from AS DATE) AND ${c} < CAST($to AS DATE)`);
    Object.assign(params, { from: p.time.from.slice(0, 10), to: p.time.to.slice(0, 10) });
  } else if (p.time) {
    const c = quotedIdentifier(p.time.column);
    filter.push(`${c} >= CAST($from AS TIMESTAMPTZ) AND ${c} < CAST($to AS TIMESTAMPTZ)`);
    Object.assign(params, { from: p.time.from, to: p.time.to });
  }
  const order = p.order === undefined ? '' : `\n  ORDER BY ${p.order === 'all' ? 'ALL' : p.order.map((c) => quotedIdentifier(c)).join(', ')}`;
  const options = [...(p.options ?? [])];
  if (p.rowGroupRows !== undefined) {
    options.push('ROW_GROUP_SIZE $row_group_rows');
    params.row_group_rows = p.rowGroupRows;
  }
  const sql = sqlFile('parquet/copy-partition.sql')
    .replace('{{source}}', () => p.source)
    .replace('{{filter}}', () => filter.join(' AND ') || 'true')
    .replace('{{order}}', () => order)
    .replace('{{options}}', () => options.map((o) => `, ${o}`).join(''));
  return { sql, params };
}

/** Writes the partition to `file` (which the caller removes on failure); returns its row count. */
export async function copyPartition(conn: DuckDBConnection, p: PartitionRows, file: string): Promise<number> {
  const { sql, params } = partitionCopy(p);
  const res = await conn.runAndReadAll(sql, { ...params, file });
  return Number(res.getRows()[0]?.[0] ?? 0);
}
