// Every table the Parquet lake holds: each pipeline's declared tables, then the run history, the
// static export's and the gap topics'. `export-parquet`, `sync --lake` and `schedule --lake` pass this list to the
// exporter, which knows no table by name.
import type { LakeTable } from '../sync/pipeline/lake-table.js';
import type { PipelineDefinition } from '../sync/pipeline/definition.js';
import { RUN_LAKE_TABLES } from '../sync/run/lake-tables.js';
import { STATIC_EXPORT_LAKE_TABLES } from '../static-export/lake-tables.js';
import { TOPIC_LAKE_TABLES } from '../outputs/topics/lake-tables.js';
import { PIPELINES } from '../../pipelines/index.js';

export function lakeTables(pipelines: readonly PipelineDefinition[] = PIPELINES): LakeTable[] {
  return [...pipelines.flatMap((p) => p.lake), ...RUN_LAKE_TABLES, ...STATIC_EXPORT_LAKE_TABLES, ...TOPIC_LAKE_TABLES];
}

export const LAKE_TABLES: readonly LakeTable[] = lakeTables();
