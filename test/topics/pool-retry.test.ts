// A part of a step that runs out of the smaller step pool runs again alone at the whole limit
// (memory-pool.ts retryAtWholeLimit): the full topic step retries the statement, not the whole step.
// Real DuckDB: an ordered list of 3M numbers needs more than an 8 MiB pool and fits in 256 MiB.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { expect, it } from 'vitest';
import { memorySizeBytes } from '../../src/core/memory-size.js';
import { retryAtWholeLimit, withMemoryLimit } from '../../src/warehouse/memory-pool.js';

const BIG = 'SELECT len(list(i ORDER BY i DESC)) AS n FROM range(3000000) t(i)';

async function withConn(fn: (conn: DuckDBConnection, limit: () => Promise<number | null>) => Promise<void>): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '256MiB', threads: '1' });
  const conn = await instance.connect();
  const limit = async () => memorySizeBytes(String((await conn.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]!.m));
  try {
    await fn(conn, limit);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

it('a part out of the step pool runs again alone at the whole limit, then the pool is back, and the step runs once', async () => {
  await withConn(async (conn, limit) => {
    let steps = 0;
    let parts = 0;
    const retried: string[] = [];
    const seen: (number | null)[] = [];
    const n = await withMemoryLimit(conn, '8MiB', async () => {
      steps++;
      // A smaller pool nested before (the step's fingerprint scan) leaves the step's as it was.
      await withMemoryLimit(conn, '4MiB', async () => {});
      const out = await retryAtWholeLimit(conn, async () => {
        parts++;
        seen.push(await limit());
        return Number((await conn.runAndReadAll(BIG)).getRowObjectsJS()[0]!.n);
      }, (err) => retried.push(String(err).split('\n')[0]!));
      seen.push(await limit());
      return out;
    });
    expect(n).toBe(3_000_000);
    expect(steps).toBe(1);
    expect(parts).toBe(2);
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatch(/Out of Memory/);
    // First under the pool, again at the whole limit, then the pool again for the rest of the step.
    expect(seen).toEqual([8 * 2 ** 20, 256 * 2 ** 20, 8 * 2 ** 20]);
    expect(await limit()).toBe(256 * 2 ** 20);
  });
});

it('outside a smaller pool, or on another error, a part is not run again', async () => {
  await withConn(async (conn) => {
    await conn.run("SET memory_limit = '8MiB'");
    let parts = 0;
    const onRetry = () => { throw new Error('not expected'); };
    await expect(retryAtWholeLimit(conn, async () => { parts++; await conn.run(BIG); }, onRetry)).rejects.toThrow(/Out of Memory/);
    await conn.run("SET memory_limit = '256MiB'");
    await expect(withMemoryLimit(conn, '8MiB', () => retryAtWholeLimit(conn, async () => { parts++; await conn.run('SELECT * FROM no_such_table'); }, onRetry)))
      .rejects.toThrow(/no_such_table/);
    expect(parts).toBe(2);
  });
});
