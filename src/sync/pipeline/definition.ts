// A pipeline is declared as data (pipelines/*.ts): the endpoint, how it pages, where its records
// are, their contract, the warehouse key, the time field windows are cut on, and the SQL that
// stages and merges landed pages. The runner, planner and loader read this and know no endpoint by
// name: adding an endpoint is a pipeline file, its contract, its SQL and its sandbox route.
import type { ZodType } from 'zod';
import type { RereadStage } from '../plan/reread-schedule.js';
import type { LakeTable } from './lake-table.js';

/** Of several reads of one key in a batch, the one the merge keeps (see `tieBreak`). */
export type TieBreak = 'latest' | 'first';

/** How an endpoint pages (contract.md, per endpoint). */
export type Paging =
  /**
   * `cursor` parameter from the previous `nextCursor`; more while `hasMore` (or, without hasMore,
   * while nextCursor is not null). `maxPages`: the window ends after that many pages (the rest is
   * a tail nobody reads, e.g. searches ordered by hits), and the page says it was cut.
   */
  | { style: 'cursor'; limit: number; hasMore: boolean; maxPages?: number }
  /** `offset` += limit while `hasMore`. */
  | { style: 'offset'; limit: number }
  /** One response per window. */
  | { style: 'single' }
  /**
   * No paging at all (one page of at most `limit` per request): while a response says `hasMore`,
   * the request is split by each value of the next filter in `splits` (their results are disjoint
   * and add up); a split that still says `hasMore` after the last level is kept and marked cut.
   */
  | { style: 'split'; limit: number; splits: readonly { param: string; values: readonly string[] }[] };

export interface PipelineDefinition {
  /** Key of the pipeline in sync_state, sync_runs, coverage (snake_case, stable: a public name). */
  name: string;
  /** API path; {projectId} is substituted. */
  endpoint: string;
  paging: Paging;
  /** Field of a page that holds the records; null: the whole body is one record. */
  recordsField: string | null;
  /** Contract of one record (a zod object; fields it does not name are kept as `extra`). */
  record: ZodType;
  /** Page-level fields the SQL reads besides the records (totals, totalSearches), as a zod object. */
  page?: ZodType;
  /**
   * The warehouse key of a record: the merge keeps one read per key of a batch (the rule is
   * generated from it and `tieBreak`: src/sync/load/one-read-per-key.ts), columns of the staged rows.
   */
  key: readonly string[];
  /**
   * Which read of a key a batch keeps when it holds several: 'latest' (default: the highest page
   * sequence, then the last position in its page) or 'first' (the lowest, then the first). `stage`:
   * the stage SQL keeps its own rule instead, and the string says why the generated one does not fit.
   */
  tieBreak?: TieBreak | { stage: string };
  /**
   * Windows: 'event' windows of any span on the record time `field` (the merge reads only stored rows
   * in the batch's range of `column`); 'day' windows are single days in the project's time zone, for
   * endpoints that aggregate over the requested range (each day is its own request).
   */
  time: {
    field: string | null; column: string; granularity: 'event' | 'day';
    /**
     * The time field can be null, and a dated read never returns such records: once history has
     * no gap left, the endpoint is read whole without dates (a `sweep`) every `sweepEveryMs`.
     */
    undated?: { sweepEveryMs: number };
  };
  /**
   * SQL (paths under sql/): `stage` builds the batch's typed rows, `merge` files apply them in
   * order. `atomicWindows`: a window is merged only once all its pages landed, in one batch (for
   * SQL that replaces a day's rows with a window's).
   */
  load: { stage: string; merge: readonly string[]; atomicWindows?: boolean };
  /** Tables the pipeline writes (rebuild and reset empty them for a project). */
  tables: readonly string[];
  /**
   * How each of its tables is exported to the Parquet lake (`export-parquet`, docs/lake.md): every
   * table in `tables` is declared here, so a new pipeline reaches the lake with no change to src/outputs/lake.
   */
  lake: readonly LakeTable[];
  /** Order among pipelines for the same purpose (lower first): the assistant head goes first. */
  priority: number;
  /** Its own re-read schedule (default: the configured one). */
  rereads?: readonly RereadStage[];
  /** Days of history read when no --from is given ('day' pipelines; default 30). */
  defaultHistoryDays?: number;
  /**
   * Keyed: the endpoint is read once per key rather than by time window. `sql` (a path under sql/)
   * runs against the warehouse at the start of a run with `$project_id` and returns the keys to
   * read in a column `key`, in the order they should be read; each key is substituted for `{key}`
   * in `endpoint` and read as one request without dates (purpose 'keyed'), after every other
   * window of the organization, only while the budget allows (deferred otherwise), never bisected.
   * A key is read again only when the SQL selects it again (so it must leave out what is stored).
   * A key the API answers 400 or 404 for is quarantined (raw: `{key, error}`), not a failure.
   */
  keys?: { sql: string };
  /** Opt-in: not run by default, only when named (--pipelines, DOCS_PIPELINES, config `pipelines`). */
  optIn?: boolean;
}

/** Page size of a pipeline (the endpoint's maximum limit; 1 for single responses). */
export function pageSize(p: PipelineDefinition): number {
  return p.paging.style === 'single' ? 1 : p.paging.limit;
}
