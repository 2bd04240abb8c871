// Merges a batch of landed pages in ONE transaction (design rule 5): DuckDB's JSON reader loads the
// pages, the pipeline's SQL stages and merges the records, invalid ones go to quarantine, and the
// checkpoint of every stream in the batch (last page merged, open window, coverage of completed
// windows, the window read log, run counters) commits with the rows. A crash before COMMIT leaves
// the pages landed for the next run; after it, their sequence numbers say they were merged.
import { statSync } from 'node:fs';
import { BIGINT, LIST, STRUCT, VARCHAR, listValue, structValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { quotedIdentifier, quotedString } from '../../core/sql-quoting.js';
import { applyRead, type CoverageInterval } from '../../core/intervals.js';
import { messageOf } from '../../core/errors.js';
import { isDated } from '../../core/window.js';
import { landedColumns } from '../pipeline/landed-page.js';
import type { LandedFile } from '../pipeline/landed-page.js';
import type { PipelineDefinition, ReplaceDay } from '../pipeline/definition.js';
import { replaceDaySql } from '../pipeline/replace-day-sql.js';
import { duckdbType } from '../pipeline/json-structure.js';
import { settleAges, type RereadStage } from '../plan/reread-schedule.js';
import { readCoverage, writeCoverage } from '../../warehouse/coverage-store.js';
import { keepOneReadPerKey } from './one-read-per-key.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { readSyncState, type OpenWindow } from './sync-state.js';
import { inTransaction } from '../../warehouse/warehouse.js';
import { runStatements, type BoundValues } from '../../warehouse/run-statements.js';

export interface MergeGroup {
  pipeline: PipelineDefinition;
  /** Pages of one or more streams of this pipeline; each stream's pages in sequence order. */
  files: readonly LandedFile[];
}

export interface RunCounts {
  pages: number;
  requests: number;
  rows: number;
  quarantined: number;
}

export interface CompletedWindow {
  projectId: string;
  pipeline: string;
  window: OpenWindow;
}

export interface MergedBatch {
  runs: Map<string, RunCounts>;
  completed: CompletedWindow[];
  rows: number;
}

export interface MergeOptions {
  now: Date;
  /**
   * The configured re-read schedule (a pipeline's own `rereads` wins): how a completed window
   * enters the coverage map is the planner's settle rule for the pipeline (plan/schedule.ts settleAges).
   */
  rereads: readonly RereadStage[];
  /**
   * Rebuild: the pages are kept pages replayed into emptied tables. Rows and quarantine are
   * written; checkpoints, coverage, the read log and run counters are left as they are.
   */
  replay?: boolean;
}

/**
 * DuckDB's JSON reader buffers a whole file, and allocates about twice this: its buffer is sized
 * to the batch's largest page (a power of two, at least 1 MiB), not to a fixed floor, so small
 * pages merge within a small memory limit. At the default 128MB, pages up to about 32 MiB merge.
 */
function maxObjectBytes(files: readonly LandedFile[]): number {
  let largest = 0;
  for (const f of files) largest = Math.max(largest, statSync(f.path).size);
  return Math.max(1024 * 1024, 2 ** Math.ceil(Math.log2(largest + 64 * 1024)));
}

export async function mergeBatch(conn: DuckDBConnection, groups: readonly MergeGroup[], opts: MergeOptions): Promise<MergedBatch> {
  const out: MergedBatch = { runs: new Map(), completed: [], rows: 0 };
  await inTransaction(conn, async () => {
    for (const g of groups) await mergeGroup(conn, g, opts, out);
  });
  return out;
}

/**
 * Whether DuckDB can merge these pages: the group's merge run as a replay (rows and quarantine
 * only) in a transaction that is always rolled back. Null when it can; else DuckDB's reason.
 */
export async function probeGroup(conn: DuckDBConnection, g: MergeGroup, now: Date): Promise<string | null> {
  await conn.run('BEGIN TRANSACTION');
  try {
    await mergeGroup(conn, g, { now, rereads: [], replay: true }, { runs: new Map(), completed: [], rows: 0 });
    return null;
  } catch (err) {
    return messageOf(err);
  } finally {
    await conn.run('ROLLBACK').catch(() => {});
  }
}

async function mergeGroup(conn: DuckDBConnection, g: MergeGroup, opts: MergeOptions, out: MergedBatch): Promise<void> {
  const lists = landedLists(g.files);
  await bindLandedFiles(conn, lists);
  for (const sql of landedSql(g.pipeline, lists)) await conn.run(sql);
  await conn.run(invalidSql(lists));
  await conn.run(sqlFile(g.pipeline.load.stage));
  await keepOneReadPerKey(conn, g.pipeline);
  // An empty batch (windows with no records) still runs the merge: a day's rows may be replaced by none.
  const values = await mergeValues(conn, g.pipeline, opts.now);
  const merge = g.pipeline.load.merge;
  const statements = Array.isArray(merge) ? (merge as readonly string[]).map((file) => sqlFile(file)) : replaceDaySql(g.pipeline, merge as ReplaceDay);
  for (const sql of statements) await runStatements(conn, sql, values);
  // Pages, requests and records found invalid come from the pages' metadata; rows and records
  // DuckDB refused, from the stage.
  const counts = new Map<string, RunCounts>();
  for (const f of g.files) {
    const c = counts.get(f.meta.run_id) ?? { pages: 0, requests: 0, rows: 0, quarantined: 0 };
    counts.set(f.meta.run_id, { ...c, pages: c.pages + 1, requests: c.requests + f.meta.requests, quarantined: c.quarantined + f.meta.quarantined });
  }
  let rejected = 0;
  for (const r of (await conn.runAndReadAll(sqlFile('load/batch-counts.sql'))).getRowObjectsJS()) {
    const c = counts.get(String(r.run_id))!;
    c.rows += Number(r.rows);
    c.quarantined += Number(r.rejected);
    rejected += Number(r.rejected);
    out.rows += Number(r.rows);
  }
  if (lists.partial.length || rejected) await conn.run(sqlFile('load/quarantine-batch.sql'), { now: opts.now.toISOString(), pipeline: g.pipeline.name });
  for (const [runId, c] of counts) {
    if (!opts.replay) await conn.run(sqlFile('load/run-counters.sql'), { run_id: runId, ...c });
    const prev = out.runs.get(runId);
    out.runs.set(runId, prev ? sum(prev, c) : c);
  }
  if (opts.replay) return;
  const stats = new Map<string, { rows: number; newRows: number; changedRows: number }>();
  for (const s of (await conn.runAndReadAll('SELECT * FROM merge_stats')).getRowObjectsJS()) {
    stats.set(String(s.window_id), { rows: Number(s.rows), newRows: Number(s.new_rows), changedRows: Number(s.changed_rows) });
  }
  const byStream = new Map<string, LandedFile[]>();
  for (const f of g.files) byStream.set(f.meta.project_id, [...(byStream.get(f.meta.project_id) ?? []), f]);
  for (const [projectId, files] of byStream) await advanceStream(conn, g.pipeline, projectId, files, stats, opts, out);
}

/**
 * The values a merge's SQL may name, bound (never spliced): `$now`, the read time, and `$lo`/`$hi`,
 * the batch's least and greatest `time.column` as text (NULL when the stage is empty), which the
 * SQL casts back to its type.
 */
async function mergeValues(conn: DuckDBConnection, p: PipelineDefinition, now: Date): Promise<BoundValues> {
  const col = quotedIdentifier(p.time.column);
  const range = (await conn.runAndReadAll(`SELECT min(${col})::VARCHAR AS lo, max(${col})::VARCHAR AS hi FROM stage`)).getRowObjectsJS()[0]!;
  return { now: now.toISOString(), lo: range.lo === null ? null : String(range.lo), hi: range.hi === null ? null : String(range.hi) };
}

/** Moves a stream's checkpoint over its merged pages; windows they complete enter the coverage map. */
async function advanceStream(
  conn: DuckDBConnection, p: PipelineDefinition, projectId: string, files: readonly LandedFile[],
  stats: Map<string, { rows: number; newRows: number; changedRows: number }>, opts: MergeOptions, out: MergedBatch,
): Promise<void> {
  const state = await readSyncState(conn, projectId, p.name);
  // The checkpoint's open window continues when its pages come, also after another window's in the
  // batch (a run reads its heads before it resumes a backfill): its pages and rows so far are kept.
  let stored = state.open;
  let open: OpenWindow | null = null;
  let coverage: CoverageInterval[] | null = null;
  const counted = new Set<string>();
  const count = (w: OpenWindow) => {
    if (counted.has(w.id)) return;
    counted.add(w.id);
    const s = stats.get(w.id);
    if (s) {
      w.rows += s.rows;
      w.newRows += s.newRows;
      w.changedRows += s.changedRows;
    }
  };
  for (const f of files) {
    const m = f.meta;
    if (!open || open.id !== m.window.id) {
      open = stored?.id === m.window.id ? stored : {
        id: m.window.id, from: new Date(m.window.from), to: new Date(m.window.to), purpose: m.window.purpose,
        cursor: null, offset: null, pages: 0, rows: 0, newRows: 0, changedRows: 0, runId: m.run_id,
      };
      if (open === stored) stored = null;
    }
    open.pages++;
    open.cursor = m.next.cursor;
    open.offset = m.next.offset;
    open.runId = m.run_id;
    if (m.next.complete) {
      count(open);
      // A sweep or a keyed read (no dates) is logged in sync_windows only: coverage maps dated reads.
      if (isDated(open.purpose)) {
        coverage = applyRead(coverage ?? await readCoverage(conn, projectId, p.name),
          { from: open.from.getTime(), to: open.to.getTime(), at: opts.now.getTime(), rows: open.rows }, settleAges(p, opts.rereads));
      }
      await conn.run(sqlFile('load/insert-window.sql'), {
        project_id: projectId, pipeline: p.name, window_id: open.id, run_id: open.runId, purpose: open.purpose,
        window_from: open.from.toISOString(), window_to: open.to.toISOString(), now: opts.now.toISOString(),
        pages: open.pages, rows: open.rows, new_rows: open.newRows, changed_rows: open.changedRows,
      });
      out.completed.push({ projectId, pipeline: p.name, window: open });
      open = null;
    }
  }
  if (open) count(open);
  // The checkpoint holds one open window. The stored one stays when none of its pages came (the
  // run deferred it, or merged its heads apart from it), unless this batch leaves another window
  // open: the newer cursor is kept, and the older window's span is planned again from its start.
  open ??= stored;
  const last = files.at(-1)!.meta;
  if (coverage) await writeCoverage(conn, projectId, p.name, coverage);
  const highWater = coverage?.length ? new Date(Math.max(...coverage.map((c) => c.to))) : state.highWater;
  await conn.run(sqlFile('load/upsert-state.sql'), {
    project_id: projectId, pipeline: p.name, organization: last.organization, high_water: highWater?.toISOString() ?? null,
    window_from: open?.from.toISOString() ?? null, window_to: open?.to.toISOString() ?? null, window_purpose: open?.purpose ?? null,
    window_id: open?.id ?? null, cursor: open?.cursor ?? null, offset: open?.offset ?? null, pages: open?.pages ?? 0,
    rows: open?.rows ?? 0, window_new: open?.newRows ?? 0, window_changed: open?.changedRows ?? 0,
    merged_seq: last.seq, window_limit_ms: last.window_limit_ms, run_id: last.run_id, now: opts.now.toISOString(),
  });
}

/**
 * The batch's files as the landed views read them, split once: `whole` (every record valid: read at
 * the body), `partial` (some invalid: read at `valid`), `all` (the pages' own fields).
 */
type LandedList = 'whole' | 'partial' | 'all';
type LandedLists = Record<LandedList, readonly LandedFile[]>;

function landedLists(files: readonly LandedFile[]): LandedLists {
  const whole: LandedFile[] = [];
  const partial: LandedFile[] = [];
  for (const f of files) (f.meta.quarantined > 0 ? partial : whole).push(f);
  return { whole, partial, all: files };
}

/** The session variable holding the lists: a struct with each list's paths and its `<list>_max` buffer size. */
const LANDED_VARIABLE = 'landed_files';
const LANDED_TYPE = STRUCT({
  whole: LIST(VARCHAR), whole_max: BIGINT, partial: LIST(VARCHAR), partial_max: BIGINT, all: LIST(VARCHAR), all_max: BIGINT,
});

/**
 * The batch's file paths and reader buffer sizes, bound (never spliced into the views' SQL): a view
 * cannot hold a parameter, so the lists are one session variable (this connection's, set in one
 * statement), which the views read with getvariable() when a statement binds them, that is, while
 * this group merges.
 */
async function bindLandedFiles(conn: DuckDBConnection, lists: LandedLists): Promise<void> {
  const fields: Record<string, DuckDBValue> = {};
  for (const [name, list] of Object.entries(lists)) {
    fields[name] = listValue(list.map((f) => f.path));
    fields[`${name}_max`] = BigInt(maxObjectBytes(list));
  }
  await conn.run(`SET VARIABLE ${quotedIdentifier(LANDED_VARIABLE)} = $lists`, { lists: structValue(fields) }, { lists: LANDED_TYPE });
}

/** A field of the bound lists, as a constant expression a table function's argument may be. */
const landedField = (field: string) => `getvariable(${quotedString(LANDED_VARIABLE)}).${quotedIdentifier(field)}`;

/**
 * The view `landed`: one row per record of the batch's pages (project_id, run_id, window_id,
 * window_from, window_to, window_key (a keyed read's key, else NULL), truncated, seq, ord, r, extra), read straight from the files by DuckDB's
 * JSON reader with the contract's type. Pages whose records are all valid are read at their body's
 * records field (or the body itself, for endpoints whose body is one record); pages with invalid
 * records at `valid` (the valid ones re-serialised when landed), because DuckDB's typed reader
 * rejects a whole file on one bad record. `x` (the extra fields) is aligned with those records;
 * `ord` is a record's position in the page as served (invalid records keep theirs: no shift).
 * The view `landed_pages` has one row per page (empty ones too), with the page-level fields the
 * pipeline declares (`page`).
 */
function landedSql(p: PipelineDefinition, lists: LandedLists): string[] {
  const rec = duckdbType(p.record);
  const META = ['project_id', 'run_id', 'seq', 'window', 'next', 'x'] as const;
  const meta = landedColumns(META);
  const cols = `project_id, run_id, seq, "window".id AS window_id, "window"."from" AS window_from, "window"."to" AS window_to,
       "window"."key" AS window_key, coalesce(next.truncated, false) AS truncated, x`;
  const read = (list: LandedList, columns: string) =>
    `read_json(${landedField(list)}, format = 'unstructured', maximum_object_size = ${landedField(`${list}_max`)}, columns = {${columns}})`;
  const bodyRecs = p.recordsField === null
    ? { type: rec, expr: '[body]' }
    : { type: `STRUCT(${quotedIdentifier(p.recordsField)} ${rec}[])`, expr: `body.${quotedIdentifier(p.recordsField)}` };
  // `pos`: each record's position in the page as served, 1-based; on a page with invalid records
  // the valid ones keep theirs (the invalid ones' positions are skipped), so an order the API gives
  // by position (the searches ranking) stays the API's.
  const parts = [
    ...(lists.whole.length ? [`SELECT ${cols}, ${bodyRecs.expr} AS recs, range(1, len(${bodyRecs.expr}) + 1) AS pos
      FROM ${read('whole', landedColumns(META, {}, { body: bodyRecs.type }))}`] : []),
    ...(lists.partial.length ? [`SELECT ${cols}, valid AS recs,
        [j FOR j IN range(1, len(valid) + len(invalid) + 1) IF NOT list_contains([q.i + 1 FOR q IN invalid], j)] AS pos
      FROM ${read('partial', landedColumns([...META, 'invalid', 'valid'], { invalid: 'STRUCT(i INTEGER)[]', valid: `${rec}[]` }))}`] : []),
  ];
  const out = [`CREATE OR REPLACE TEMP VIEW landed AS
    SELECT project_id, run_id, window_id, window_from, window_to, window_key, truncated, seq,
           unnest(recs) AS r, unnest(x) AS extra, unnest(pos) AS ord
    FROM (${parts.join('\nUNION ALL BY NAME\n')})`];
  const page = p.page ? `, body AS page` : '';
  out.push(`CREATE OR REPLACE TEMP VIEW landed_pages AS
    SELECT ${cols.replace(', x', '')}${page} FROM ${read('all', p.page ? landedColumns(META, {}, { body: duckdbType(p.page) }) : meta)}`);
  return out;
}

/** The view `landed_invalid`: the records of the batch that failed the contract when fetched. */
function invalidSql(lists: LandedLists): string {
  if (!lists.partial.length) {
    return `CREATE OR REPLACE TEMP VIEW landed_invalid AS SELECT NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id,
      NULL::STRUCT(i INTEGER, error VARCHAR, raw JSON) AS q WHERE false`;
  }
  return `CREATE OR REPLACE TEMP VIEW landed_invalid AS SELECT project_id, run_id, unnest(invalid) AS q
    FROM read_json(${landedField('partial')}, format = 'unstructured', maximum_object_size = ${landedField('partial_max')},
                   columns = {${landedColumns(['project_id', 'run_id', 'invalid'])}})`;
}

const sum = (a: RunCounts, b: RunCounts): RunCounts => ({
  pages: a.pages + b.pages, requests: a.requests + b.requests, rows: a.rows + b.rows, quarantined: a.quarantined + b.quarantined,
});
