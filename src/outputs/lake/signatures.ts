// What the warehouse holds now, per file of a declared lake table, as signatures to compare with
// the manifest (one query per table, a single scan), and the COPY statement that writes one file.
// The SQL templates are sql/export/lake-*.sql; a declaration fills in its SELECT file and its
// (checked, plain) column names, and every value is a bound parameter.
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { LakeTable } from '../../sync/pipeline/lake-table.js';
import { sqlFile } from '../../warehouse/sql-files.js';
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
const selectOf = (t: LakeTable): string => sqlFile(t.select).trim().replace(/;$/, '');

function partitionExprs(t: LakeTable): { project: string; day: string } {
  const l = t.layout;
  if (l.by === 'none') return { project: 'CAST(NULL AS VARCHAR)', day: 'CAST(NULL AS VARCHAR)' };
  if (l.by === 'project') return { project: 'project_id', day: 'CAST(NULL AS VARCHAR)' };
  const day = l.type === 'instant' ? `CAST(timezone('UTC', "${l.column}") AS DATE)` : `CAST("${l.column}" AS DATE)`;
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

/** The COPY of one partition of `t` to $file, with its bound parameters. */
export function copyStatement(t: LakeTable, p: LakePartition, options = ''): { sql: string; params: Record<string, string> } {
  const l = t.layout;
  let filter = 'true';
  const params: Record<string, string> = {};
  if (l.by !== 'none') {
    filter = 'project_id = $project_id';
    params.project_id = p.projectId ?? '';
  }
  if (l.by === 'project-day') {
    if (l.type === 'instant') {
      filter += ` AND "${l.column}" >= CAST($from AS TIMESTAMPTZ) AND "${l.column}" < CAST($to AS TIMESTAMPTZ)`;
      Object.assign(params, dayRange(p.date ?? ''));
    } else {
      filter += ` AND "${l.column}" = CAST($date AS DATE)`;
      params.date = p.date ?? '';
    }
  }
  const order = t.order.map((c) => `"${c}"`).join(', ') || 'ALL';
  return { sql: fill(sqlFile('export/lake-copy.sql'), { select: selectOf(t), filter, order, options: options ? `, ${options}` : '' }), params };
}

/** Fingerprint of what a table's files contain: when its SELECT, layout or order change, it is rewritten whole. */
export function tableFormat(t: LakeTable, manifestVersion: number): string {
  return createHash('sha256')
    .update(JSON.stringify([manifestVersion, t.layout, t.order]))
    .update(selectOf(t))
    .update(sqlFile('export/lake-copy.sql'))
    .update('iceberg-field-ids')
    .digest('hex').slice(0, 16);
}
