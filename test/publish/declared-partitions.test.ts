// The read surface partitions every table whose lake declaration is dated, with no code naming it
// (issue 35 item 6): two tables no pipeline of docs-etl has, declared here only (an instant table
// with a stamp column, a date table without one), are written per (project, day) and change-
// detected per day from their declarations: a changed day is rewritten, an unchanged one is not.
// Without the declarations the same tables are kept whole. A real migrated warehouse, real
// publishes, the catalog read by a separate read-only DuckDB instance.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import type { LakeTable } from '../../src/sync/pipeline/lake-table.js';
import { readCatalogManifest } from '../../src/sync/publish/catalog.js';
import { publishCatalog } from '../../src/sync/publish/read-surface.js';
import { readDaySignatures } from '../../src/sync/publish/surface-days.js';
import { readSurfaceDir } from '../../src/sync/publish/surface-files.js';
import { parseManifest } from '../../src/sync/publish/surface-manifest.js';
import { surfacePartitionedTables } from '../../src/sync/publish/surface-tables.js';
import { migrate, openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { tempDir } from '../helpers/tmp.js';

const EVENTS: LakeTable = {
  name: 'demo_events', select: 'demo_events', sql: 'SELECT * FROM demo_events', order: ['happened_at'],
  layout: { by: 'project-day', column: 'happened_at', type: 'instant' }, changes: { stamp: 'seen_at' },
};
const DAILY: LakeTable = {
  name: 'demo_daily', select: 'demo_daily', sql: 'SELECT * FROM demo_daily', order: ['day'],
  layout: { by: 'project-day', column: 'day', type: 'date' },
};
const DECLARED = [...LAKE_TABLES, EVENTS, DAILY];

let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;

beforeAll(async () => {
  tmp = tempDir('docs-etl-declared-partitions-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 2 });
  await migrate(wh.conn);
  await wh.conn.run('CREATE TABLE demo_events (project_id VARCHAR NOT NULL, happened_at TIMESTAMPTZ NOT NULL, seen_at TIMESTAMPTZ NOT NULL, v INTEGER)');
  await wh.conn.run(`INSERT INTO demo_events SELECT p, TIMESTAMPTZ '2026-11-03 00:00:00+00' + to_hours(i * 6),
                            TIMESTAMPTZ '2026-11-04 00:00:00+00' + to_hours(i * 6), i
                     FROM range(8) t(i), (VALUES ('alpha'), ('beta')) ps(p)`);
  await wh.conn.run('CREATE TABLE demo_daily (project_id VARCHAR NOT NULL, day DATE NOT NULL, n INTEGER)');
  await wh.conn.run("INSERT INTO demo_daily VALUES ('alpha', DATE '2026-11-03', 1), ('alpha', DATE '2026-11-04', 2), ('beta', DATE '2026-11-04', 3)");
}, 60_000);
afterAll(() => {
  wh?.close();
  tmp?.cleanup();
});

/** The table's files under the parts folder, by project folder: `project_id=alpha/2026-11-03-<token>.parquet`. */
function partsOf(readPath: string, table: string): string[] {
  try {
    return (readdirSync(join(readSurfaceDir(readPath), table), { recursive: true }) as string[])
      .map((f) => f.split('\\').join('/')).filter((f) => f.endsWith('.parquet')).sort();
  } catch {
    return [];
  }
}

async function expectSameRows(readPath: string, tables: string[]): Promise<void> {
  const inst = await DuckDBInstance.create(readPath, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    for (const t of tables) {
      const sql = `SELECT * FROM ${t} ORDER BY ALL`;
      expect((await conn.runAndReadAll(sql)).getRowObjectsJson(), t).toEqual((await wh.conn.runAndReadAll(sql)).getRowObjectsJson());
    }
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

it('declared dated tables are partitioned per (project, day); a changed day is rewritten, an unchanged one is not', async () => {
  const readPath = join(tmp.dir, 'read', 'w.duckdb');
  const settings = { readPath, readSurface: 'catalog' as const, readGraceMs: 86_400_000, lakeTables: DECLARED };
  await publishCatalog(wh.conn, settings, new Date('2026-11-05T12:00:00Z'), true);
  const events = partsOf(readPath, 'demo_events');
  expect(events.map((f) => f.replace(/-[0-9a-f]{10}\.parquet$/, ''))).toEqual([
    'project_id=alpha/2026-11-03', 'project_id=alpha/2026-11-04', 'project_id=beta/2026-11-03', 'project_id=beta/2026-11-04',
  ]);
  const daily = partsOf(readPath, 'demo_daily');
  expect(daily.map((f) => f.replace(/-[0-9a-f]{10}\.parquet$/, ''))).toEqual(['project_id=alpha/2026-11-03', 'project_id=alpha/2026-11-04', 'project_id=beta/2026-11-04']);
  await expectSameRows(readPath, ['demo_events', 'demo_daily']);

  // A publish with nothing changed writes no file.
  expect((await publishCatalog(wh.conn, settings, new Date('2026-11-05T12:30:00Z'))).files?.written).toBe(0);

  // One new event on alpha's 11-04 (stamped by its merge) and one changed daily row (beta's 11-04).
  await wh.conn.run("INSERT INTO demo_events VALUES ('alpha', TIMESTAMPTZ '2026-11-04 20:00:00+00', TIMESTAMPTZ '2026-11-05 12:45:00+00', 99)");
  await wh.conn.run("UPDATE demo_daily SET n = 30 WHERE project_id = 'beta'");
  // Which days the declared stamp says to sign again: only alpha's 11-04 of demo_events.
  const stored = await readCatalogManifest(wh.conn, readPath);
  const manifest = parseManifest('manifest' in stored ? stored.manifest : null)!;
  const tables = surfacePartitionedTables(DECLARED, new Set(['conversations', 'sources', 'demo_events', 'demo_daily']));
  const state = await readDaySignatures(wh.conn, tables, manifest, false, new Date('2026-11-05T13:00:00Z'));
  expect(state.recomputed).toMatchObject({ demo_events: { fromDay: '2026-11-04', toDay: '2026-11-04' }, demo_daily: 'all' });

  const r = await publishCatalog(wh.conn, settings, new Date('2026-11-05T13:00:00Z'));
  expect(r.files?.written).toBe(2);
  const eventsAfter = partsOf(readPath, 'demo_events');
  const dailyAfter = partsOf(readPath, 'demo_daily');
  // The unchanged days keep their files; the changed ones got a new file (the old kept for the grace period).
  expect(eventsAfter.filter((f) => !events.includes(f)).map((f) => f.slice(0, 27))).toEqual(['project_id=alpha/2026-11-04']);
  expect(dailyAfter.filter((f) => !daily.includes(f)).map((f) => f.slice(0, 26))).toEqual(['project_id=beta/2026-11-04']);
  expect(events.every((f) => eventsAfter.includes(f))).toBe(true);
  await expectSameRows(readPath, ['demo_events', 'demo_daily']);
}, 120_000);

it('without their declarations the same tables are kept whole', async () => {
  const readPath = join(tmp.dir, 'whole', 'w.duckdb');
  await publishCatalog(wh.conn, { readPath, readSurface: 'catalog', readGraceMs: 86_400_000, lakeTables: LAKE_TABLES }, new Date('2026-11-05T12:00:00Z'), true);
  expect(partsOf(readPath, 'demo_events')).toEqual([]);
  await expectSameRows(readPath, ['demo_events', 'demo_daily']);
}, 120_000);
