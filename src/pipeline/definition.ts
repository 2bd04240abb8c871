// A pipeline is declared as data (pipelines/*.ts): the endpoint, how it pages, where its records
// are, their contract, the warehouse key, the time field windows are cut on, and the SQL that
// stages and merges landed pages. The runner, planner and loader read this and know no endpoint by
// name: adding an endpoint is a pipeline file, its contract, its SQL and its sandbox route.
import type { ZodType } from 'zod';

/** How an endpoint pages (contract.md, per endpoint). */
export type Paging =
  /** `cursor` parameter from the previous `nextCursor`; more while `hasMore` (or, without hasMore, while nextCursor is not null). */
  | { style: 'cursor'; limit: number; hasMore: boolean }
  /** `offset` += limit while `hasMore`. */
  | { style: 'offset'; limit: number }
  /** One response per window. */
  | { style: 'single' };

export interface PipelineDefinition {
  /** Key of the pipeline in sync_state, sync_runs, coverage (snake_case, stable: a public name). */
  name: string;
  /** API path; {projectId} is substituted. */
  endpoint: string;
  paging: Paging;
  /** Field of a page that holds the records (validated one by one; an invalid one is quarantined). */
  recordsField: string;
  /** Contract of one record (a zod object; fields it does not name are kept as `extra`). */
  record: ZodType;
  /** The warehouse key of a record, for documentation and tests (kept unique by the merge). */
  key: readonly string[];
  /**
   * The record field dateFrom/dateTo filter on, the staged column it becomes (the merge reads only
   * stored rows in the batch's range of it), and how windows are cut ('event': any span).
   */
  time: { field: string; column: string; granularity: 'event' };
  /** SQL (paths under sql/): `stage` builds the batch's typed rows, `merge` files apply them in order. */
  load: { stage: string; merge: readonly string[] };
  /** Tables the pipeline writes (rebuild empties them for a project before replaying). */
  tables: readonly string[];
  /** Order among pipelines for the same purpose (lower first): the assistant head goes first. */
  priority: number;
}

/** Page size of a pipeline (the endpoint's maximum limit; 1 for single responses). */
export function pageSize(p: PipelineDefinition): number {
  return p.paging.style === 'single' ? 1 : p.paging.limit;
}
