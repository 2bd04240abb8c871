// DuckDB's buffer pool as DuckDB itself accounts for it (duckdb_memory()), and a warehouse opened
// cold at the writer's defaults: the tests of the small scan pool (src/warehouse/scan-memory.ts)
// measure what a step leaves in the pool, starting from an empty one.
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_THREADS } from '../../src/warehouse/warehouse-defaults.js';

export const MB = 1024 * 1024;

/** Bytes DuckDB's pool holds now. */
export async function poolBytes(wh: Warehouse): Promise<number> {
  return Number((await wh.conn.runAndReadAll('SELECT sum(memory_usage_bytes) AS b FROM duckdb_memory()')).getRowObjectsJS()[0]!.b);
}

/** Opens `path` as the writer does (its memory limit and threads), runs `fn`, closes it. */
export async function withColdWarehouse<T>(path: string, fn: (wh: Warehouse) => Promise<T>): Promise<T> {
  const wh = await openWarehouse(path, { memoryLimit: DEFAULT_MEMORY_LIMIT, threads: DEFAULT_THREADS });
  try {
    return await fn(wh);
  } finally {
    wh.close();
  }
}
