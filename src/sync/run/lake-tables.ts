// The run history and sync bookkeeping in the Parquet lake (docs/lake.md): small tables, one file
// each, except sync_windows (one row per window read, so it grows with every run): one file per
// project. sync_state (the checkpoint) and schema_migrations stay out: they are the tool's state.
import type { LakeTable } from '../pipeline/lake-table.js';

export const RUN_LAKE_TABLES: readonly LakeTable[] = [
  { name: 'sync_runs', select: 'lake/sync-runs.sql', layout: { by: 'none' }, order: ['started_at', 'run_id'] },
  { name: 'quarantine', select: 'lake/quarantine.sql', layout: { by: 'none' }, order: ['received_at', 'project_id', 'run_id', 'error'] },
  { name: 'projects', select: 'lake/projects.sql', layout: { by: 'none' }, order: ['project_id'] },
  { name: 'coverage', select: 'lake/coverage.sql', layout: { by: 'none' }, order: ['project_id', 'pipeline', 'range_from'] },
  { name: 'sync_windows', select: 'lake/sync-windows.sql', layout: { by: 'project' }, order: ['completed_at', 'pipeline', 'window_id'] },
];
