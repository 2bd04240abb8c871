// The hourly placement's model kept between steps (src/outputs/topics/topic-index-store.ts,
// gap_topic_index), on real DuckDB warehouses: an hourly step places its questions exactly as it
// would from the rows (the same topics, questions, terms and members, with topics of two languages
// and topics an earlier hourly step created), and a snapshot that is not of the rows now (a term
// changed, another format) is never used.
import { afterEach, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { blobValue } from '@duckdb/node-api';
import { silentLogger } from '../../src/core/logger.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep, type TopicStepResult } from '../../src/outputs/topics/topic-step.js';
import { loadPlacementModel } from '../../src/outputs/topics/topic-index-store.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { FakeClock } from '../helpers/fake-clock.js';

const T0 = Date.parse('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
const open: Warehouse[] = [];
afterEach(() => open.splice(0).forEach((w) => w.close()));

/** `n` unanswered turns asking `question` (SQL over i), at `at` minus i seconds. */
async function addTurns(conn: DuckDBConnection, prefix: string, n: number, at: number, question: string): Promise<void> {
  await conn.run(`
    INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, page_path, first_seen_at, last_seen_at, updated_at)
    SELECT 'alpha', $prefix || i, ts, ${question}, 'no answer', 'answer', 'unanswered', '/docs/p' || (i % 7), ts, ts, ts
    FROM (SELECT i, make_timestamp(($at - 1000 * (i + 1)) * 1000) AS ts FROM range($n) t(i))`, { prefix, n, at });
}

const step = (wh: Warehouse, at: number): Promise<TopicStepResult> =>
  runTopicStep({ clock: new FakeClock(at), logger: silentLogger }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS);

const usedSnapshot = (r: TopicStepResult) => r.phases.some((p) => p.phase.includes('(gap_topic_index)') && p.phase.startsWith('place: topic index'));

/** A full step, then an hourly one creating English and German topics of its own (it keeps the model). */
async function twoSteps(): Promise<Warehouse> {
  const wh = await openWarehouse(':memory:');
  open.push(wh);
  await addTurns(wh.conn, 'a', 400, T0 - HOUR, `'how do I configure feature ' || (i % 80)`);
  await addTurns(wh.conn, 'g', 120, T0 - HOUR, `'wie kann ich die funktion ' || (i % 40) || ' für das konto einrichten'`);
  const first = await step(wh, T0);
  expect(first.mode).toBe('full');
  await addTurns(wh.conn, 'b', 90, T0 + HOUR, `'where is the ' || ['zorblat', 'quinfex', 'mardovan'][i % 3 + 1] || ' rotation key ' || (i % 30) || ' stored'`);
  await addTurns(wh.conn, 'h', 60, T0 + HOUR, `'wo ist der ' || ['zorblat', 'quinfex'][i % 2 + 1] || ' schlüssel ' || (i % 20) || ' für das konto'`);
  const second = await step(wh, T0 + HOUR);
  expect(second.mode).toBe('incremental');
  expect(second.topics).toBeGreaterThan(first.topics);
  return wh;
}

/** The third hour: paraphrases of the full step's and the second hour's questions, and new ones. */
async function thirdHour(wh: Warehouse): Promise<TopicStepResult> {
  await addTurns(wh.conn, 'c', 80, T0 + 2 * HOUR, `'where can i find the ' || ['zorblat', 'quinfex', 'mardovan'][i % 3 + 1] || ' rotation key ' || (i % 30)`);
  await addTurns(wh.conn, 'd', 60, T0 + 2 * HOUR, `'how can i configure feature ' || (i % 60) || '?'`);
  await addTurns(wh.conn, 'i', 40, T0 + 2 * HOUR, `'wo finde ich den ' || ['zorblat', 'quinfex'][i % 2 + 1] || ' schlüssel ' || (i % 20)`);
  await addTurns(wh.conn, 'e', 30, T0 + 2 * HOUR, `'is there a ' || ['plumbus', 'grommet', 'sprocket'][i % 3 + 1] || ' export api for region ' || (i % 10)`);
  return step(wh, T0 + 2 * HOUR);
}

const TABLES = {
  gap_topics: 'SELECT * EXCLUDE (computed_at) FROM gap_topics ORDER BY topic_id',
  gap_topic_questions: 'SELECT * FROM gap_topic_questions ORDER BY qhash',
  gap_topic_terms: 'SELECT * FROM gap_topic_terms ORDER BY topic_id, term',
  gap_topic_members: 'SELECT * FROM gap_topic_members ORDER BY conversation_id, occurred_at',
};

async function tables(wh: Warehouse): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [t, sql] of Object.entries(TABLES)) out[t] = (await wh.conn.runAndReadAll(sql)).getRowObjectsJson();
  return out;
}

