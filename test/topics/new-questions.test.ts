// sql/topics/new-questions.sql picks the cap's questions by hash first, then groups only those with
// their text (docs/performance.md, gap topics, fifth round). It must pick exactly what one grouping
// of every turn ranked by (count desc, text) picks: the same rows, numbers and examples, ties at the
// cut included. Real in-memory DuckDB.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runStatements } from '../../src/warehouse/run-statements.js';
import { sqlFile } from '../../src/warehouse/sql-files.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  // 3,000 turns of about 200 questions, many asked the same number of times (ties at every cut);
  // three of them already held by a topic.
  await conn.run(`CREATE TEMP TABLE gap_new AS SELECT question, 'Q' || i AS query, hash(question) AS qhash
    FROM (SELECT i, 'q' || ((i * 7919) % 997 * (i % 13) % 200) AS question FROM range(3000) t(i))`);
  await conn.run(`CREATE TEMP TABLE gap_topic_questions AS SELECT 'p' AS project_id, hash('q' || (i * 7)) AS qhash FROM range(3) t(i)`);
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const REFERENCE = `SELECT row_number() OVER (ORDER BY n DESC, question) AS k, *
  FROM (SELECT question, CAST(qhash AS VARCHAR) AS qhash, count(*) AS n, min(query) AS example FROM gap_new
        WHERE qhash NOT IN (SELECT qhash FROM gap_topic_questions WHERE project_id = 'p')
        GROUP BY question, qhash ORDER BY n DESC, question LIMIT $cap)`;

const rows = async (sql: string, cap?: number) =>
  (await conn.runAndReadAll(sql, cap === undefined ? undefined : { cap })).getRows().map((r) => r.map(String));

it('picks the same questions, numbered and with the same examples, as one ranking of every question', async () => {
  const counts = await rows('SELECT n, count(*) FROM (SELECT question, count(*) AS n FROM gap_new GROUP BY question) GROUP BY n HAVING count(*) > 1');
  expect(counts.length).toBeGreaterThan(3); // ties at many counts
  for (const cap of [0, 1, 2, 7, 25, 60, 100, 150, 196, 197, 500]) {
    await runStatements(conn, sqlFile('topics/new-questions.sql'), { project: 'p', cap });
    const got = await rows('SELECT * FROM gap_newq ORDER BY k');
    expect(got, `cap ${cap}`).toEqual(await rows(REFERENCE, cap));
    if (cap > 0 && cap < 150) expect(got.length).toBe(cap);
  }
});
