// The read surface's sweep of its parts folder deletes only files of ours (a segment's or a whole
// table's Parquet file, or a temporary of one) that no catalog names, never a file someone else put
// there. A real migrated warehouse, real publishes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { publishCatalog } from '../../src/sync/publish/read-surface.js';
import { readSurfaceDir } from '../../src/sync/publish/surface-files.js';
import { tempDir } from '../helpers/tmp.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';

let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;

beforeAll(async () => {
  tmp = tempDir('docs-etl-parts-foreign-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 2 });
  await migrate(wh.conn);
  await wh.conn.run(`
    INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status, first_seen_at, last_seen_at, updated_at)
    SELECT 'alpha', 'c' || i, TIMESTAMPTZ '2026-11-04 00:00:00+00' + to_microseconds(i * 1000000), 'q' || i, 'a', 'answer', 'answered',
           TIMESTAMPTZ '2026-11-05 00:00:00+00', TIMESTAMPTZ '2026-11-05 00:00:00+00', TIMESTAMPTZ '2026-11-05 00:00:00+00'
    FROM range(100) t(i)`);
}, 60_000);
afterAll(() => {
  wh?.close();
  tmp?.cleanup();
});

it('a foreign file in the parts folder survives two publishes; a stray file of ours and a stale temporary are swept', async () => {
  const readPath = join(tmp.dir, 'read', 'w.duckdb');
  const settings = { readPath, readSurface: 'catalog' as const, readGraceMs: 0, lakeTables: LAKE_TABLES };
  await publishCatalog(wh.conn, settings, new Date('2026-11-05T12:00:00Z'), true);
  const parts = readSurfaceDir(readPath);
  const foreign = [join(parts, 'notes.txt'), join(parts, 'conversations', 'project_id=alpha', 'README.md'), join(parts, '_tables', 'keep.parquet')];
  const ours = [
    join(parts, 'conversations', 'project_id=alpha', '2026-10-01-deadbeef00.parquet'),
    join(parts, '_tables', 'projects', '0123456789.parquet'),
    join(parts, 'conversations', 'project_id=alpha', '.2026-11-04-abcdef0123.abcdef0123.parquet.tmp'),
  ];
  for (const f of [...foreign, ...ours]) {
    mkdirSync(join(f, '..'), { recursive: true });
    writeFileSync(f, 'not ours to delete');
  }
  await publishCatalog(wh.conn, settings, new Date('2026-11-05T13:00:00Z'));
  await publishCatalog(wh.conn, settings, new Date('2026-11-05T14:00:00Z'));
  for (const f of foreign) expect(readFileSync(f, 'utf8'), f).toBe('not ours to delete');
  for (const f of ours) expect(existsSync(f), f).toBe(false);
}, 60_000);
