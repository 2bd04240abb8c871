// The full re-clustering's held questions (held-questions.ts: sql/topics/questions.sql counts by hash
// and cuts, questions-pick.sql groups only the chosen ones with their text) must be exactly what one
// grouping of the period's turns by normalized text, ranked by (count desc, text) and limited to the
// cap, gives: the same questions, counts and examples, ties at the cut included; and gap_turns keeps
// the turns of those questions only (docs/performance.md, gap topics, sixth round). Real DuckDB.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readHeldQuestions } from '../../src/outputs/topics/held-questions.js';
import { runStatements } from '../../src/warehouse/run-statements.js';
import { sqlFile } from '../../src/warehouse/sql-files.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
const P = { project: 'p', from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  // The warehouse's question_text macro, as its migration creates it (the step's SQL calls it).
  await conn.run(sqlFile('migrations/0039-question-text.sql'));
  // 3,000 turns of about 200 questions, each asked in several spellings that normalize alike (case,
  // spaces, trailing punctuation: the example is the least of them), many asked the same number of
  // times (ties at every cut); plus turns the period leaves out (answered, another project, too
  // early, blank).
  await conn.run(`CREATE TABLE conversations AS
    SELECT 'p' AS project_id, 'c' || i AS id, TIMESTAMP '2026-01-02' + INTERVAL (i) MINUTE AS occurred_at, 'unanswered' AS resolution_status,
      '/page' || (i % 5) AS page_path,
      CASE i % 3 WHEN 0 THEN 'How Q' || q || '?' WHEN 1 THEN 'how  q' || q ELSE 'HOW Q' || q || ' .' END AS query
    FROM (SELECT i, (i * 7919) % 997 * (i % 13) % 200 AS q FROM range(3000) t(i))
    UNION ALL SELECT 'p', 'x' || i, TIMESTAMP '2026-01-03', 'answered', '/a', 'how q1' FROM range(50) t(i)
    UNION ALL SELECT 'other', 'y' || i, TIMESTAMP '2026-01-03', 'unanswered', '/a', 'how q2' FROM range(50) t(i)
    UNION ALL SELECT 'p', 'z' || i, TIMESTAMP '2025-12-01', 'unanswered', '/a', 'how q3' FROM range(50) t(i)
    UNION ALL SELECT 'p', 'b' || i, TIMESTAMP '2026-01-03', 'unanswered', '/a', ' ?' FROM range(5) t(i)`);
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const PERIOD = `FROM conversations WHERE project_id = 'p' AND resolution_status = 'unanswered'
  AND occurred_at >= TIMESTAMP '2026-01-01' AND occurred_at < TIMESTAMP '2026-02-01'`;
const NORMAL = `lower(trim(regexp_replace(regexp_replace(query, '\\s+', ' ', 'g'), '[\\s?!.,;:]+$', '')))`;
/** What the step held before: one grouping by text, ranked, limited. */
const REFERENCE = `SELECT question, CAST(hash(question) AS VARCHAR) AS qhash, count(*) AS n, min(query) AS example
  FROM (SELECT query, ${NORMAL} AS question ${PERIOD}) WHERE question <> ''
  GROUP BY question ORDER BY n DESC, question LIMIT $cap`;

const rows = async (sql: string, cap?: number) =>
  (await conn.runAndReadAll(sql, cap === undefined ? undefined : { cap })).getRows().map((r) => r.map(String));

it('holds the questions, counts and examples one ranking of the period gives, and narrows gap_turns to their turns', async () => {
  const ties = await rows(`SELECT n FROM (SELECT ${NORMAL} AS question, count(*) AS n ${PERIOD} GROUP BY 1) GROUP BY n HAVING count(*) > 1`);
  expect(ties.length).toBeGreaterThan(3);
  for (const cap of [0, 1, 2, 7, 25, 60, 100, 150, 199, 200, 500]) {
    await runStatements(conn, sqlFile('topics/gap-turns.sql'), P);
    const cols = await readHeldQuestions(conn, P, cap);
    const got = (cols.question ?? []).map((q, i) => [q, cols.qhash![i], cols.n![i], cols.example![i]].map(String));
    const want = await rows(REFERENCE, cap);
    expect(got, `cap ${cap}`).toEqual(want);
    if (cap > 0 && cap < 150) expect(got.length).toBe(cap);
    // gap_turns: exactly the turns of the held questions.
    const turns = await rows('SELECT count(*), count(DISTINCT qhash) FROM gap_turns');
    expect(turns, `cap ${cap}`).toEqual([[String(want.reduce((a, r) => a + Number(r[2]), 0)), String(want.length)]]);
  }
});
