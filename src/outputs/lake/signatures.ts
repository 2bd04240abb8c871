// What the warehouse holds now, per file of a declared lake table, as signatures to compare with
// the manifest (one query per table, a single scan), and the rows of one file for the one Parquet
// writer (src/parquet/partition-copy.ts). The signature SQL is sql/export/lake-signatures.sql; a
// declaration fills in its SELECT file and its
// (checked, plain) column names, and every value is a bound parameter.
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import { lakeSelect, type LakeTable } from '../../sync/pipeline/lake-table.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import type { PartitionRows } from '../../parquet/partition-copy.js';
import { dayRange, type LakePartition } from './lake-layout.js';

export interface FileSignature extends LakePartition {
  signature: string;
  rows: number;
}

function fill(template: string, parts: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => {
    const v = parts[k];
    if (v === undefined) throw new Error(`lake SQL template: no value for {{${k}}}`);
    return v;
  });
}

/** The lake SELECT of a table, without its trailing semicolon or blank lines. */
const selectOf = (t: LakeTable): string => lakeSelect(t);

function partitionExprs(t: LakeTable): { project: string; day: string } {
  const l = t.layout;
  if (l.by === 'none') return { project: 'CAST(NULL AS VARCHAR)', day: 'CAST(NULL AS VARCHAR)' };
  if (l.by === 'project') return { project: 'project_id', day: 'CAST(NULL AS VARCHAR)' };
  const col = quotedIdentifier(l.column);
  const day = l.type === 'instant' ? `CAST(timezone('UTC', ${col}) AS DATE)` : `CAST(${col} AS DATE)`;
  return { project: 'project_id', day: `strftime(${day}, '%Y-%m-%d')` };
}

export async function readFileSignatures(conn: DuckDBConnection, t: LakeTable): Promise<FileSignature[]> {
  const sql = fill(sqlFile('export/lake-signatures.sql'), { select: selectOf(t), ...partitionExprs(t) });
  const rows = (await conn.runAndReadAll(sql)).getRowObjectsJS()
    .filter((r) => t.layout.by === 'none' || Number(r.rows) > 0);
  const out = rows.map((r) => ({
    projectId: r.project_id === null ? null : String(r.project_id),
    date: r.day === null ? null : String(r.day),
    rows: Number(r.rows),
    signature: `${Number(r.rows)}/${String(r.content_hash)}`,
  }));
  // A table with no project level is always one file, even when empty (readers see its schema).
  if (t.layout.by === 'none' && out.length === 0) out.push({ projectId: null, date: null, rows: 0, signature: '0/0' });
  return out;
}

/** The rows of one partition of `t` as the one Parquet writer (src/parquet/partition-copy.ts) copies them. */
export function partitionRows(t: LakeTable, p: LakePartition, options?: string): PartitionRows {
  const l = t.layout;
  return {
    source: selectOf(t),
    ...(l.by !== 'none' ? { projectId: p.projectId ?? '' } : {}),
    ...(l.by === 'project-day' ? { time: l.type === 'instant' ? { column: l.column, ...dayRange(p.date ?? '') } : { column: l.column, date: p.date ?? '' } } : {}),
    order: t.order.length ? t.order : 'all',
    ...(options ? { options: [options] } : {}),
  };
}

/** Fingerprint of what a table's files contain: when its SELECT, layout or order change, it is rewritten whole. */
export function tableFormat(t: LakeTable, manifestVersion: number): string {
  return createHash('sha256')
    .update(JSON.stringify([manifestVersion, t.layout, t.order]))
    .update(selectOf(t))
    .update(sqlFile('parquet/copy-partition.sql'))
    .update('iceberg-field-ids')
    .digest('hex').slice(0, 16);
}
