// When the topic step computes again (sql/topics/fingerprint.sql): a changed or deleted turn of the
// period computes; a change to a turn older than the period, which cannot change the topics, does
// not; an unchanged period does not, and reports the unanswered turns of the step it matches. Real
// DuckDB file, the real step.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';
import { migrate } from '../../src/warehouse/warehouse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { withColdWarehouse } from '../helpers/buffer-pool.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-fingerprint-changes-');
afterAll(() => tmp.cleanup());

it('a changed turn of the period computes the topics again; a changed turn before the period does not', async () => {
  const clock = new FakeClock(Date.parse('2026-11-20T08:00:00Z'));
  type Wh = { conn: Parameters<typeof runTopicStep>[1] };
  const run = (wh: Wh) => runTopicStep({ clock, logger: silentLogger }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS);
  const step = async (wh: Wh) => (await run(wh)).status;
  await withColdWarehouse(join(tmp.dir, 'w.duckdb'), async (wh) => {
    await migrate(wh.conn);
    // 600 unanswered turns of the last 10 days (60 questions), and 100 from 200 days ago (the
    // period is 90 days).
    await wh.conn.run(`
      INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                                 first_seen_at, last_seen_at, updated_at)
      SELECT 'alpha', 'c' || i, ts, 'how do I configure feature ' || (i % 60), 'no answer', 'answer', 'unanswered', ts, ts, ts
      FROM (SELECT i, TIMESTAMPTZ '2026-11-10 00:00:00+00' + to_microseconds(i * 1000000000) AS ts FROM range(600) t(i))`);
    await wh.conn.run(`
      INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                                 first_seen_at, last_seen_at, updated_at)
      SELECT 'alpha', 'old' || i, ts, 'how do I export old thing ' || i, 'no answer', 'answer', 'unanswered', ts, ts, ts
      FROM (SELECT i, TIMESTAMPTZ '2026-05-04 00:00:00+00' + to_microseconds(i * 1000000000) AS ts FROM range(100) t(i))`);
    expect(await run(wh)).toMatchObject({ status: 'computed', turns: 600 });
    clock.advance(3_600_000);
    // An unchanged step reports the period's unanswered turns of the step it matches.
    expect(await run(wh)).toMatchObject({ status: 'unchanged', turns: 600 });

    // A turn before the period changes: the topics cannot.
    clock.advance(3_600_000);
    await wh.conn.run(`UPDATE conversations SET query = 'how do I export it now', updated_at = TIMESTAMPTZ '2026-11-20 09:30:00+00' WHERE id = 'old7'`);
    expect(await step(wh)).toBe('unchanged');

    // A turn of the period changes its question (same count of unanswered turns): computed again.
    clock.advance(3_600_000);
    await wh.conn.run(`UPDATE conversations SET query = 'where is the billing page', updated_at = TIMESTAMPTZ '2026-11-20 10:30:00+00' WHERE id = 'c42'`);
    expect(await step(wh)).toBe('computed');
    clock.advance(3_600_000);
    expect(await step(wh)).toBe('unchanged');

    // A turn of the period deleted (nothing else moves): computed again, one turn fewer.
    clock.advance(3_600_000);
    await wh.conn.run(`DELETE FROM conversations WHERE id = 'c43'`);
    expect(await run(wh)).toMatchObject({ status: 'computed', turns: 599 });
  });
}, 60_000);
