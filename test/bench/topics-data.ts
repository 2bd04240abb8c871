// Unanswered turns for the topic bench, written straight into a warehouse (no sync: the bench
// measures the topic step alone). 5% are the sandbox's gap questions (some with one more typo), the
// rest distinct questions as in real traffic (issue 37): a question shape about three of 50,000
// made-up terms and a number, so nearly every turn asks a question no other turn asked (a few terms
// are asked far more often, so topics still form). Seeded: the same data each run.
import type { DuckDBConnection } from '@duckdb/node-api';
import { DOCS_PAGES } from '../../src/tools/sandbox/corpus.js';
import { makeGapQuestion, questionForm, typo } from '../../src/tools/sandbox/gap-questions.js';
import { int, mulberry32, pick, rngFor, type Rng } from '../../src/tools/sandbox/prng.js';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'qu', 'dex', 'fin', 'gor', 'hal', 'jup'];

function term(rng: Rng): string {
  return Array.from({ length: int(rng, 2, 4) }, () => pick(rng, SYLLABLES)).join('');
}

/** One made-up distinct question: three terms (the first Zipf-like) and a number. */
function madeUpQuestion(rng: Rng, vocabulary: readonly string[]): string {
  // Zipf-like: the first terms of the vocabulary are asked far more often than the last.
  const a = vocabulary[Math.floor(vocabulary.length * rng() ** 3)]!;
  const b = vocabulary[Math.floor(vocabulary.length * rng())]!;
  const c = vocabulary[Math.floor(vocabulary.length * rng())]!;
  return questionForm(rng).replace('{s}', `the ${a} ${b} ${c} setting ${int(rng, 1, 999)}`);
}

/**
 * Appends `turns` unanswered turns of project `projectId` over the `spanMs` (90 days) before `nowMs`,
 * read and changed (first_seen_at, updated_at) at `nowMs`, as a sync's merge at that time writes them.
 * `distinct`: the made-up questions are drawn from that many (each asked about turns / distinct
 * times, e.g. 1M turns of 200k questions); unset, nearly every turn asks its own.
 */
export async function writeUnansweredTurns(
  conn: DuckDBConnection, projectId: string, turns: number, seed: number, nowMs: number, spanMs = 89 * 86_400_000, distinct?: number,
): Promise<void> {
  const rng = mulberry32(seed);
  const vocabulary = Array.from({ length: 50_000 }, () => term(rng));
  // Question j of the drawn set: the same text whenever it is drawn (its own seeded generator).
  const drawn = (j: number) => madeUpQuestion(rngFor(seed, 'question', j), vocabulary);
  await conn.run('CREATE OR REPLACE TEMP TABLE bench_turns (id VARCHAR, ts BIGINT, query VARCHAR, page_path VARCHAR)');
  const app = await conn.createAppender('bench_turns');
  for (let i = 0; i < turns; i++) {
    let q: string;
    if (rng() < 0.05) {
      q = makeGapQuestion(rng);
      if (rng() < 0.3) q = typo(q, int(rng, 0, 2));
    } else {
      q = distinct ? drawn(Math.floor(distinct * rng())) : madeUpQuestion(rng, vocabulary);
    }
    app.appendVarchar(`conv-${seed}-${Math.floor(i / 2)}`);
    app.appendBigInt(BigInt(nowMs - 1 - Math.floor(rng() * spanMs)));
    app.appendVarchar(q);
    app.appendVarchar(`/${pick(rng, DOCS_PAGES).path}`);
    app.endRow();
  }
  app.closeSync();
  await conn.run(`INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, page_path, first_seen_at, last_seen_at, updated_at)
    SELECT $p, id, make_timestamp(ts * 1000), query, 'Sorry, the docs do not cover this.', 'answer', 'unanswered', page_path, m, m, m
    FROM bench_turns, (SELECT make_timestamp($now * 1000) AS m)`, { p: projectId, now: nowMs });
  await conn.run('DROP TABLE bench_turns');
}
