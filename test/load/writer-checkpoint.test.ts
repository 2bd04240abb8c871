// The writer lets 64MB of WAL grow before DuckDB checkpoints at a commit, not DuckDB's 16MB
// (src/warehouse/warehouse.ts WRITER_CHECKPOINT_THRESHOLD; docs/performance.md, seventh round: at
// 16MB the checkpoints were a full sync's memory peaks). A real DuckDB file, committed to in steps of
// about 10 MB: the writer's WAL keeps all of them; a warehouse opened without the writer's bounds
// checkpoints at DuckDB's default.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openWarehouse, type OpenOptions } from '../../src/warehouse/warehouse.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-checkpoint-');
afterAll(() => tmp.cleanup());

/** The WAL's size after 4 commits of 10,000 rows of about 1 KB each. */
async function walAfterCommits(name: string, opts: OpenOptions): Promise<number> {
  const path = join(tmp.dir, `${name}.duckdb`);
  const wh = await openWarehouse(path, opts);
  try {
    await wh.conn.run('CREATE TABLE filler (s VARCHAR)');
    for (let i = 0; i < 4; i++) {
      await wh.conn.run(`INSERT INTO filler SELECT repeat('x', 1000) || range::VARCHAR || '${i}' FROM range(10000)`);
    }
    return existsSync(`${path}.wal`) ? statSync(`${path}.wal`).size : 0;
  } finally {
    wh.close();
  }
}

it('the writer checkpoints after 64MB of WAL, not after 16MB', async () => {
  const writer = await walAfterCommits('writer', { memoryLimit: '128MB', threads: 2 });
  const plain = await walAfterCommits('plain', {});
  expect(writer).toBeGreaterThan(32 * 1024 * 1024);
  expect(writer).toBeLessThan(64 * 1024 * 1024);
  expect(plain).toBeLessThan(16 * 1024 * 1024);
});
