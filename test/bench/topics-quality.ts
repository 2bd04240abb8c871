// `npm run bench -- --scenario topics-quality` (issue 37 item 1): the gap topics measured on labelled
// sets of unanswered questions nobody tuned them to (test/fixtures/topics-quality/*.jsonl: question,
// subject, language; one-off questions are subjects "singleton-N"). Each set is written into a fresh
// warehouse as unanswered turns and the real topic step runs, as a sync would:
//   1. 90% of the questions (chosen by a hash of the text), a full re-clustering;
//   2. the other 10% an hour later: the hourly step places them (incremental);
//   3. the next day: the daily full re-clustering of all of them.
// Reported per set: pairwise precision and recall over distinct questions (truth: subject and
// language: a topic is in one language), the share of topics mixing labelled languages, and
// stability (the share of the first run's turns whose topic id is unchanged after 2 and after 3).
// The parameters were chosen on TUNING_SET only; the others are held out.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { silentLogger } from '../../src/core/logger.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';

export const TUNING_SET = 'payments';
const FIXTURES = fileURLToPath(new URL('../fixtures/topics-quality/', import.meta.url).href.replace('/.bench-build/', '/'));
const PROJECT = 'quality';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface Labelled {
  question: string;
  subject: string;
  language: string;
}

export interface Scores {
  precision: number;
  recall: number;
  topics: number;
  /** Share of topics whose questions carry two or more labelled languages. */
  mixedLanguageShare: number;
}

export interface SetResult {
  set: string;
  questions: number;
  /** After the next day's full re-clustering of all questions. */
  full: Scores;
  /** After the hourly step placed the last 10%. */
  hourly: Scores;
  /** Share of the first run's turns keeping their topic id after the hourly step, and after the next day's full re-clustering. */
  stableHourly: number;
  stableFull: number;
}

export function setNames(): string[] {
  return readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl')).map((f) => f.slice(0, -6)).sort();
}

export function loadSet(name: string): Labelled[] {
  return readFileSync(`${FIXTURES}${name}.jsonl`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Labelled);
}

const hashOf = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0);
const pairs = (n: number) => (n * (n - 1)) / 2;

/** Pairwise precision and recall of "same topic" against "same subject and language". */
export function score(items: readonly { label: Labelled; topic: string }[]): Scores {
  const cell = new Map<string, number>();
  const truth = new Map<string, number>();
  const topic = new Map<string, number>();
  const langs = new Map<string, Set<string>>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const { label, topic: t } of items) {
    const k = `${label.subject}@${label.language}`;
    bump(cell, `${k}\u0000${t}`);
    bump(truth, k);
    bump(topic, t);
    langs.set(t, (langs.get(t) ?? new Set()).add(label.language));
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, n) => a + pairs(n), 0);
  const both = sum(cell);
  return {
    precision: both / Math.max(sum(topic), 1), recall: both / Math.max(sum(truth), 1), topics: topic.size,
    mixedLanguageShare: [...langs.values()].filter((s) => s.size > 1).length / Math.max(langs.size, 1),
  };
}

/** Each question as 1 to 3 unanswered turns (by its hash) at `atMs` minus up to a day, merged at `atMs`. */
async function insertTurns(conn: DuckDBConnection, set: readonly Labelled[], atMs: number, tag: string): Promise<void> {
  await conn.run('CREATE OR REPLACE TEMP TABLE q_turns (id VARCHAR, ts BIGINT, query VARCHAR)');
  const app = await conn.createAppender('q_turns');
  set.forEach((q, i) => {
    const h = hashOf(q.question);
    for (let k = 0; k <= h % 3; k++) {
      app.appendVarchar(`${tag}-${i}-${k}`);
      app.appendBigInt(BigInt(atMs - 1 - ((h >>> 8) % DAY_MS)));
      app.appendVarchar(q.question);
      app.endRow();
    }
  });
  app.closeSync();
  await conn.run(`INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, page_path, first_seen_at, last_seen_at, updated_at)
    SELECT $p, id, make_timestamp(ts * 1000), query, 'Sorry.', 'answer', 'unanswered', '/docs', m, m, m
    FROM q_turns, (SELECT make_timestamp($at * 1000) AS m)`, { p: PROJECT, at: atMs });
  await conn.run('DROP TABLE q_turns');
}

