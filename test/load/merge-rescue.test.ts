// The repair of a page the merge refused (merge-rescue.ts) never loses records: a page that failed
// once but whose every record merges when tried (the failure was the moment's: memory, a full
// disk) is left exactly as landed for the next run, never rewritten without its records. Real
// DuckDB warehouse, real landed page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { silentLogger } from '../../src/core/logger.js';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { repairPage } from '../../src/sync/load/merge-rescue.js';
import { Writer } from '../../src/warehouse/writer.js';
import { page, turns } from '../hostile/hostile.js';
import { landOld } from '../hostile/land-old.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-rescue-');
afterAll(() => tmp.cleanup());

describe('page repair', () => {
  it('a page that failed once but whose records all merge is left as landed (not rewritten empty)', async () => {
    landOld('mint_rescue_key_1', tmp.dir, 'assistant_conversations', 1, JSON.stringify(page(turns(30, 'r_'), null)), 30);
    const zone = new LandingZone(join(tmp.dir, 'landing', 'w'));
    const [file] = zone.list({ projectId: 'demo', pipeline: 'assistant_conversations' });
    const before = readFileSync(file!.path);
    const wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
    try {
      const p = PIPELINES.find((x) => x.name === 'assistant_conversations')!;
      const fixed = await repairPage({ writer: new Writer(wh.conn), logger: silentLogger, now: () => new Date() }, p, file!, { failed: true });
      expect(fixed).toBeNull();
      expect(readFileSync(file!.path).equals(before)).toBe(true);
      // Nothing of the probes stayed in the warehouse.
      expect(Number((await wh.conn.runAndReadAll('SELECT count(*) FROM conversations')).getRows()[0]![0])).toBe(0);
    } finally {
      wh.close();
    }
  });
});
