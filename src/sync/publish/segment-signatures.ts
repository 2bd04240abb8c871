// The read surface's change detection: per (project, UTC day) of the assistant tables, a content
// signature (sql/publish/day-signatures.sql: turns, max(updated_at), max(last_seen_at), the sources'
// count and hash), and the plan that compares segments of those days with the previous catalog's
// entries. The lake export has its own per-file signatures over declared tables
// (src/outputs/lake/signatures.ts); the read surface keeps day signatures because it groups days into
// segments (closed months) and recomputes only the days a run touched.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';
import { fileCheck } from '../../warehouse/partition-files.js';

export interface PartitionSignature {
  projectId: string;
  /** A UTC day (YYYY-MM-DD), or for a segment its key (a day or a closed month, YYYY-MM). */
  date: string;
  signature: string;
  rows: number;
  sourceRows: number;
  maxUpdatedAt: string | null;
}

/** A segment as the catalog's manifest keeps it: its signature and its files (paths relative to the parts folder). */
export interface PartitionEntry extends PartitionSignature {
  files: { conversations?: string; sources?: string };
  bytes?: { conversations?: number; sources?: number };
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

/** Every partition, or only those whose day lies in the UTC instant range [from, to). */
export async function readPartitionSignatures(
  conn: DuckDBConnection, range: { from: string | null; to: string | null } = { from: null, to: null },
): Promise<PartitionSignature[]> {
  const rows = (await conn.runAndReadAll(sqlFile('publish/day-signatures.sql'), range)).getRowObjectsJS();
  return rows.map((r) => ({
    projectId: String(r.project_id),
    date: String(r.day),
    signature: String(r.signature),
    rows: Number(r.rows),
    sourceRows: Number(r.source_rows),
    maxUpdatedAt: r.max_updated_at === null ? null : String(r.max_updated_at),
  }));
}

export const partitionId = (p: { projectId: string; date: string }): string => `${p.projectId}\u0000${p.date}`;

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
  if ((e.rows > 0) !== (e.files.conversations !== undefined)) return 'missing-file';
  if ((e.sourceRows > 0) !== (e.files.sources !== undefined)) return 'missing-file';
  for (const table of ['conversations', 'sources'] as const) {
    const rel = e.files[table];
    const problem = rel === undefined ? null : fileCheck(size(rel), e.bytes?.[table] ?? size(rel) ?? 0);
    if (problem) return problem;
  }
  return null;
}
