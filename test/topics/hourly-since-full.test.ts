// An hourly topic step places the turns that arrived or changed since the last full re-clustering
// (new-turns.sql's $since), not the questions that full re-clustering left over topicMaxQuestions:
// those stay out until the next one (docs/topics.md), instead of every hourly step placing up to
// 20,000 of them (at 1M distinct turns, 11-14 s an hour). On a real DuckDB warehouse.
import { afterEach, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { silentLogger } from '../../src/core/logger.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { FakeClock } from '../helpers/fake-clock.js';

const T0 = Date.parse('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
const settings = { ...DEFAULT_TOPIC_SETTINGS, maxQuestions: 40 };
let wh: Warehouse;
afterEach(() => wh?.close());

/** `n` unanswered turns asking `question` (SQL over i), merged (updated_at) at `mergedAt`. */
async function addTurns(conn: DuckDBConnection, prefix: string, n: number, at: number, question: string, mergedAt: number): Promise<void> {
  await conn.run(`
    INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, page_path, first_seen_at, last_seen_at, updated_at)
    SELECT 'alpha', $prefix || i, make_timestamp(($at - 1000 * (i + 1)) * 1000), ${question}, 'no answer', 'answer', 'unanswered', '/docs/p', m, m, m
    FROM (SELECT i, make_timestamp($merged * 1000) AS m FROM range($n) t(i))`, { prefix, n, at, merged: mergedAt });
}

const members = async (prefix: string) =>
  Number((await wh.conn.runAndReadAll('SELECT count(*) FROM gap_topic_members WHERE starts_with(conversation_id, $p)', { p: prefix })).getRows()[0]![0]);

it('an hourly step places the hour\'s new questions, not those the full re-clustering left over the cap', { timeout: 60_000 }, async () => {
  wh = await openWarehouse(':memory:');
  // 100 distinct questions, the first 40 asked 3 times (the cap's), the other 60 once.
  await addTurns(wh.conn, 'top', 120, T0 - HOUR, `'how do I rotate the api key of service ' || (i % 40)`, T0 - HOUR);
  await addTurns(wh.conn, 'rare', 60, T0 - HOUR, `'where is the audit log export for team ' || i`, T0 - HOUR);
  const full = await runTopicStep({ clock: new FakeClock(T0), logger: silentLogger }, wh.conn, 'alpha', settings);
  expect(full).toMatchObject({ mode: 'full', questions: 40, questionsSkipped: 60 });
  expect([await members('top'), await members('rare')]).toEqual([120, 0]);

  await addTurns(wh.conn, 'new', 10, T0 + HOUR, `'can i pause the webhook deliveries of endpoint ' || i`, T0 + HOUR);
  const hourly = await runTopicStep({ clock: new FakeClock(T0 + HOUR), logger: silentLogger }, wh.conn, 'alpha', settings);
  expect(hourly).toMatchObject({ mode: 'incremental', questions: 10, questionsSkipped: 0 });
  expect([await members('new'), await members('rare')]).toEqual([10, 0]);

  // A left-over turn that changes after the full re-clustering (here: unanswered again) is placed;
  // a new turn asking a known question joins its topic (not a new question).
  await wh.conn.run("UPDATE conversations SET updated_at = $m WHERE id = 'rare7'", { m: new Date(T0 + 2 * HOUR).toISOString() });
  await addTurns(wh.conn, 'later', 1, T0 + 2 * HOUR, `'can i pause the webhook deliveries of endpoint 3'`, T0 + 2 * HOUR);
  const next = await runTopicStep({ clock: new FakeClock(T0 + 2 * HOUR), logger: silentLogger }, wh.conn, 'alpha', settings);
  expect(next).toMatchObject({ mode: 'incremental', questions: 1 });
  expect([await members('later'), await members('rare')]).toEqual([1, 1]);
});
