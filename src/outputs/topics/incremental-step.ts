// Places the period's turns that are no topic's member yet (docs/topics.md): the hourly path of the
// topic step, and the tail of a full re-clustering (the questions over its in-memory cap). Memory
// does not grow with the period: DuckDB finds the new turns and keeps the topics; the JS side holds
// one batch of questions (assign-new.ts).
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';
import { inTransaction } from '../../warehouse/warehouse.js';
import { runStatements } from '../../warehouse/run-statements.js';
import { placeNewQuestions } from './assign-new.js';
import { readCapCut } from './cap-cut.js';
import { DEFAULT_CLUSTER_OPTIONS } from './cluster-questions.js';
import { dropTempTables, PLACEMENT_TABLES } from './temp-tables.js';
import type { StepPhases } from './step-phases.js';

export interface IncrementalResult {
  /** Distinct questions placed, and those over the cap (left for the next run). */
  questions: number;
  questionsSkipped: number;
  newTopics: number;
}

/** Runs one statement (`name`: `file#k`), e.g. again at a larger memory limit when it ran out (topic-step.ts). */
export type StatementRunner = (name: string, run: () => Promise<void>) => Promise<void>;

/** Each statement of a sql/topics file with the parameters it names (runStatements); `phases`: each timed as `file#k`. */
export async function runScript(
  conn: DuckDBConnection, file: string, params: Record<string, DuckDBValue>, phases?: StepPhases, each?: StatementRunner,
): Promise<void> {
  await runStatements(conn, sqlFile(`topics/${file}.sql`), params, {
    each: each && ((k, run) => each(`${file}#${k}`, run)),
    afterEach: phases && ((k) => phases.mark(`${file}#${k}`)),
  });
}

/**
 * `p`: project, from, to, now, week, prev_week (write-topics.sql's). `cap`: distinct new questions
 * placed at most. `hourly`: the hourly path, with `since` the last full re-clustering's time: only
 * turns changed after it are placed (new-turns.sql); members whose turn left the period are removed first,
 * and every write of the step is one transaction, so a step that fails or is killed midway leaves
 * the previous topics, members and representations as they were (its turns are placed next run).
 * An hour's changes are small (its new questions, their members and new topics' terms), so the
 * transaction's memory is too. The full re-clustering's tail (up to maxQuestions) is not wrapped:
 * DuckDB keeps a transaction's changes in memory. `each` runs the tail's statements (not the hourly
 * ones: an error aborts the transaction).
 */
export async function placeNewTurns(
  conn: DuckDBConnection, p: Record<string, string>, now: Date, cap: number, hourly: { since: string } | false, phases: StepPhases, each?: StatementRunner,
): Promise<IncrementalResult> {
  if (!hourly) return place(conn, { ...p, since: '-infinity' }, now, cap, false, phases, each);
  const r = await inTransaction(conn, () => place(conn, { ...p, since: hourly.since }, now, cap, true, phases));
  phases.mark('commit');
  return r;
}

async function place(
  conn: DuckDBConnection, p: Record<string, string>, now: Date, cap: number, dropDeparted: boolean, phases: StepPhases, each?: StatementRunner,
): Promise<IncrementalResult> {
  if (dropDeparted) await runScript(conn, 'drop-departed', p, phases);
  await runScript(conn, 'new-turns', p, phases, each);
  const { total, fresh } = await newQuestions(conn, p, cap, phases, each);
  const placed = await placeNewQuestions(conn, p.project!, now, total, DEFAULT_CLUSTER_OPTIONS, phases);
  // The new topics' pages and sources by the statements the full step's write shares (top-pages.sql).
  for (const file of ['refresh-topics', 'top-pages', 'insert-new-topics']) await runScript(conn, file, p, phases, each);
  await dropTempTables(conn, PLACEMENT_TABLES);
  phases.mark('drop temp tables');
  return { questions: placed.questions, questionsSkipped: fresh - total, newTopics: placed.newTopics };
}

/**
 * The new questions no topic holds yet (`fresh`), the `cap` most asked of them numbered in gap_newq
 * (`total`). The cut (new-questions.sql) is read and bound into new-questions-pick.sql as values
 * (cap-cut.ts).
 */
export async function newQuestions(
  conn: DuckDBConnection, p: Record<string, string>, cap: number, phases: StepPhases, each?: StatementRunner,
): Promise<{ total: number; fresh: number }> {
  await runScript(conn, 'new-questions', { ...p, cap }, phases, each);
  const fresh = Number((await conn.runAndReadAll('SELECT count(*) AS n FROM gap_qn_n')).getRowObjectsJS()[0]!.n);
  const { t, take } = await readCapCut(conn, 'gap_qn_cut', cap);
  await runScript(conn, 'new-questions-pick', { project: p.project!, t, take }, phases, each);
  const total = Number((await conn.runAndReadAll('SELECT count(*) AS n FROM gap_newq')).getRowObjectsJS()[0]!.n);
  phases.mark('count new questions');
  return { total, fresh };
}
