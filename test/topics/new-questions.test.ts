// sql/topics/new-questions.sql counts the new questions by hash and finds the cap's cut, read and
// bound as values into new-questions-pick.sql, which groups only the chosen ones with their text
// (docs/performance.md, gap topics, fifth and sixth rounds). It must pick exactly what one grouping
// of every turn ranked by (count desc, text) picks: the same rows, numbers and examples, ties at the
// cut included. Real in-memory DuckDB.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newQuestions } from '../../src/outputs/topics/incremental-step.js';
import { StepPhases } from '../../src/outputs/topics/step-phases.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  // 3,000 turns of about 200 questions, many asked the same number of times (ties at every cut);
  // three of them already held by a topic.
  await conn.run(`CREATE TEMP TABLE gap_new_all AS SELECT 'c' || i AS id, TIMESTAMP '2026-01-02' AS occurred_at, '/p' AS page_path,
      question, 'Q' || i AS query, hash(question) AS qhash
    FROM (SELECT i, 'q' || ((i * 7919) % 997 * (i % 13) % 200) AS question FROM range(3000) t(i))`);
  await conn.run(`CREATE TEMP TABLE gap_topic_questions AS SELECT 'p' AS project_id, hash('q' || (i * 7)) AS qhash FROM range(3) t(i)`);
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const REFERENCE = `SELECT row_number() OVER (ORDER BY n DESC, question) AS k, *
  FROM (SELECT question, CAST(qhash AS VARCHAR) AS qhash, count(*) AS n, min(query) AS example FROM gap_new_all
        WHERE qhash NOT IN (SELECT qhash FROM gap_topic_questions WHERE project_id = 'p')
        GROUP BY question, qhash ORDER BY n DESC, question LIMIT $cap)`;

const rows = async (sql: string, cap?: number) =>
  (await conn.runAndReadAll(sql, cap === undefined ? undefined : { cap })).getRows().map((r) => r.map(String));

it('picks the same questions, numbered and with the same examples, as one ranking of every question', async () => {
  const counts = await rows('SELECT n, count(*) FROM (SELECT question, count(*) AS n FROM gap_new_all GROUP BY question) GROUP BY n HAVING count(*) > 1');
  expect(counts.length).toBeGreaterThan(3); // ties at many counts
  for (const cap of [0, 1, 2, 7, 25, 60, 100, 150, 196, 197, 500]) {
    await conn.run('CREATE OR REPLACE TEMP TABLE gap_new AS SELECT * FROM gap_new_all');
    const counted = await newQuestions(conn, { project: 'p' }, cap, new StepPhases());
    const got = await rows('SELECT * FROM gap_newq ORDER BY k');
    expect(counted.total).toBe(got.length);
    expect(counted.fresh).toBe(197); // 200 questions, 3 held by a topic
    // gap_new keeps, without their text, the turns of the picked questions and of those a topic holds.
    const kept = await rows(`SELECT count(*) FROM gap_new_all WHERE qhash IN (SELECT CAST(qhash AS UBIGINT) FROM gap_newq)
      OR qhash IN (SELECT qhash FROM gap_topic_questions)`);
    expect(await rows('SELECT count(*) FROM gap_new'), `cap ${cap}`).toEqual(kept);
    expect(await rows(`SELECT column_name FROM duckdb_columns() WHERE table_name = 'gap_new' ORDER BY column_index`)).toEqual([['id'], ['occurred_at'], ['page_path'], ['qhash']]);
    expect(got, `cap ${cap}`).toEqual(await rows(REFERENCE, cap));
    if (cap > 0 && cap < 150) expect(got.length).toBe(cap);
  }
});
