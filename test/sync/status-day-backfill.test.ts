// `status` on a day pipeline without --from: its backfill is its default history of days (30), so
// it is in progress, with the days left as requests, until those days are read, then complete.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { collectStatus } from '../../src/outputs/status/collect-status.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_status_day_backfill_key';
const H = 3_600_000;
const tmp = tempDir('docs-etl-status-day-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('a day pipeline without --from: backfill in progress with its days left, then complete', async () => {
  const clock = new FakeClock(Date.parse('2026-06-10T09:00:00Z'));
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 500, historyDays: 40, seed: 3, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const config = (limit: number) => defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb!.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { rate: { limit, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_callers'], budgetDir: join(tmp.dir, `budget-${limit}`) });
  const status = async () => {
    const wh = await openWarehouse(warehouse, { readOnly: true });
    try {
      const s = await collectStatus({ conn: wh.conn, clock, warehouse, readPath: warehouse, lake: null, budgetDir: tmp.dir, rate: { limit: 100, windowMs: H }, maxWaitMs: 0 });
      return s.streams.find((x) => x.pipeline === 'assistant_callers')!.backfill;
    } finally {
      wh.close();
    }
  };
  // Ten requests: the ten newest days (one request each; one kept in reserve).
  expect((await runSync({ clock, logger: silentLogger }, config(11), PIPELINES)).exitCode).toBe(0);
  const partial = await status();
  expect(partial.complete).toBe(false);
  // The 30 days back from 09:00 hold 29 complete days: 19 left.
  expect(partial.remaining_requests).toBe(19);
  clock.advance(60_000);
  expect((await runSync({ clock, logger: silentLogger }, config(10_000), PIPELINES)).exitCode).toBe(0);
  expect(await status()).toMatchObject({ complete: true, remaining_requests: 0 });
});
