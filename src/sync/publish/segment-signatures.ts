// The read surface's change detection: per partitioned table and (project, UTC day), a content
// signature (sql/publish/day-signatures.sql, filled from the table's lake declaration), and the
// plan that compares segments of those days with the previous catalog's entries. The lake export
// has its own per-file signatures over declared tables (src/outputs/lake/signatures.ts); the read
// surface keeps day signatures because it groups days into segments (closed months) and
// recomputes only the days a run touched.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import { sqlFile, taggedUnion } from '../../warehouse/sql-files.js';
import { fileCheck } from '../../warehouse/partition-files.js';
import type { SurfaceTable } from './surface-tables.js';

export interface PartitionSignature {
  table: string;
  projectId: string;
  /** A UTC day (YYYY-MM-DD), or for a segment its key (a day or a closed month, YYYY-MM). */
  date: string;
  signature: string;
  rows: number;
}

/** A segment as the catalog's manifest keeps it: its signature and its file (path relative to the parts folder), by table. */
export interface PartitionEntry extends PartitionSignature {
  files: Record<string, string>;
  bytes?: Record<string, number>;
  exportedAt: string;
}

export type WriteReason = 'new' | 'changed' | 'missing-file' | 'damaged-file';

export interface PartitionPlan {
  write: { partition: PartitionSignature; reason: WriteReason }[];
  /** Unchanged: carried over as they are. */
  keep: PartitionEntry[];
  /** In the previous catalog but gone from the warehouse. */
  remove: PartitionEntry[];
}

/** The UTC day of a row of `t` (a SQL expression over alias t). */
export function dayExpr(t: SurfaceTable): string {
  const c = `t.${quotedIdentifier(t.timeColumn)}`;
  return t.timeType === 'instant' ? `CAST(timezone('UTC', ${c}) AS DATE)` : c;
}

/** The day-signature query of one table, from its declaration. */
export function daySignatureSql(t: SurfaceTable): string {
  const c = `t.${quotedIdentifier(t.timeColumn)}`;
  const type = t.timeType === 'instant' ? 'TIMESTAMPTZ' : 'DATE';
  const range = `${c} >= coalesce(CAST($from AS ${type}), '-infinity'::${type}) AND ${c} < coalesce(CAST($to AS ${type}), 'infinity'::${type})`;
  // A maximum's hash, not its text: a TIMESTAMPTZ's text follows the session's TimeZone.
  const parts = t.versions?.length
    ? t.versions.map((v) => `CAST(hash(max(t.${quotedIdentifier(v)})) AS VARCHAR)`)
    : ['CAST(coalesce(sum(hash(t)), 0) AS VARCHAR)'];
  return sqlFile('publish/day-signatures.sql')
    .replaceAll('{{table}}', () => quotedIdentifier(t.name))
    .replaceAll('{{day}}', () => dayExpr(t))
    .replaceAll('{{range}}', () => range)
    .replaceAll('{{signature}}', () => `concat_ws('/', count(*), ${parts.join(', ')})`);
}

/** Every day of the table, or only those in the UTC instant range [from, to). */
export async function readPartitionSignatures(
  conn: DuckDBConnection, t: SurfaceTable, range: { from: string | null; to: string | null } = { from: null, to: null },
): Promise<PartitionSignature[]> {
  const bound = (v: string | null) => (v === null || t.timeType === 'instant' ? v : v.slice(0, 10));
  const rows = (await conn.runAndReadAll(daySignatureSql(t), { from: bound(range.from), to: bound(range.to) })).getRowObjectsJS();
  return rows.map((r) => ({
    table: t.name, projectId: String(r.project_id), date: String(r.day), signature: String(r.signature), rows: Number(r.rows),
  }));
}

/** Every day of each of `tables`, in one statement (taggedUnion). */
export async function readAllPartitionSignatures(conn: DuckDBConnection, tables: readonly SurfaceTable[]): Promise<PartitionSignature[]> {
  if (!tables.length) return [];
  const rows = (await conn.runAndReadAll(taggedUnion(tables.map(daySignatureSql)), { from: null, to: null })).getRowObjectsJS();
  return rows.map((r) => ({
    table: tables[Number(r.i)]!.name, projectId: String(r.project_id), date: String(r.day), signature: String(r.signature), rows: Number(r.rows),
  }));
}

export const partitionId = (p: { table: string; projectId: string; date: string }): string => `${p.table}\u0000${p.projectId}\u0000${p.date}`;

/** Write a segment that is new, changed, or whose file is missing or of another size; remove what is gone. */
export function planPartitions(a: {
  current: readonly PartitionSignature[];
  previous: readonly PartitionEntry[];
  fileSize: (rel: string) => number | undefined;
}): PartitionPlan {
  const before = new Map(a.previous.map((e) => [partitionId(e), e]));
  const plan: PartitionPlan = { write: [], keep: [], remove: [] };
  for (const p of a.current) {
    const prev = before.get(partitionId(p));
    before.delete(partitionId(p));
    const reason: WriteReason | null = !prev ? 'new' : prev.signature !== p.signature ? 'changed' : fileProblem(prev, a.fileSize);
    if (reason) plan.write.push({ partition: p, reason });
    else plan.keep.push(prev!);
  }
  plan.remove.push(...before.values());
  return plan;
}

function fileProblem(e: PartitionEntry, size: (rel: string) => number | undefined): WriteReason | null {
  const rel = e.files[e.table];
  if ((e.rows > 0) !== (rel !== undefined)) return 'missing-file';
  return rel === undefined ? null : fileCheck(size(rel), e.bytes?.[e.table] ?? size(rel) ?? 0);
}
