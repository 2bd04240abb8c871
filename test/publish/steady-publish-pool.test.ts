// A publish that finds nothing new must not cost memory in proportion to the history (issue 20:
// the steady run's peak RSS grew from 193 MB at 200k turns to 261 MB at 4M, DuckDB's pool filled by
// the publish's "what changed" scans). Its signature scans run under the small scan pool
// (src/warehouse/scan-memory.ts): after a steady publish of a warehouse whose tables are several
// times that pool, the pool holds no more than it. Real DuckDB file, real publish, DuckDB's own
// pool accounting; the warehouse is reopened before each publish so the pool starts empty.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memorySizeBytes } from '../../src/core/memory-size.js';
import { SCAN_MEMORY_LIMIT } from '../../src/warehouse/scan-memory.js';
import { migrate } from '../../src/warehouse/warehouse.js';
import { publishCatalog, type PublishSettings } from '../../src/sync/publish/read-surface.js';
import { readDaySignatures } from '../../src/sync/publish/surface-days.js';
import { MB, poolBytes, withColdWarehouse } from '../helpers/buffer-pool.js';
import { tempDir } from '../helpers/tmp.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { surfacePartitionedTables } from '../../src/sync/publish/surface-tables.js';

const tmp = tempDir('docs-etl-steady-pool-');
const path = join(tmp.dir, 'w.duckdb');
const settings: PublishSettings = { readPath: join(tmp.dir, 'read', 'w.duckdb'), readSurface: 'catalog', readGraceMs: 86_400_000, lakeTables: LAKE_TABLES };
const NOW = new Date('2026-11-20T12:00:00Z');
afterAll(() => tmp.cleanup());

beforeAll(async () => {
  await withColdWarehouse(path, async (wh) => {
    await migrate(wh.conn);
    // 400k turns over 10 days in random order, 2 sources each, and 1.5M gap topic members of random
    // ids: the columns the publish signs are several times the scan pool.
    await wh.conn.run(`
      INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                                 first_seen_at, last_seen_at, updated_at)
      SELECT 'alpha', 'c' || i, ts, 'question ' || (i % 1000), 'answer', 'answer', 'unanswered', ts, ts + INTERVAL 1 HOUR, ts
      FROM (SELECT i, TIMESTAMPTZ '2026-11-10 00:00:00+00' + to_microseconds((hash(i) % 864000000000)::BIGINT) AS ts FROM range(400000) t(i))`);
    await wh.conn.run(`
      INSERT INTO sources
      SELECT 'alpha', 'c' || (i // 2), TIMESTAMPTZ '2026-11-10 00:00:00+00' + to_microseconds((hash(i // 2) % 864000000000)::BIGINT),
             CAST(i % 2 + 1 AS INTEGER), md5(CAST(i AS VARCHAR)), 'https://docs.example.com/' || md5(CAST(-i AS VARCHAR))
      FROM range(800000) t(i)`);
    await wh.conn.run(`
      INSERT INTO gap_topic_members
      SELECT 'alpha', md5(CAST(i % 5000 AS VARCHAR)), md5(CAST(i AS VARCHAR)), TIMESTAMPTZ '2026-11-10 00:00:00+00' + to_microseconds((hash(i) % 864000000000)::BIGINT)
      FROM range(1500000) t(i)`);
    await wh.conn.run('CHECKPOINT');
    // The first publish writes every file (its pool is the writer's).
    await publishCatalog(wh.conn, settings, NOW, true);
  });
}, 120_000);

it('the first publish of a new UTC day, which finds nothing new, leaves no more than the scan pool in DuckDB and writes no Parquet file', async () => {
  // Control: the same columns scanned without the bound fill the pool far beyond it.
  const unbounded = await withColdWarehouse(path, async (wh) => {
    await wh.conn.run('SELECT sum(hash(t)) FROM gap_topic_members t');
    await wh.conn.run('SELECT sum(hash(t)) FROM sources t');
    return await poolBytes(wh);
  });
  expect(unbounded).toBeGreaterThan(40 * MB);

  await withColdWarehouse(path, async (wh) => {
    // A day later: the first publish of a UTC day signs every day again (the backstop), and every
    // whole table, and finds them all unchanged.
    const r = await publishCatalog(wh.conn, settings, new Date(NOW.getTime() + 86_400_000));
    expect(r.files?.written).toBe(0);
    // The catalog file's own blocks come on top of the scans' (256 KB each; measured ~3 MB).
    expect(await poolBytes(wh)).toBeLessThanOrEqual(memorySizeBytes(SCAN_MEMORY_LIMIT)! + 8 * MB);
  });
}, 120_000);

it('signing every day of the history (the first publish of a UTC day) leaves no more than the scan pool', async () => {
  // A later step lowers the pool too, so the day signatures are measured on their own, cold.
  await withColdWarehouse(path, async (wh) => {
    const state = await readDaySignatures(wh.conn, surfacePartitionedTables(LAKE_TABLES, new Set(['conversations', 'sources'])), null, true, NOW);
    expect(state.recomputed).toBe('all');
    expect(state.days.filter((d) => d.table === 'conversations').reduce((n, d) => n + d.rows, 0)).toBe(400_000);
    expect(state.days.filter((d) => d.table === 'sources').reduce((n, d) => n + d.rows, 0)).toBe(800_000);
    expect(await poolBytes(wh)).toBeLessThanOrEqual(memorySizeBytes(SCAN_MEMORY_LIMIT)!);
  });
}, 60_000);
