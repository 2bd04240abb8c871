// Which warehouse tables the read surface keeps as immutable Parquet partitions, and how: read from
// the lake declarations (src/sync/pipeline/lake-table.ts), never named here. Every declared table
// with a 'project-day' layout that the warehouse holds is partitioned by project and UTC day of its
// time column (an instant's UTC day, or a date column's day); its change detection comes from the
// declaration's `changes` (src/sync/publish/surface-days.ts, segment-signatures.ts). The files are
// written by the one Parquet writer the lake export uses too (src/parquet/partition-copy.ts). Every
// other table of the warehouse is kept whole (src/sync/publish/surface-native.ts).
import type { LakeTable } from '../pipeline/lake-table.js';

/** A partitioned table of the surface: its partition column and the declaration's change detection. */
export type SurfaceTable = {
  name: string;
  /** The partition's instant (its UTC day) or date column; the project column is `project_id`. */
  timeColumn: string;
  timeType: 'instant' | 'date';
} & NonNullable<LakeTable['changes']>;

/** The declared dated tables among the warehouse's readable ones, in declaration order. */
export function surfacePartitionedTables(declared: readonly LakeTable[], present: ReadonlySet<string>): SurfaceTable[] {
  const out: SurfaceTable[] = [];
  for (const t of declared) {
    if (t.layout.by !== 'project-day' || !present.has(t.name) || out.some((o) => o.name === t.name)) continue;
    out.push({ name: t.name, timeColumn: t.layout.column, timeType: t.layout.type, ...t.changes });
  }
  return out;
}

/**
 * Rows per Parquet row group of the read surface's files (a multiple of DuckDB's 2,048-row vector,
 * which the writer rounds to). The writer buffers one row group uncompressed, so this bounds the
 * publish's memory however large a day grows: at 1M turns a full publish peaked at 354 MB alone
 * with DuckDB's default of 122,880 rows, 291 MB with 20,480 (docs/performance.md, Memory). At 4M
 * turns (days of ~130k turns, two writer threads) 20,480 still made the full publish the sync's
 * peak, 25 MiB over the merges; 10,240 keeps it at their level (ninth round).
 */
export const SEGMENT_ROW_GROUP_ROWS = 10_240;
