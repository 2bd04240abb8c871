// Which warehouse tables the read surface keeps as immutable Parquet partitions, and how they are
// partitioned. This is the ONE list: the assistant's turns and their sources, partitioned by
// project and UTC day of occurred_at, whose per-(project, day) signatures
// src/publish/segment-signatures.ts computes. Next step: read the pipelines' lake declarations
// (src/pipeline/lake-table.ts) here instead. Every other table of the warehouse is copied natively
// into the catalog on each publish (docs/performance.md has the cost).
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
