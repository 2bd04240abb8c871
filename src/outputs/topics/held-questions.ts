// The questions a full re-clustering holds in memory (docs/topics.md): the period's `cap` most asked
// (ties by normalized text), counted by hash in DuckDB and read as columns, with gap_turns narrowed
// to their turns (sql/topics/questions.sql, questions-pick.sql; docs/performance.md, gap topics,
// sixth round). The cut is read and bound as values (cap-cut.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { readCapCut } from './cap-cut.js';
import { runScript, type StatementRunner } from './incremental-step.js';
import { dropTempTables } from './temp-tables.js';

/** Columns question, qhash (text), n, example, most asked first, then by text. */
export type HeldColumns = Record<string, unknown[]>;

/** `p`: project, from, to (gap-turns.sql ran first). `each`: runs each statement (again at the whole limit). */
export async function readHeldQuestions(conn: DuckDBConnection, p: Record<string, string>, cap: number, each?: StatementRunner): Promise<HeldColumns> {
  await runScript(conn, 'questions', { cap }, undefined, each);
  const { t, take } = await readCapCut(conn, 'gap_hn_cut', cap);
  await runScript(conn, 'questions-pick', { ...p, t, take }, undefined, each);
  const cols = (await conn.runAndReadAll('SELECT question, CAST(qhash AS VARCHAR) AS qhash, n, example FROM gap_held ORDER BY n DESC, question')).getColumnsObjectJS();
  await dropTempTables(conn, ['gap_held']);
  return cols;
}
