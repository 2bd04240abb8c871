// Unanswered turns for the topic bench, written straight into a warehouse (no sync: the bench
// measures the topic step alone). Half are the sandbox's gap questions (some with one more typo),
// half a long tail of other topics: an English question shape about two of 20,000 made-up terms,
// so the distinct questions grow with the turns as in real traffic. Seeded: the same data each run.
import type { DuckDBConnection } from '@duckdb/node-api';
import { DOCS_PAGES } from '../../src/tools/sandbox/corpus.js';
import { makeGapQuestion, questionForm, typo } from '../../src/tools/sandbox/gap-questions.js';
import { int, mulberry32, pick, type Rng } from '../../src/tools/sandbox/prng.js';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'qu', 'dex', 'fin', 'gor', 'hal', 'jup'];

function term(rng: Rng): string {
  return Array.from({ length: int(rng, 2, 4) }, () => pick(rng, SYLLABLES)).join('');
}

/** Appends `turns` unanswered turns of project `projectId` over the 90 days before `nowMs`. */
export async function writeUnansweredTurns(conn: DuckDBConnection, projectId: string, turns: number, seed: number, nowMs: number): Promise<void> {
  const rng = mulberry32(seed);
  const vocabulary = Array.from({ length: 20_000 }, () => term(rng));
  await conn.run('CREATE OR REPLACE TEMP TABLE bench_turns (id VARCHAR, ts BIGINT, query VARCHAR, page_path VARCHAR)');
  const app = await conn.createAppender('bench_turns');
  for (let i = 0; i < turns; i++) {
    let q: string;
    if (rng() < 0.5) {
      q = makeGapQuestion(rng);
      if (rng() < 0.3) q = typo(q, int(rng, 0, 2));
    } else {
      // Zipf-like: the first terms of the vocabulary are asked far more often than the last.
      const a = vocabulary[Math.floor(vocabulary.length * rng() ** 3)]!;
      const b = vocabulary[Math.floor(vocabulary.length * rng())]!;
      q = questionForm(rng).replace('{s}', `the ${a} ${b} setting`);
    }
    app.appendVarchar(`conv-${Math.floor(i / 2)}`);
    app.appendBigInt(BigInt(nowMs - Math.floor(rng() * 89 * 86_400_000) - i));
    app.appendVarchar(q);
    app.appendVarchar(`/${pick(rng, DOCS_PAGES).path}`);
    app.endRow();
  }
  app.closeSync();
  await conn.run(`INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, page_path, first_seen_at, last_seen_at, updated_at)
    SELECT $p, id, make_timestamp(ts * 1000), query, 'Sorry, the docs do not cover this.', 'answer', 'unanswered', page_path, now(), now(), now() FROM bench_turns`, { p: projectId });
  await conn.run('DROP TABLE bench_turns');
}
