// The generated 'replace-day' merge (src/sync/pipeline/replace-day-sql.ts) on a real DuckDB
// warehouse: a day read again replaces that day's rows in every declared table (and only that
// day's), and merge_stats counts the read's rows, its new keys and its changed ones.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pageViews } from '../../pipelines/index.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { replaceDaySql } from '../../src/sync/pipeline/replace-day-sql.js';
import type { ReplaceDay } from '../../src/sync/pipeline/definition.js';

let wh: Warehouse;
const OLD = '2026-03-01T00:00:00Z';
const NOW = '2026-03-11T12:00:00.000Z';

beforeAll(async () => {
  wh = await openWarehouse(':memory:');
  const c = wh.conn;
  await c.run(`INSERT INTO page_views_daily VALUES ('p', DATE '2026-03-10', '/a', 1, 1, 2, '${OLD}'), ('p', DATE '2026-03-10', '/b', 5, 0, 5, '${OLD}'),
    ('p', DATE '2026-03-09', '/a', 7, 0, 7, '${OLD}'), ('q', DATE '2026-03-10', '/a', 3, 0, 3, '${OLD}')`);
  await c.run(`INSERT INTO site_views_daily VALUES ('p', DATE '2026-03-10', 6, 1, 7, '${OLD}'), ('p', DATE '2026-03-09', 7, 0, 7, '${OLD}')`);
  // A new read of p's 2026-03-10: /a changed, /b unchanged, /c new (and /b's old row stays only if the day is not replaced).
  await c.run(`CREATE TEMP TABLE batch_days AS SELECT 'p' AS project_id, 'w1' AS window_id, DATE '2026-03-10' AS day, 9::BIGINT AS human, 2::BIGINT AS ai, 11::BIGINT AS total`);
  await c.run(`CREATE TEMP TABLE stage AS SELECT * FROM (VALUES ('p', 'w1', DATE '2026-03-10', '/a', 2::BIGINT, 1::BIGINT, 3::BIGINT),
    ('p', 'w1', DATE '2026-03-10', '/b', 5::BIGINT, 0::BIGINT, 5::BIGINT), ('p', 'w1', DATE '2026-03-10', '/c', 2::BIGINT, 1::BIGINT, 3::BIGINT))
    AS t(project_id, window_id, day, path, human, ai, total)`);
  for (const sql of replaceDaySql(pageViews, pageViews.load.merge as ReplaceDay)) await c.run(sql, sql.includes('$now') ? { now: NOW } : undefined);
});

afterAll(() => wh?.close());

const rows = async (sql: string) => (await wh.conn.runAndReadAll(sql)).getRowObjectsJson();

it("replaces the read day's rows, and only that day's of that project", async () => {
  expect(await rows(`SELECT project_id, day::VARCHAR d, path, human, ai, total, read_at = '${NOW}'::TIMESTAMPTZ AS now FROM page_views_daily ORDER BY ALL`)).toEqual([
    { project_id: 'p', d: '2026-03-09', path: '/a', human: '7', ai: '0', total: '7', now: false },
    { project_id: 'p', d: '2026-03-10', path: '/a', human: '2', ai: '1', total: '3', now: true },
    { project_id: 'p', d: '2026-03-10', path: '/b', human: '5', ai: '0', total: '5', now: true },
    { project_id: 'p', d: '2026-03-10', path: '/c', human: '2', ai: '1', total: '3', now: true },
    { project_id: 'q', d: '2026-03-10', path: '/a', human: '3', ai: '0', total: '3', now: false },
  ]);
  expect(await rows('SELECT day::VARCHAR d, human, ai, total FROM site_views_daily ORDER BY ALL')).toEqual([
    { d: '2026-03-09', human: '7', ai: '0', total: '7' }, { d: '2026-03-10', human: '9', ai: '2', total: '11' },
  ]);
});

it('counts the read by key against the day it replaced: rows, new keys, changed ones', async () => {
  expect(await rows('SELECT window_id, rows, new_rows, changed_rows FROM merge_stats')).toEqual([{ window_id: 'w1', rows: '3', new_rows: '1', changed_rows: '1' }]);
});
