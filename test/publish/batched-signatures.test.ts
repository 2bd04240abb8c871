// A publish signs the warehouse's whole tables in one statement, and (incremental publishes) the
// dated tables it signs every day of (no stamp) in one statement too (surface-native.ts,
// segment-signatures.ts): a statement per table was most of the publish of a sync that found
// nothing new. Each signature must still land on its own table: a publish with nothing new writes
// no file, and a row added to one table rewrites that table's file (or day segment) and no other,
// and readers see it. A real migrated warehouse, real publishes, the catalog read by a separate
// read-only DuckDB instance.
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { publishCatalog } from '../../src/sync/publish/read-surface.js';
import { readSurfaceDir, listSurfaceFiles } from '../../src/sync/publish/surface-files.js';
import { tempDir } from '../helpers/tmp.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';

let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;

async function addPageViews(day: string, path: string): Promise<void> {
  await wh.conn.run(`INSERT INTO page_views_daily (project_id, day, path, human, ai, total, read_at)
    VALUES ('alpha', $day::DATE, $path, 3, 1, 4, TIMESTAMPTZ '2026-11-05 00:00:00+00')`, { day, path });
}

beforeAll(async () => {
  tmp = tempDir('docs-etl-batched-signatures-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 2 });
  await migrate(wh.conn);
  await wh.conn.run("INSERT INTO projects (project_id, updated_at) VALUES ('alpha', TIMESTAMPTZ '2026-11-05 00:00:00+00')");
  await addPageViews('2026-11-02', '/a');
  await addPageViews('2026-11-03', '/a');
}, 60_000);
afterAll(() => {
  wh?.close();
  tmp?.cleanup();
});

async function readerRows(readPath: string, sql: string): Promise<unknown[]> {
  const inst = await DuckDBInstance.create(readPath, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

it('a publish with nothing new writes no file; a row in one whole table and one day of a dated table rewrites exactly those, which readers see', async () => {
  const readPath = join(tmp.dir, 'read', 'w.duckdb');
  const settings = { readPath, readSurface: 'catalog' as const, readGraceMs: 86_400_000, lakeTables: LAKE_TABLES };
  await publishCatalog(wh.conn, settings, new Date('2026-11-05T12:00:00Z'), true);
  const files = () => new Set(listSurfaceFiles(readSurfaceDir(readPath)));
  const before = files();

  const same = await publishCatalog(wh.conn, settings, new Date('2026-11-05T13:00:00Z'));
  expect(same.files?.written).toBe(0);
  expect(files()).toEqual(before);

  await wh.conn.run("INSERT INTO projects (project_id, updated_at) VALUES ('beta', TIMESTAMPTZ '2026-11-05 13:00:00+00')");
  await addPageViews('2026-11-03', '/b');
  const changed = await publishCatalog(wh.conn, settings, new Date('2026-11-05T14:00:00Z'));
  const added = [...files()].filter((f) => !before.has(f));
  expect(changed.files?.written).toBe(2);
  expect(added.map((f) => f.split('/').slice(0, -1).join('/')).sort()).toEqual(['_tables/projects', expect.stringMatching(/^page_views_daily\//)]);
  expect(await readerRows(readPath, 'SELECT project_id FROM projects ORDER BY 1')).toEqual([{ project_id: 'alpha' }, { project_id: 'beta' }]);
  expect(await readerRows(readPath, "SELECT strftime(day, '%Y-%m-%d') AS day, path FROM page_views_daily ORDER BY ALL")).toEqual([
    { day: '2026-11-02', path: '/a' }, { day: '2026-11-03', path: '/a' }, { day: '2026-11-03', path: '/b' },
  ]);
}, 120_000);
