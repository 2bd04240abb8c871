// A day of an aggregate endpoint is one interval: read whole, re-read whole once its late data
// settled (a settle read, not a new head), and never cut into parts by the re-read schedule.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_day_reread_key_0001';
const H = 3_600_000;
const tmp = tempDir('docs-etl-day-reread-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('yesterday is read as the head at 09:00, re-read whole as a settle read at 15:00, and its interval is never cut', async () => {
  const clock = new FakeClock(Date.parse('2026-06-10T09:00:00Z'));
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 500, historyDays: 5, seed: 3, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date('2026-06-07T00:00:00Z') }],
    { rate: { limit: 10_000, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_callers'] });
  const coverage = async () => {
    const wh = await openWarehouse(warehouse, { readOnly: true });
    try {
      return (await wh.conn.runAndReadAll("SELECT strftime(range_from, '%d %H') AS f, strftime(range_to, '%d %H') AS t, settled FROM coverage ORDER BY range_from"))
        .getRowObjectsJS();
    } finally {
      wh.close();
    }
  };
  const windows = (r: Awaited<ReturnType<typeof runSync>>) => r.runs[0]!.windows.map((w) => `${w.purpose} ${w.from.toISOString().slice(0, 10)}`);

  const first = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
  expect(windows(first)).toEqual(['head 2026-06-09', 'backfill 2026-06-08', 'backfill 2026-06-07']);
  // The two older days were a day old when read (past the 12 h settle age): settled, joined. Yesterday is whole and open.
  expect(await coverage()).toEqual([{ f: '07 00', t: '09 00', settled: true }, { f: '09 00', t: '10 00', settled: false }]);

  clock.advance(6 * H);
  const second = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
  expect(windows(second)).toEqual(['settle 2026-06-09']);
  expect(await coverage()).toEqual([{ f: '07 00', t: '10 00', settled: true }]);
});
