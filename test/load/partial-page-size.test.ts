// The JSON reader's buffer (maximum_object_size) is bound per list of landed pages (merge-batch.ts:
// `whole_max`, `partial_max`, `all_max`). A page with quarantined records (the `partial` list) that
// is the batch's biggest merges every valid record: read with the small whole page's size it would
// fail. DuckDB raises any maximum_object_size below 16 MiB to 16 MiB and then reads a file of up to
// 32 MiB whole, so only a page above 32 MiB tells the sizes apart: this one is about 34 MiB.
// Real DuckDB warehouse, real landed pages.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { mergeBatch } from '../../src/sync/load/merge-batch.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { page, turns } from '../hostile/hostile.js';
import { landOld } from '../hostile/land-old.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-partial-size-');
afterAll(() => tmp.cleanup());

const VALID = 1_000;
/** About 34 MiB of valid records: 34 KiB of answer each. */
const bigTurns = () => turns(VALID, 'big_', { response: 'a'.repeat(34 * 1024) });

function landPartial(dir: string, seq: number): void {
  const from = new Date(Date.now() - 40 * 60_000);
  new LandingZone(join(dir, 'landing', 'w')).land({
    v: 1, project_id: 'demo', pipeline: 'assistant_conversations', organization: keyFingerprint('mint_partial_key_1'), seq, run_id: `01PARTIAL${seq}`,
    fetched_at: from.toISOString(), requests: 1, records: VALID + 1, quarantined: 1,
    window: { id: `01PARTIALWINDOW${seq}`, from: from.toISOString(), to: new Date(from.getTime() + 3_600_000).toISOString(), purpose: 'head' },
    request: { cursor: null, offset: null }, next: { cursor: null, offset: null, complete: true }, window_limit_ms: null,
    invalid: [{ i: VALID, error: 'timestamp: not a date', raw: { id: 'bad_0', timestamp: 'yesterday' } }],
    valid: bigTurns(), stripped: true, x: Array.from({ length: VALID }, () => null),
  }, JSON.stringify(page([], null)));
}

describe('a partial page bigger than every whole page', () => {
  it('merges with its own list\'s buffer size: every valid record in', async () => {
    const dir = tmp.dir;
    landOld('mint_partial_key_1', dir, 'assistant_conversations', 1, JSON.stringify(page(turns(12, 'small_'), null)), 12);
    landPartial(dir, 2);
    const files = new LandingZone(join(dir, 'landing', 'w')).list({ projectId: 'demo', pipeline: 'assistant_conversations' });
    expect(files.map((f) => f.meta.quarantined)).toEqual([0, 1]);
    // The partial page is more than DuckDB reads with the whole page's size (its 16 MiB floor, read in 32 MiB).
    expect(statSync(files[1]!.path).size).toBeGreaterThan(32 * 1024 * 1024);
    const wh = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      const pipeline = PIPELINES.find((x) => x.name === 'assistant_conversations')!;
      const merged = await mergeBatch(wh.conn, [{ pipeline, files }], { now: new Date('2026-11-28T01:02:03.000Z'), rereads: [] });
      expect(merged.rows).toBe(12 + VALID);
      const n = (await wh.conn.runAndReadAll(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE id LIKE 'big_%')::INTEGER AS big FROM conversations`)).getRowObjectsJS();
      expect(n).toEqual([{ n: 12 + VALID, big: VALID }]);
    } finally {
      wh.close();
    }
  });
});
