// The merge reads landed pages by path with DuckDB's JSON reader; the paths are bound values (session
// variables the landed views read), never spliced into the views' SQL. A landing zone under a
// folder whose name holds a quote, `$now`, `{lo}` and a `;` merges every record. Real DuckDB
// warehouse, real landed pages (one whole, and the merge's `now` and time range bound as well).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { mergeBatch } from '../../src/sync/load/merge-batch.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { page, turns } from '../hostile/hostile.js';
import { landOld } from '../hostile/land-old.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-landed-paths-');
afterAll(() => tmp.cleanup());

describe('landed page paths', () => {
  it("a landing zone under a folder named `it's $now; {lo} --` merges every record", async () => {
    const dir = join(tmp.dir, "it's $now; {lo} --");
    mkdirSync(dir);
    landOld('mint_paths_key_1', dir, 'assistant_conversations', 1, JSON.stringify(page(turns(12, 'p_'), null)), 12);
    const files = new LandingZone(join(dir, 'landing', 'w')).list({ projectId: 'demo', pipeline: 'assistant_conversations' });
    expect(files).toHaveLength(1);
    const wh = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      const pipeline = PIPELINES.find((x) => x.name === 'assistant_conversations')!;
      const now = new Date('2026-11-28T01:02:03.000Z');
      const merged = await mergeBatch(wh.conn, [{ pipeline, files }], { now, rereads: [] });
      expect(merged.rows).toBe(12);
      const rows = (await wh.conn.runAndReadAll(
        `SELECT count(*) AS n, count(*) FILTER (WHERE first_seen_at = CAST($now AS TIMESTAMPTZ)) AS at_now FROM conversations`, { now: now.toISOString() },
      )).getRowObjectsJS();
      expect(rows).toEqual([{ n: 12n, at_now: 12n }]);
    } finally {
      wh.close();
    }
  });
});
