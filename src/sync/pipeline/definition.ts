// A pipeline is declared as data (pipelines/*.ts): the endpoint, how it pages, where its records
// are, their contract, the warehouse key, the time field windows are cut on, and the SQL that
// stages and merges landed pages. The runner, planner and loader read this and know no endpoint by
// name: adding an endpoint is a pipeline file, its contract, its SQL and its sandbox route.
import type { ZodType } from 'zod';
import type { RereadStage } from '../plan/reread-schedule.js';
import { declaredLake, type DeclaredTable } from './declared-table.js';
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

/**
 * The daily merge generated from the declaration (src/sync/pipeline/replace-day-sql.ts): each of
 * the batch's days replaces that day's rows in every declared table. `changed`: the columns whose
 * difference from the day's previous read counts a row as changed (merge_stats).
 */
export interface ReplaceDay { kind: 'replace-day'; changed: readonly string[] }

/** What a pipeline file declares (pipelines/*.ts); `definePipeline` resolves it into a PipelineDefinition. */
export interface PipelineDeclaration {
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
  load: { stage: string; merge: readonly string[] | ReplaceDay; atomicWindows?: boolean };
  /**
   * Tables the pipeline writes (rebuild and reset empty them for a project): a name (a table of
   * the numbered migrations, written by hand-written merge SQL) or a table whose columns are
   * declared (its CREATE TABLE and its 'replace-day' merge are generated: declared-table.ts).
   */
  tables: readonly (string | DeclaredTable)[];
  /**
   * How each of its tables is exported to the Parquet lake (`export-parquet`, docs/lake.md), so a
   * new pipeline reaches the lake with no change to src/outputs/lake. A declared table (with its
   * columns) not listed here is exported by day (`project-day` on `day`) with its declared columns,
   * in its key's order; any other table must be listed.
   */
  lake?: readonly LakeTable[];
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
  /** What reports and status call its data, e.g. 'page views' (default: its name, '_' read as ' '). */
  label?: string;
  /** Whether the report's coverage statement lists it (the report's figures read its tables). */
  reportCoverage?: boolean;
}

/** Days of history a 'day' pipeline reads when no --from is given, unless it declares its own. */
export const DEFAULT_HISTORY_DAYS = 30;

/** A declaration with every default filled once: use sites read these fields, never a fallback. */
export interface PipelineDefinition extends Omit<PipelineDeclaration,
  'load' | 'tables' | 'lake' | 'tieBreak' | 'rereads' | 'defaultHistoryDays' | 'optIn' | 'label' | 'reportCoverage'> {
  load: { stage: string; merge: readonly string[] | ReplaceDay; atomicWindows: boolean };
  /** Names of the tables it writes. */
  tables: readonly string[];
  lake: readonly LakeTable[];
  /** Its tables whose columns are declared (the generated DDL and merge). */
  declaredTables: readonly DeclaredTable[];
  tieBreak: TieBreak | { stage: string };
  /** Its own re-read schedule, or null: the configured one (`rereadsOf`). */
  rereads: readonly RereadStage[] | null;
  defaultHistoryDays: number;
  optIn: boolean;
  label: string;
  reportCoverage: boolean;
}

/** Resolves a pipeline's declaration: the one place its defaults are applied. */
export function definePipeline<const D extends PipelineDeclaration>(d: D): PipelineDefinition & Pick<D, 'name'> {
  const declaredTables = d.tables.filter((t): t is DeclaredTable => typeof t !== 'string');
  const replaceDay = !Array.isArray(d.load.merge);
  return {
    ...d,
    load: { ...d.load, atomicWindows: replaceDay || (d.load.atomicWindows ?? false) },
    tables: d.tables.map((t) => (typeof t === 'string' ? t : t.name)),
    declaredTables,
    lake: [...(d.lake ?? []), ...declaredTables.filter((t) => !d.lake?.some((l) => l.name === t.name)).map((t) => declaredLake(t, d.key))],
    tieBreak: d.tieBreak ?? 'latest',
    rereads: d.rereads ?? null,
    defaultHistoryDays: d.defaultHistoryDays ?? DEFAULT_HISTORY_DAYS,
    optIn: d.optIn ?? false,
    label: d.label ?? d.name.replaceAll('_', ' '),
    reportCoverage: d.reportCoverage ?? false,
  };
}

/** A pipeline's re-read schedule: its own, else the configured one. */
export function rereadsOf(p: { rereads?: readonly RereadStage[] | null } | undefined, configured: readonly RereadStage[]): readonly RereadStage[] {
  return p?.rereads ?? configured;
}

/** The earliest time a 'day' pipeline's default history reaches back to, from `nowMs`. */
export function defaultHistoryFrom(p: { defaultHistoryDays: number }, nowMs: number): number {
  return nowMs - p.defaultHistoryDays * 86_400_000;
}

/** The one key of a stream (a project's pipeline) in maps and sets. */
export function streamKey(projectId: string, pipeline: string): string {
  return `${projectId}\u0000${pipeline}`;
}

/** Page size of a pipeline (the endpoint's maximum limit; 1 for single responses). */
export function pageSize(p: PipelineDefinition): number {
  return p.paging.style === 'single' ? 1 : p.paging.limit;
}
