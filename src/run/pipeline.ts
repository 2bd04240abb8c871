// A pipeline is declared as data (pipelines/*.ts): what it reads, how rows are keyed, where they go.
import type { ZodType } from 'zod';

export interface PipelineDefinition {
  /** Name in sync_state and sync_runs. */
  name: string;
  /** API path; {projectId} is substituted. */
  endpoint: string;
  /** Warehouse key of a record (unique in the main table). */
  primaryKey: readonly string[];
  /** The field windows are cut on (dateFrom/dateTo filter it). */
  cursorField: string;
  pageSize: number;
  /** Contract of one record: failures are quarantined. */
  record: ZodType;
  tables: readonly string[];
  defaultLookbackMs: number;
}
