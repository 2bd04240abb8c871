// Issue 34, item 2: once the first run has probed where history starts, `sync --dry-run` lists
// the backfill's weeks only down to the oldest week with data (older history is one empty window,
// not a year of weekly windows at one request each) and shows the estimate's basis.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { defaultSandboxOptions, startSandbox, trafficOptions, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_backfill_dry_run_key_01';
const tmp = tempDir('docs-etl-backfill-dry-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('after the history probe, --dry-run stops listing backfill weeks at the first empty week and shows the basis', { timeout: 90_000 }, async () => {
  // The sandbox's clock is now (the dry run plans at the real time) and stays there.
  const clock = new FakeClock(systemClock.now().getTime(), { sleepAdvances: false });
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], traffic: trafficOptions(1000), historyDays: 28, seed: 3435, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { budgetDir: join(tmp.dir, 'budget') });
  cfg.pipelines = ['assistant_conversations'];
  cfg.rate = { limit: 12, windowMs: 3_600_000 };
  cfg.maxWaitMs = 0;
  const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
  expect(r.exitCode).not.toBe(1);
  const wh = await openWarehouse(warehouse, { readOnly: true });
  const probe = (await wh.conn.runAndReadAll('SELECT epoch_ms(history_start) AS s, rows FROM history_probes')).getRowObjectsJS()[0];
  wh.close();
  expect(Number(probe!.rows)).toBeGreaterThan(20_000);
  const start = Number(probe!.s);
  expect(Math.abs(start - (clock.ms - 28 * 86_400_000))).toBeLessThanOrEqual(7 * 86_400_000);

  // A fresh budget for the dry run, so every window it plans is listed.
  const out = await runCli(['sync', '--dry-run', '--warehouse', warehouse, '--rate-limit', '1000/1h'], cliEnv({
    DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_API_BASE_URL: sb.url, DOCS_ETL_BUDGET_DIR: join(tmp.dir, 'budget-dry'),
  }));
  expect(out.code, out.stderr).toBe(0);
  const backfill = out.stdout.split('\n').filter((l) => /\bbackfill\b/.test(l) && /→|\.\./.test(l));
  // Weeks down to the oldest one with data (about 4 of 28 days), then everything older as one window.
  expect(backfill.length, out.stdout).toBeLessThanOrEqual(7);
  expect(backfill.at(-1), out.stdout).toMatch(/beginning/);
  expect(out.stdout).toMatch(/estimate basis \S+: [\d,]+ assistant turns\/day seen \(days with data\), about \d+ request\(s\) per week of history, \d+ request\(s\) a run go to backfill/);
});
