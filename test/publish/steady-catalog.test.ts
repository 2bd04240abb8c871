// A steady publish builds the read catalog from the previous one, replacing only the views whose
// files changed (src/sync/publish/catalog-update.ts): re-creating every table's view and every
// view of sql/views was most of a publish that found nothing new. Readers still get the
// warehouse's rows through every name. A real migrated warehouse, real publishes, the catalog
// read by a separate read-only DuckDB instance.
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sqlFolder } from '../../src/warehouse/sql-files.js';
import { migrate, openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { publishCatalog } from '../../src/sync/publish/read-surface.js';
import { tempDir } from '../helpers/tmp.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';

let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;

async function addTurns(day: string, n: number): Promise<void> {
  await wh.conn.run(`
    INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, page_url, page_path, first_seen_at, last_seen_at, updated_at)
    SELECT 'alpha', $day || '-c' || i, $day::TIMESTAMPTZ + to_microseconds(i * 1000000), 'how do I ' || (i % 7), 'a', 'answer',
           CASE WHEN i % 3 = 0 THEN 'unanswered' ELSE 'answered' END, 'https://d.example/p' || (i % 5), '/p' || (i % 5),
           $day::TIMESTAMPTZ + INTERVAL 1 DAY, $day::TIMESTAMPTZ + INTERVAL 1 DAY, $day::TIMESTAMPTZ + INTERVAL 1 DAY
    FROM range($n) t(i)`, { day, n });
}

beforeAll(async () => {
  tmp = tempDir('docs-etl-steady-catalog-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 2 });
  await migrate(wh.conn);
  await addTurns('2026-11-03', 200);
  await wh.conn.run("INSERT INTO projects (project_id, updated_at) VALUES ('alpha', TIMESTAMPTZ '2026-11-05 00:00:00+00')");
}, 60_000);
afterAll(() => {
  wh?.close();
  tmp?.cleanup();
});

/** Every listed name read through the catalog equals the warehouse's rows. */
async function expectSameRows(readPath: string, names: string[]): Promise<void> {
  const inst = await DuckDBInstance.create(readPath, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  await conn.run("SET TimeZone = 'UTC'");
  try {
    for (const name of names) {
      const sql = `SELECT * FROM ${name} ORDER BY ALL`;
      expect((await conn.runAndReadAll(sql)).getRowObjectsJson(), name).toEqual((await wh.conn.runAndReadAll(sql)).getRowObjectsJson());
    }
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

it('a steady publish replaces only the views whose files changed; every name still answers the warehouse\'s rows', async () => {
  const readPath = join(tmp.dir, 'read', 'w.duckdb');
  const settings = { readPath, readSurface: 'catalog' as const, readGraceMs: 86_400_000, lakeTables: LAKE_TABLES };
  const views = sqlFolder('views').map((v) => /CREATE OR REPLACE VIEW (\w+)/.exec(v.sql)![1]!);
  const first = await publishCatalog(wh.conn, settings, new Date('2026-11-05T12:00:00Z'), true);
  expect(first.views).toBeGreaterThan(40);

  const same = await publishCatalog(wh.conn, settings, new Date('2026-11-05T13:00:00Z'));
  expect(same.views).toBe(0);
  expect(same.files?.written).toBe(0);

  // A new project row: only the projects view is replaced.
  await wh.conn.run("INSERT INTO projects (project_id, updated_at) VALUES ('beta', TIMESTAMPTZ '2026-11-05 13:00:00+00')");
  const one = await publishCatalog(wh.conn, settings, new Date('2026-11-05T14:00:00Z'));
  expect(one.views).toBe(1);

  // Turns of a new day: the conversations view (a new segment) is replaced; the views over it follow.
  await addTurns('2026-11-05', 50);
  const turns = await publishCatalog(wh.conn, settings, new Date('2026-11-05T15:00:00Z'));
  expect(turns.views).toBeGreaterThanOrEqual(1);
  expect(turns.views).toBeLessThanOrEqual(2);
  await expectSameRows(readPath, ['conversations', 'projects', ...views.filter((v) => ['daily_unanswered_rate', 'top_unanswered_questions', 'unanswered_by_page'].includes(v))]);
}, 120_000);
