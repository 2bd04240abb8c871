// The read surface's Parquet files are written in bounded row groups (src/parquet/partition-copy.ts):
// DuckDB's Parquet writer holds a whole row group in memory before it compresses it, so the row
// group size bounds the publish's memory whatever a day holds (docs/performance.md, Memory). A real
// warehouse (migrated), a real publish, the files read back with parquet_metadata.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { publishCatalog } from '../../src/sync/publish/read-surface.js';
import { readSurfaceDir } from '../../src/sync/publish/surface-files.js';
import { SEGMENT_ROW_GROUP_ROWS } from '../../src/sync/publish/surface-tables.js';
import { tempDir } from '../helpers/tmp.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';

const TURNS = 45_000;
let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;

beforeAll(async () => {
  tmp = tempDir('docs-etl-row-groups-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 2 });
  await migrate(wh.conn);
  // 45,000 turns of one project on one UTC day (more than two row groups' worth), 2 sources each.
  await wh.conn.run(`
    INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                               first_seen_at, last_seen_at, updated_at)
    SELECT 'alpha', 'c' || i, TIMESTAMPTZ '2026-11-04 00:00:00+00' + to_microseconds(i * 1000),
           'question ' || i, 'answer ' || i, 'answer', 'answered',
           TIMESTAMPTZ '2026-11-05 00:00:00+00', TIMESTAMPTZ '2026-11-05 00:00:00+00', TIMESTAMPTZ '2026-11-05 00:00:00+00'
    FROM range($n) t(i)`, { n: TURNS });
}, 60_000);
afterAll(async () => {
  await wh?.close();
  tmp?.cleanup();
});

describe('read surface Parquet row groups', () => {
  it(`a day of ${TURNS.toLocaleString('en-US')} turns is written in row groups of at most ${SEGMENT_ROW_GROUP_ROWS.toLocaleString('en-US')} rows, every row kept`, async () => {
    const readPath = join(tmp.dir, 'read', 'w.duckdb');
    const r = await publishCatalog(wh.conn, { readPath, readSurface: 'catalog', readGraceMs: 86_400_000, lakeTables: LAKE_TABLES }, new Date('2026-11-05T12:00:00Z'), true);
    expect(r.files?.written).toBeGreaterThanOrEqual(1);
    const glob = join(readSurfaceDir(readPath), 'conversations', '**', '*.parquet');
    const groups = (await wh.conn.runAndReadAll(
      'SELECT row_group_id, any_value(row_group_num_rows) AS n FROM parquet_metadata($g) GROUP BY ALL ORDER BY 1', { g: glob },
    )).getRowObjectsJS().map((x) => Number(x.n));
    expect(groups.reduce((a, b) => a + b, 0)).toBe(TURNS);
    expect(Math.max(...groups)).toBeLessThanOrEqual(SEGMENT_ROW_GROUP_ROWS);
    expect(groups.length).toBeGreaterThanOrEqual(Math.ceil(TURNS / SEGMENT_ROW_GROUP_ROWS));
  }, 60_000);
});
