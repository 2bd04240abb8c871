// Issue 36: stale without failing. Runs that succeed while the sandbox serves no new turns past the
// freshness SLA (the sandbox's and the sync's clocks moved together) raise one `stale` alert and make
// `status --check` (a real process) exit 1 naming the stream and the age; new data clears it with
// `recovered`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import type { OpsSettings } from '../../src/config/ops-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { createOpsHooks } from '../../src/outputs/alerts/ops-hooks.js';
import { ALERT_EVENTS } from '../../src/outputs/alerts/alert-events.js';
import { parseFreshness } from '../../src/outputs/status/freshness.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.js';

const KEY = 'mint_ops_stale_key_0001';
const H = 3_600_000;
const tmp = tempDir('docs-etl-stale-');
let sb: Sandbox | undefined;
let sink: WebhookSink | undefined;
afterAll(async () => {
  await sb?.close();
  await sink?.close();
  tmp.cleanup();
});

it('runs that succeed with no new data past the SLA raise one stale alert and fail status --check; new data sends recovered', { timeout: 120_000 }, async () => {
  // The runs happen over the last 8 hours of real time, so `status --check` (a real process, on the
  // system clock) judges the warehouse as of now.
  const t0 = Math.floor(Date.now() / 60_000) * 60_000 - 8 * H;
  const clock = new FakeClock(t0);
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 300, historyDays: 2, live: false, liveTurnsPerMinute: 2, seed: 36, clock }));
  sink = await startWebhookSink();
  const warehouse = join(tmp.dir, 'w.duckdb');
  const budgetDir = join(tmp.dir, 'budget');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date(t0 - 3 * 86_400_000) }],
    { budgetDir, rate: { limit: 1000, windowMs: H }, pipelines: ['assistant_conversations'] });
  const ops: OpsSettings = {
    metricsListen: null, metricsFile: null, freshness: parseFreshness({ assistant_conversations: '6h', default: '26h' }),
    alerts: [{ urlEnv: 'DOCS_ETL_TEST_HOOK', url: sink.url, format: 'json', on: ALERT_EVENTS }],
    quarantineAlert: { count: 100, share: 0.01 }, alertDeadlineMs: 10_000,
  };
  const run = async (at: number) => {
    clock.ms = t0 + at;
    const hooks = createOpsHooks({ clock, logger: silentLogger }, cfg, ops);
    const r = await runSync({ clock, logger: silentLogger, ...hooks.syncDeps }, cfg, PIPELINES);
    await hooks.afterRun();
    expect(r.runs.map((x) => x.status)).toEqual(['succeeded']);
  };
  const configFile = join(tmp.dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ projects: [{ id: 'demo', apiKeyEnv: 'DOCS_API_KEY' }], freshness: { assistant_conversations: '6h', default: '26h' } }));
  const check = () => runCli(['status', '--check', '--warehouse', warehouse, '--config', configFile, '--rate-limit', '1000/1h'],
    cliEnv({ DOCS_API_KEY: KEY, DOCS_ETL_BUDGET_DIR: budgetDir }));
  const staleOnes = () => sink!.bodies.filter((b) => {
    const a = b as { event: string; cleared: string | null };
    return a.event === 'stale' || a.cleared === 'stale';
  });

  await run(0);
  expect(staleOnes()).toEqual([]);
  // 7 hours on, no new turn: the newest record is older than the 6h SLA while the run succeeds.
  await run(7 * H);
  expect(staleOnes()).toHaveLength(1);
  const stale = staleOnes()[0] as Record<string, unknown>;
  expect(stale).toMatchObject({ event: 'stale', project: 'demo', pipeline: 'assistant_conversations', cleared: null });
  expect(stale.reason).toMatch(/^stale: newest record 7h\d*m? ago, over its freshness SLA of 6h$/);
  expect(stale.status_line).toMatch(/^unhealthy: .*demo\/assistant_conversations: stale: newest record/);
  expect(Object.keys(stale.figures as object).sort()).toEqual(['head_at', 'last_run_at', 'last_run_status', 'newest_record_at', 'quarantined']);
  const bad = await check();
  expect(bad.code, bad.stderr).toBe(1);
  expect(bad.stdout).toMatch(/^unhealthy: demo\/assistant_conversations: stale: newest record 8h\d*m? ago, over its freshness SLA of 6h\n$/);
  // Still stale on the next run: no second alert (one per change of state, not per run).
  await run(7.5 * H);
  expect(staleOnes()).toHaveLength(1);
  // New turns arrive: the next run clears it.
  sb.configure({ live: true });
  await run(8 * H);
  expect(staleOnes().map((b) => (b as { event: string }).event)).toEqual(['stale', 'recovered']);
  expect(staleOnes()[1]).toMatchObject({ project: 'demo', pipeline: 'assistant_conversations', cleared: 'stale', since: stale.since });
  const good = await check();
  expect(good.stdout + good.stderr).toMatch(/^healthy: 1 stream\(s\)/);
  expect(good.code).toBe(0);
  // The webhook URL (a secret) is stored nowhere in the warehouse.
  const { openWarehouse } = await import('../../src/warehouse/warehouse.js');
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const dump = JSON.stringify((await wh.conn.runAndReadAll('SELECT * FROM alert_state')).getRowObjectsJS());
    expect(dump).not.toContain('hook/');
  } finally {
    wh.close();
  }
});