/** Turn id → topic id, and question → topic id. */
async function members(conn: DuckDBConnection): Promise<Map<string, { query: string; topic: string }>> {
  const rows = (await conn.runAndReadAll(`SELECT m.conversation_id AS id, c.query, m.topic_id FROM gap_topic_members m
    JOIN conversations c ON c.project_id = m.project_id AND c.id = m.conversation_id AND c.occurred_at = m.occurred_at WHERE m.project_id = $p`, { p: PROJECT })).getRowObjectsJS();
  return new Map(rows.map((r) => [String(r.id), { query: String(r.query), topic: String(r.topic_id) }]));
}

function scoreMembers(m: Map<string, { query: string; topic: string }>, byText: Map<string, Labelled>): Scores {
  const seen = new Map<string, string>();
  for (const { query, topic } of m.values()) seen.set(query, topic);
  return score([...seen].map(([q, topic]) => ({ label: byText.get(q)!, topic })));
}

function stable(before: Map<string, { topic: string }>, after: Map<string, { topic: string }>): number {
  let same = 0;
  for (const [id, { topic }] of before) if (after.get(id)?.topic === topic) same++;
  return same / Math.max(before.size, 1);
}

export async function measureSet(name: string, set: readonly Labelled[] = loadSet(name)): Promise<SetResult> {
  const byText = new Map(set.map((q) => [q.question, q]));
  const late = set.filter((q) => hashOf(`late\u0000${q.question}`) % 10 === 0);
  const early = set.filter((q) => hashOf(`late\u0000${q.question}`) % 10 !== 0);
  const t0 = Date.parse('2026-06-01T06:00:00Z');
  const wh = await openWarehouse(':memory:');
  try {
    const step = (at: number) => runTopicStep({ clock: { now: () => new Date(at), sleep: async () => {} }, logger: silentLogger }, wh.conn, PROJECT, DEFAULT_TOPIC_SETTINGS);
    await insertTurns(wh.conn, early, t0, 'a');
    await step(t0);
    const first = await members(wh.conn);
    await insertTurns(wh.conn, late, t0 + HOUR_MS, 'b');
    const h = await step(t0 + HOUR_MS);
    if (h.mode !== 'incremental') throw new Error(`expected an incremental step, got ${h.mode}`);
    const hourly = await members(wh.conn);
    const f = await step(t0 + DAY_MS);
    if (f.mode !== 'full') throw new Error(`expected a full step, got ${f.mode}`);
    const full = await members(wh.conn);
    return {
      set: name, questions: set.length, full: scoreMembers(full, byText), hourly: scoreMembers(hourly, byText),
      stableHourly: stable(first, hourly), stableFull: stable(first, full),
    };
  } finally {
    wh.close();
  }
}

const f3 = (x: number) => x.toFixed(3);

/** Prints one line per set (the tuning set marked), then one JSON line. */
export async function topicsQualityBench(): Promise<SetResult[]> {
  const results: SetResult[] = [];
  for (const name of setNames()) results.push(await measureSet(name));
  console.log('set          questions  full: P     R     topics mixed  | hourly: P     R     mixed | stable hourly  full');
  for (const r of results) {
    console.log(`${(r.set + (r.set === TUNING_SET ? ' (tuning)' : '')).padEnd(20)} ${String(r.questions).padStart(4)}  ${f3(r.full.precision)} ${f3(r.full.recall)} ${String(r.full.topics).padStart(4)}  ${f3(r.full.mixedLanguageShare)} `
      + `|  ${f3(r.hourly.precision)} ${f3(r.hourly.recall)} ${f3(r.hourly.mixedLanguageShare)} |  ${f3(r.stableHourly)}  ${f3(r.stableFull)}`);
  }
  console.log(JSON.stringify({ scenario: 'topics-quality', tuningSet: TUNING_SET, results }));
  return results;
}