describe('the placement model kept between steps (gap_topic_index)', () => {
  it('an hourly step places from the kept model exactly as from the rows', { timeout: 60_000 }, async () => {
    const kept = await twoSteps();
    const read = await twoSteps();
    await read.conn.run('DELETE FROM gap_topic_index');
    const [a, b] = [await thirdHour(kept), await thirdHour(read)];
    expect(usedSnapshot(a)).toBe(true);
    expect(usedSnapshot(b)).toBe(false);
    const joined = (await kept.conn.runAndReadAll("SELECT count(*) FROM gap_topic_questions WHERE similarity IS NOT NULL AND assigned_at = $t", { t: new Date(T0 + 2 * HOUR).toISOString() })).getRows()[0]![0];
    expect(Number(joined)).toBeGreaterThan(0);
    expect(a.topics).toBeGreaterThan(0);
    expect(await tables(kept)).toEqual(await tables(read));
    // Both keep a model of the same rows for the next step.
    const keys = async (wh: Warehouse) => (await wh.conn.runAndReadAll('SELECT source_key FROM gap_topic_index')).getRows();
    expect(await keys(kept)).toEqual(await keys(read));
    expect((await loadPlacementModel(kept.conn, 'alpha')).source).toBe('snapshot');
  });

  it('a model of other rows is not used: a changed term weight, a new term, another format', { timeout: 60_000 }, async () => {
    const wh = await twoSteps();
    expect((await loadPlacementModel(wh.conn, 'alpha')).source).toBe('snapshot');
    await wh.conn.run("UPDATE gap_topic_terms SET weight = weight + 1e-9 WHERE rowid = (SELECT min(rowid) FROM gap_topic_terms)");
    expect((await loadPlacementModel(wh.conn, 'alpha')).source).toBe('rows');
    // The next step reads the rows and keeps a model of them.
    await addTurns(wh.conn, 'c', 10, T0 + 2 * HOUR, `'where can i find the zorblat rotation key ' || i`);
    expect(usedSnapshot(await step(wh, T0 + 2 * HOUR))).toBe(false);
    expect((await loadPlacementModel(wh.conn, 'alpha')).source).toBe('snapshot');
    await wh.conn.run("INSERT INTO gap_topic_df SELECT project_id, language, 'w:extra', 1 FROM gap_topic_df LIMIT 1");
    expect((await loadPlacementModel(wh.conn, 'alpha')).source).toBe('rows');
    await wh.conn.run("DELETE FROM gap_topic_df WHERE term = 'w:extra'");
    expect((await loadPlacementModel(wh.conn, 'alpha')).source).toBe('snapshot');
    for (const bytes of [new Uint8Array([9, 0, 0, 0, 1, 0, 0, 0, 123]), new Uint8Array(0)]) {
      await wh.conn.run('UPDATE gap_topic_index SET snapshot = $b', { b: blobValue(bytes) });
      expect((await loadPlacementModel(wh.conn, 'alpha')).source).toBe('rows');
    }
  });

  it('a full re-clustering leaves the kept model unused: its rows are new', { timeout: 60_000 }, async () => {
    const wh = await twoSteps();
    const full = await step(wh, T0 + 24 * HOUR);
    expect(full.mode).toBe('full');
    const [row] = (await wh.conn.runAndReadAll("SELECT count(*) AS n FROM gap_topic_index")).getRowObjectsJS();
    // The full step's tail placed nothing (every question held), so the kept model is of the old rows.
    expect(row!.n).toBe(1n);
    expect((await loadPlacementModel(wh.conn, 'alpha')).source).toBe('rows');
  });
});
