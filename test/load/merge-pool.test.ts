// The pool merge batches run under (src/warehouse/memory-pool.ts): half of memory_limit, at least
// 64 MiB, never above the limit; a limit DuckDB would not take as a size is left alone.
import { DuckDBInstance } from '@duckdb/node-api';
import { expect, it } from 'vitest';
import { memorySizeBytes } from '../../src/core/memory-size.js';
import { stepMemoryLimit, withMemoryLimit } from '../../src/warehouse/memory-pool.js';

const bytes = (limit: string) => {
  const pool = stepMemoryLimit(limit);
  return pool === null ? null : memorySizeBytes(pool);
};

it('merges run under half the limit, at least 64 MiB, and at the limit itself when that is not more', () => {
  expect(bytes('128MB')).toBe(64 * 2 ** 20);
  expect(bytes('1GiB')).toBe(2 ** 29);
  expect(bytes('512MB')).toBe(Math.floor(256e6 / 1024) * 1024);
  // Half would be under the floor: the floor, while it is below the limit.
  expect(bytes('100MB')).toBe(64 * 2 ** 20);
  expect(stepMemoryLimit('64MiB')).toBeNull();
  expect(stepMemoryLimit('48MB')).toBeNull();
  expect(stepMemoryLimit('lots')).toBeNull();
});

it('a step runs under the smaller pool (a bound value, not spliced) and the limit is put back after it', async () => {
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '256MiB' });
  const conn = await instance.connect();
  const limit = async () => String((await conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]!.m);
  try {
    const before = await limit();
    const during = await withMemoryLimit(conn, '100MiB', limit);
    expect(memorySizeBytes(during)).toBe(100 * 2 ** 20);
    expect(await limit()).toBe(before);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
});
