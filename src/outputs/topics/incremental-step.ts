// Places the period's turns that are no topic's member yet (docs/topics.md): the hourly path of the
// topic step, and the tail of a full re-clustering (the questions over its in-memory cap). Memory
// does not grow with the period: DuckDB finds the new turns and keeps the topics; the JS side holds
// one batch of questions (assign-new.ts).
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';
import { placeNewQuestions } from './assign-new.js';
import { DEFAULT_CLUSTER_OPTIONS } from './cluster-questions.js';
import { dropTempTables, PLACEMENT_TABLES } from './temp-tables.js';

export interface IncrementalResult {
  /** Distinct questions placed, and those over the cap (left for the next run). */
  questions: number;
  questionsSkipped: number;
  newTopics: number;
}

/** Each statement of a sql/topics file with the parameters it names. */
export async function runScript(conn: DuckDBConnection, file: string, params: Record<string, DuckDBValue>): Promise<void> {
  const text = sqlFile(`topics/${file}.sql`).replace(/^--.*$/gm, '');
  for (const sql of text.split(/;\s*$/m).map((x) => x.trim()).filter(Boolean)) {
    await conn.run(sql, Object.fromEntries(Object.entries(params).filter(([k]) => new RegExp(`\\$${k}\\b`).test(sql))));
  }
}

/**
 * `p`: project, from, to, now, week, prev_week (write-topics.sql's). `cap`: distinct new questions
 * placed at most. `dropDeparted`: remove members whose turn left the period first (hourly path).
 */
export async function placeNewTurns(
  conn: DuckDBConnection, p: Record<string, string>, now: Date, cap: number, dropDeparted: boolean, onProgress?: () => void,
): Promise<IncrementalResult> {
  if (dropDeparted) await runScript(conn, 'drop-departed', p);
  await runScript(conn, 'new-turns', p);
  await runScript(conn, 'new-questions', { ...p, cap });
  const [c] = (await conn.runAndReadAll(`SELECT (SELECT count(*) FROM gap_newq) AS placed,
    (SELECT count(DISTINCT qhash) FROM gap_new WHERE qhash NOT IN (SELECT qhash FROM gap_topic_questions WHERE project_id = $project)) AS fresh`,
  { project: p.project! })).getRowObjectsJS();
  const total = Number(c!.placed);
  const placed = await placeNewQuestions(conn, p.project!, now, total, DEFAULT_CLUSTER_OPTIONS, onProgress);
  await runScript(conn, 'refresh-topics', p);
  await dropTempTables(conn, PLACEMENT_TABLES);
  return { questions: placed.questions, questionsSkipped: Number(c!.fresh) - total, newTopics: placed.newTopics };
}
