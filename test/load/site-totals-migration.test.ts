// Migration 0008: a warehouse whose site totals were in the shared site_traffic_daily (migration
// 0006) keeps every row read, now one table per pipeline, and the old table is gone.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-migration-0008-');
afterAll(() => tmp.cleanup());

it('moves views and visitors totals out of site_traffic_daily', async () => {
  const path = join(tmp.dir, 'w.duckdb');
  // The warehouse as 0006 and 0007 left it: site_traffic_daily with rows, 0008 not applied.
  const before = await openWarehouse(path);
  try {
    await before.conn.run('DROP TABLE site_views_daily; DROP TABLE site_visitors_daily');
    await before.conn.run(`CREATE TABLE site_traffic_daily (project_id VARCHAR NOT NULL, day DATE NOT NULL,
      views_human BIGINT, views_ai BIGINT, views_total BIGINT, visitors_human BIGINT, visitors_ai BIGINT, visitors_total BIGINT,
      read_at TIMESTAMPTZ NOT NULL)`);
    await before.conn.run(`INSERT INTO site_traffic_daily VALUES
      ('a', '2026-11-01', 10, 2, 12, 7, 1, 7, '2026-11-02 06:00:00+00'),
      ('a', '2026-11-02', 20, 4, 24, NULL, NULL, NULL, '2026-11-03 06:00:00+00'),
      ('b', '2026-11-01', NULL, NULL, NULL, 3, 3, 5, '2026-11-02 06:00:00+00')`);
    await before.conn.run("DELETE FROM schema_migrations WHERE name LIKE '0008%'");
  } finally {
    before.close();
  }
  const after = await openWarehouse(path);
  try {
    const rows = async (sql: string) => (await after.conn.runAndReadAll(sql)).getRowObjectsJS();
    expect(await rows("SELECT project_id, strftime(day, '%d') AS d, human, ai, total FROM site_views_daily ORDER BY ALL")).toEqual([
      { project_id: 'a', d: '01', human: 10n, ai: 2n, total: 12n }, { project_id: 'a', d: '02', human: 20n, ai: 4n, total: 24n },
    ]);
    expect(await rows("SELECT project_id, strftime(day, '%d') AS d, human, ai, total FROM site_visitors_daily ORDER BY ALL")).toEqual([
      { project_id: 'a', d: '01', human: 7n, ai: 1n, total: 7n }, { project_id: 'b', d: '01', human: 3n, ai: 3n, total: 5n },
    ]);
    expect(await rows("SELECT table_name FROM duckdb_tables() WHERE table_name = 'site_traffic_daily'")).toEqual([]);
  } finally {
    after.close();
  }
});
