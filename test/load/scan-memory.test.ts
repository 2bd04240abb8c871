// Bookkeeping scans run under a small buffer pool (src/warehouse/scan-memory.ts): a steady run's
// "what changed" checks read long columns of the history, and what DuckDB caches of them must not
// grow with it. Real DuckDB files; the pool is DuckDB's own accounting (duckdb_memory()).
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memorySizeBytes } from '../../src/core/memory-size.js';
import { SCAN_MEMORY_LIMIT, withScanMemory } from '../../src/warehouse/scan-memory.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { MB, poolBytes, withColdWarehouse } from '../helpers/buffer-pool.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-scan-memory-');
const path = join(tmp.dir, 'w.duckdb');
afterAll(() => tmp.cleanup());

beforeAll(async () => {
  // About 48 MB of incompressible columns: far more than the scan pool.
  const wh = await openWarehouse(path, { memoryLimit: '128MB', threads: 2 });
  try {
    await wh.conn.run('CREATE TABLE history AS SELECT hash(i) AS a, hash(i + 1) AS b, hash(i + 2) AS c FROM range(2000000) t(i)');
    await wh.conn.run('CHECKPOINT');
  } finally {
    wh.close();
  }
}, 60_000);

const limit = async (wh: Warehouse) => memorySizeBytes(String((await wh.conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]!.m))!;
const scan = async (wh: Warehouse) => (await wh.conn.runAndReadAll('SELECT count(*) AS n, sum(hash(t)) AS h FROM history t')).getRowObjectsJS()[0]!;

const cold = <T>(fn: (wh: Warehouse) => Promise<T>): Promise<T> => withColdWarehouse(path, fn);

it('a scan of the history keeps the pool under the scan limit, gives the same answer, and the limit comes back', async () => {
  const plain = await cold(async (wh) => ({ result: await scan(wh), pool: await poolBytes(wh) }));
  const bounded = await cold(async (wh) => {
    const before = await limit(wh);
    const result = await withScanMemory(wh.conn, () => scan(wh));
    return { result, pool: await poolBytes(wh), before, after: await limit(wh) };
  });
  expect(bounded.result).toEqual(plain.result);
  // Without the bound the scan leaves its blocks in the pool (the growth the steady run had).
  expect(plain.pool).toBeGreaterThan(30 * MB);
  expect(bounded.pool).toBeLessThanOrEqual(memorySizeBytes(SCAN_MEMORY_LIMIT)!);
  expect(bounded.after).toBe(bounded.before);
}, 60_000);

it('a scan that needs more than the small pool runs again at the configured limit instead of failing', async () => {
  await cold(async (wh) => {
    const before = await limit(wh);
    // string_agg of 2M numbers holds ~15 MB in one piece: more than 16MB's pool leaves it.
    const q = async () => Number((await wh.conn.runAndReadAll("SELECT length(string_agg(i::VARCHAR, ',')) AS n FROM range(2000000) t(i)")).getRowObjectsJS()[0]!.n);
    await wh.conn.run(`SET memory_limit = '${SCAN_MEMORY_LIMIT}'`);
    await expect(q()).rejects.toThrow(/Out of Memory/);
    await wh.conn.run(`SET memory_limit = '128MB'`);
    const restored = await limit(wh);
    let digits = 2_000_000 - 1; // the commas
    for (let i = 0; i < 2_000_000; i++) digits += String(i).length;
    expect(await withScanMemory(wh.conn, q)).toBe(digits);
    expect(await limit(wh)).toBe(restored);
    expect(restored).toBeCloseTo(before, -5);
  });
}, 60_000);

it('an error in the scan passes through and the limit still comes back', async () => {
  await cold(async (wh) => {
    const before = await limit(wh);
    await expect(withScanMemory(wh.conn, () => wh.conn.run('SELECT * FROM no_such_table'))).rejects.toThrow(/no_such_table/);
    expect(await limit(wh)).toBe(before);
  });
});
