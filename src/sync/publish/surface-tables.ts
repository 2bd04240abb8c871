// Which warehouse tables the read surface keeps as immutable Parquet partitions, and how they are
// partitioned. This is the ONE list: the assistant's turns and their sources, partitioned by
// project and UTC day of occurred_at, whose per-(project, day) signatures
// src/sync/publish/segment-signatures.ts computes. The files are written by the one Parquet writer
// the lake export uses too (src/parquet/partition-copy.ts). The list is not yet read from the
// pipelines' lake declarations (src/sync/pipeline/lake-table.ts) because the change detection is
// specific to these two tables (sql/publish/day-signatures.sql, changes.sql: their last_seen_at
// watermark and sources hash) and so are the catalog manifest's per-segment `files`; a declared
// table would need a per-table day signature first. Every other table of the warehouse is kept
// whole (src/sync/publish/surface-native.ts; docs/performance.md has the cost).
const PARTITIONED_TABLES = ['conversations', 'sources'] as const;
type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export interface SurfaceTable {
  name: PartitionedTable;
  /** Columns of the partition key: the project, and the instant whose UTC day (or month) is the partition. */
  projectColumn: 'project_id';
  timeColumn: 'occurred_at';
}

export function surfacePartitionedTables(): readonly SurfaceTable[] {
  return PARTITIONED_TABLES.map((name) => ({ name, projectColumn: 'project_id', timeColumn: 'occurred_at' }));
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
