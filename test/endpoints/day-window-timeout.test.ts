// A day window the API times out on (two 504s) is read again whole, never bisected into half days:
// the aggregate endpoints count over the requested range, and the day pipelines' SQL keys rows by
// the day of window_from, so two half-day reads would write the day twice (two rows of half-day
// counts for one key in one batch, or the second half replacing the first). Fixed on main in
// 212b02c (run-org); this was first an it.fails test of the bug.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { DAY_MS, SMALL_SITE, completeDays, expectedDaily, utcMidnight, warehouseDaily } from './exports-helpers.js';

const KEY = 'mint_exports_day_timeout_key';
const NOW = Date.parse('2026-05-20T10:00:00Z');
const FROM = utcMidnight(NOW) - 4 * DAY_MS;
const DAYS = completeDays(FROM, NOW);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

it('a day window answered twice with 504 is read again as one day, not as two half days', async () => {
  const clock = new FakeClock(NOW, { sleepAdvances: false });
  const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 800, historyDays: 3, seed: 1371, site: SMALL_SITE, clock }));
  cleanup.push(() => sb.close());
  const slowDay = new Date(DAYS[1]!).toISOString();
  let timeouts = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', sb.url);
      if (url.pathname.endsWith('/assistant/caller-stats') && url.searchParams.get('dateFrom') === slowDay && timeouts < 2) {
        timeouts++;
        res.writeHead(504, { 'content-type': 'text/plain' }).end('gateway timeout');
        return;
      }
      const up = await fetch(url, { headers: { authorization: req.headers.authorization ?? '' } });
      res.writeHead(up.status, { 'content-type': 'application/json' }).end(await up.text());
    })().catch((err: unknown) => res.writeHead(502).end(String(err)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  }));
  const t = tempDir('docs-etl-exports-timeout-');
  cleanup.push(() => t.cleanup());
  const warehouse = join(t.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse, [{
    projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    organization: keyFingerprint(KEY), backfillFrom: new Date(FROM),
  }], { rate: { limit: 100_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, pipelines: ['assistant_callers'] });
  const r = await runSync({ clock, logger: silentLogger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, cfg, PIPELINES);
  expect(timeouts).toBe(2);
  expect(r.exitCode).toBe(0);
  expect(await warehouseDaily(warehouse, 'assistant_callers', 'demo')).toEqual(expectedDaily(sb, 'assistant_callers', 'demo', DAYS));
});
