// Issue 34, item 2: a first backfill at the nightly cadence tells its truth. Nights on a moving
// clock (the sandbox's and the client's moved together): after each of the first three nights
// `status` estimates the nights left; the nights then actually needed to complete are counted.
// The estimate after the first night must be within ±30% of them, and a backfill that takes more
// than 3 days says so with the hourly advice.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, trafficOptions, type Sandbox } from '../../src/tools/sandbox/index.js';
import { collectStatus, type Status } from '../../src/outputs/status/collect-status.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_backfill_nightly_key_01';
const H = 3_600_000;
const START = Date.parse('2026-06-10T02:00:00Z');
const tmp = tempDir('docs-etl-backfill-nightly-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('after each of three nights status estimates the nights left within ±30% of the nights actually needed, and warns', { timeout: 240_000 }, async () => {
  const clock = new FakeClock(START);
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], traffic: trafficOptions(1000), historyDays: 28, seed: 3434, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { budgetDir: join(tmp.dir, 'budget') });
  cfg.pipelines = ['assistant_conversations'];
  cfg.rate = { limit: 10, windowMs: H };
  cfg.maxWaitMs = 0;
  const estimates: { night: number; runs: number | null; status: Status }[] = [];
  const fresh: number[] = [];
  let night = 0;
  for (; night < 7; night++) {
    clock.ms = START + night * 24 * H;
    const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
    expect(r.exitCode, r.runs.map((x) => x.error).join('; ')).not.toBe(1);
    const status = await statusNow(clock, warehouse, cfg);
    fresh.push(await freshPages(warehouse));
    if (night < 3) estimates.push({ night, runs: status.backfill[0]!.runs, status });
    if (status.backfill[0]!.runs === 0) break;
  }
  const needed = (n: number) => night - n; // nights after night n until complete
  const report = `${estimates.map((e) => `night ${e.night}: estimate ${e.runs}, needed ${needed(e.night)}`).join('; ')}; ` +
    `heads and re-reads: estimated ${estimates[0]!.status.backfill[0]!.per_run_fresh} a night, spent ${fresh.join(',')}`;
  console.log(`nightly backfill: complete after night ${night}; ${report}`);
  // The estimate after the first night (before it: "no estimate yet") is within ±30% of the nights then needed.
  expect(estimates[0]!.runs, report).not.toBeNull();
  expect(Math.abs(estimates[0]!.runs! - needed(0)) / needed(0), report).toBeLessThanOrEqual(0.3);
  // per_run leaves out what a steady night spends on its head and re-reads (nights 2 on: settles run).
  const first = estimates[0]!.status.backfill[0]!;
  expect(fresh.slice(2).every((n) => Math.abs(n - first.per_run_fresh) <= 1), report).toBe(true);
  expect(first.cadence_s).toBe(86_400); // before two runs: the schedule's nightly default
  expect(first.warning).toMatch(/history complete in about \d+ nightly runs \(≈ \d+ days\).*run hourly until it is complete/);
  expect(estimates[2]!.status.backfill[0]!.cadence_source).toBe('observed');
  const assistant = estimates[2]!.status.streams.find((x) => x.pipeline === 'assistant_conversations')!;
  // Over days with data only: about the 1,000 turns a day the sandbox makes (not diluted by empty weeks).
  expect(assistant.turns_per_day! / 1000).toBeGreaterThan(0.8);
  expect(assistant.turns_per_day! / 1000).toBeLessThan(1.2);
});

async function statusNow(clock: FakeClock, warehouse: string, cfg: ReturnType<typeof defaultSyncConfig>): Promise<Status> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return await collectStatus({
      conn: wh.conn, clock, warehouse, readPath: cfg.readPath, lake: null, budgetDir: cfg.budgetDir, rate: cfg.rate, maxWaitMs: cfg.maxWaitMs,
      scheduleCadenceS: 86_400,
    });
  } finally {
    wh.close();
  }
}

/** Pages the last run read for heads and re-reads (anything but backfill). */
async function freshPages(warehouse: string): Promise<number> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const r = await wh.conn.runAndReadAll(`SELECT coalesce(sum(pages), 0) AS n FROM sync_windows
      WHERE purpose <> 'backfill' AND run_id = (SELECT run_id FROM sync_runs ORDER BY started_at DESC LIMIT 1)`);
    return Number(r.getRowObjectsJS()[0]!.n);
  } finally {
    wh.close();
  }
}
