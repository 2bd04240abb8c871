import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../pipelines/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import { openWarehouse, type Warehouse } from '../../src/sync/load/warehouse.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';
import { localLakeBase, readIcebergTable, routeFetch, serveFolder } from '../helpers/iceberg-reader.js';

const TABLES = LAKE_TABLES.filter((t) => ['conversations', 'sources', 'sync_runs', 'quarantine'].includes(t.name));
let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;
beforeAll(async () => {
  tmp = tempDir('docs-etl-ice-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
  await fillWarehouse(wh.conn, { days: 3, turnsPerDay: 20 });
});
afterAll(() => { wh.close(); tmp.cleanup(); });

it('smoke', async () => {
  const lake = join(tmp.dir, 'lake');
  const s = await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: TABLES }, { outDir: lake });
  console.log(s);
  const srv = await serveFolder(lake);
  const restore = routeFetch([{ from: localLakeBase(lake), to: `${srv.url}/` }, { from: `${srv.url}/`, to: `${srv.url}/` }]);
  try {
    for (const t of TABLES) {
      const rows = await readIcebergTable(`${srv.url}/${t.name}`);
      const n = Number((await wh.conn.runAndReadAll(`SELECT count(*) FROM ${t.name}`)).getRows()[0]![0]);
      console.log(t.name, rows.length, n, JSON.stringify(rows[0], (_, v) => (typeof v === 'bigint' ? String(v) : v)).slice(0, 300));
      expect(rows.length).toBe(n);
    }
  } finally { restore(); await srv.close(); }
  const s2 = await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: TABLES }, { outDir: lake });
  console.log(s2.iceberg, s2.files);
});
