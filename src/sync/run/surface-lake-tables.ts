// The lake declarations the read surface partitions by (publishRead's `lakeTables`): every
// pipeline's tables, the run history and the gap topics'. The static export's tables are undated
// (one file each, nothing to partition) and are composed with these into the lake's full list by the
// CLI (src/cli/lake-tables.ts), which alone may import every stage.
import type { LakeTable } from '../pipeline/lake-table.js';
import { PIPELINES } from '../../../pipelines/index.js';
import { RUN_LAKE_TABLES } from './lake-tables.js';
import { TOPIC_LAKE_TABLES } from '../../outputs/topics/lake-tables.js';

export const SURFACE_LAKE_TABLES: readonly LakeTable[] = [...PIPELINES.flatMap((p) => p.lake), ...RUN_LAKE_TABLES, ...TOPIC_LAKE_TABLES];
