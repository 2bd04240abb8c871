// Which warehouse tables the read surface keeps as immutable Parquet partitions, and how they are
// partitioned. This is the ONE list: the lake's partitioned tables (src/export/lake-layout.ts),
// partitioned by project and UTC day of occurred_at, whose per-(project, day) signatures the lake
// export already computes (src/export/signatures.ts). When the lake's layout becomes a declaration
// on each pipeline, this function is what reads it. Every other table of the warehouse is copied
// natively into the catalog on each publish (small state tables: docs/performance.md has the cost).
import { PARTITIONED_TABLES, type PartitionedTable } from '../export/lake-layout.js';

export interface SurfaceTable {
  name: PartitionedTable;
  /** Columns of the partition key: the project, and the instant whose UTC day (or month) is the partition. */
  projectColumn: 'project_id';
  timeColumn: 'occurred_at';
}

export function surfacePartitionedTables(): readonly SurfaceTable[] {
  return PARTITIONED_TABLES.map((name) => ({ name, projectColumn: 'project_id', timeColumn: 'occurred_at' }));
}
