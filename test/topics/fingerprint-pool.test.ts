// The topic step's "anything changed?" check (sql/topics/fingerprint.sql) reads the period's turns
// on every run; it runs under the small scan pool (src/warehouse/scan-memory.ts), so a run whose
// step finds nothing changed does not leave DuckDB's pool filled in proportion to the history.
// Real DuckDB file, the real step; the warehouse is reopened so the pool starts empty.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { memorySizeBytes } from '../../src/core/memory-size.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { runTopicStep } from '../../src/outputs/topics/topic-step.js';
import { updateGapTopics } from '../../src/outputs/topics/update-topics.js';
import { SCAN_MEMORY_LIMIT } from '../../src/warehouse/scan-memory.js';
import { migrate } from '../../src/warehouse/warehouse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { MB, poolBytes, withColdWarehouse } from '../helpers/buffer-pool.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-fingerprint-pool-');
const path = join(tmp.dir, 'w.duckdb');
const clock = new FakeClock(Date.parse('2026-11-20T12:00:00Z'));
afterAll(() => tmp.cleanup());

beforeAll(async () => {
  await withColdWarehouse(path, async (wh) => {
    await migrate(wh.conn);
    // 2M unanswered turns of the last 10 days in random order, 300 distinct questions.
    await wh.conn.run(`
      INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                                 first_seen_at, last_seen_at, updated_at)
      SELECT 'alpha', 'c' || i, ts, 'how do I configure feature ' || (i % 300), 'no answer', 'answer', 'unanswered', ts, ts, ts + to_microseconds((hash(i * 7) % 86400000000)::BIGINT)
      FROM (SELECT i, TIMESTAMPTZ '2026-11-10 12:00:00+00' + to_microseconds((hash(i) % 864000000000)::BIGINT) AS ts FROM range(2000000) t(i))`);
    const first = await runTopicStep({ clock, logger: silentLogger }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS);
    expect(first.status).toBe('computed');
    await wh.conn.run('CHECKPOINT');
  });
}, 120_000);

it('a step that finds nothing changed leaves no more than the scan pool in DuckDB', async () => {
  const unbounded = await withColdWarehouse(path, async (wh) => {
    await wh.conn.run(`SELECT count(*) FILTER (WHERE resolution_status = 'unanswered' AND occurred_at >= TIMESTAMPTZ '2026-08-01'), max(updated_at) FROM conversations WHERE project_id = 'alpha'`);
    return await poolBytes(wh);
  });
  // Control: the fingerprint's columns, scanned without the bound, fill the pool beyond it.
  expect(unbounded).toBeGreaterThan(memorySizeBytes(SCAN_MEMORY_LIMIT)! + 8 * MB);

  clock.advance(3_600_000);
  await withColdWarehouse(path, async (wh) => {
    const second = await runTopicStep({ clock, logger: silentLogger }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS);
    expect(second.status).toBe('unchanged');
    expect(second.turns).toBe(2_000_000);
    // The step's run-log row and the catalog of the warehouse come on top (measured 5 MB; 36 MB
    // without the bound).
    expect(await poolBytes(wh)).toBeLessThanOrEqual(memorySizeBytes(SCAN_MEMORY_LIMIT)! + 8 * MB);
  });
}, 60_000);

// The sync runs the step under its step pool first (src/warehouse/memory-pool.ts); the step catches
// its own failures (a project's topics stay as they were), so the retry at the whole limit is made
// per project, inside: a step that needs more than the pool still computes.
it('a topic step that runs out of memory in the smaller pool computes at the whole limit, and the limit comes back', async () => {
  clock.advance(3_600_000);
  await withColdWarehouse(path, async (wh) => {
    const limit = async () => String((await wh.conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]!.m);
    const before = await limit();
    // Control: 2MB is too small for the step.
    await wh.conn.run("SET memory_limit = '2MB'");
    await expect(runTopicStep({ clock, logger: silentLogger }, wh.conn, 'alpha', DEFAULT_TOPIC_SETTINGS, true)).rejects.toThrow(/Out of Memory/);
    await wh.conn.run(`SET memory_limit = '${before}'`);
    const update = await updateGapTopics({ clock, logger: silentLogger }, wh.conn, ['alpha'], DEFAULT_TOPIC_SETTINGS, { force: true, pool: '2MB' });
    expect(update.failed).toEqual([]);
    expect(update.results.map((r) => [r.status, r.turns])).toEqual([['computed', 2_000_000]]);
    expect(await limit()).toBe(before);
  });
}, 120_000);
