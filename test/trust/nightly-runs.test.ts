// Issue 19, "What it must show": three nightly runs (+0, +25 h, +49 h; the sandbox's clock and the
// client's moved together) under the real budget of 100 requests an hour. After them every
// pipeline's intervals older than its settle age plus one run are settled, and `status --check` is
// healthy.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import type { PipelineDefinition } from '../../src/sync/pipeline/definition.js';
import { DEFAULT_REREADS, settleAgeMs } from '../../src/sync/plan/reread-schedule.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { collectStatus } from '../../src/outputs/status/collect-status.js';
import { collectHealthFacts, healthProblems } from '../../src/outputs/status/health-check.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_nightly_key_01';
const H = 3_600_000;
const tmp = tempDir('docs-etl-nightly-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('after three nightly runs every interval older than its settle age + one run is settled, and --check is healthy', { timeout: 120_000 }, async () => {
  const clock = new FakeClock(Date.parse('2026-06-10T02:00:00Z'));
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 3000, historyDays: 30, seed: 1919, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    // No gap topics' grouping (topicMaxQuestions 0): it spends no request and settles nothing.
    { budgetDir: join(tmp.dir, 'budget'), topics: { ...DEFAULT_TOPIC_SETTINGS, maxQuestions: 0 } });
  const runs: string[][] = [];
  for (const at of [0, 25, 49]) {
    clock.ms = Date.parse('2026-06-10T02:00:00Z') + at * H;
    const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
    expect(r.exitCode, r.runs.map((x) => x.error).join('; ')).not.toBe(1);
    runs.push(r.runs.map((x) => `+${at}h ${x.pipeline}: ${x.windows.map((w) => w.purpose).join(',')} (${x.deferred} deferred)`));
  }
  const now = clock.ms;
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const cov = (await wh.conn.runAndReadAll('SELECT pipeline, epoch_ms(range_from) AS f, epoch_ms(range_to) AS t, settled FROM coverage ORDER BY pipeline, range_from'))
      .getRowObjectsJS();
    for (const p of (PIPELINES as readonly PipelineDefinition[]).filter((x) => !x.optIn)) {
      const limit = now - settleAgeMs(p.rereads ?? DEFAULT_REREADS) - 24 * H;
      const stale = cov.filter((c) => c.pipeline === p.name && Number(c.t) <= limit && c.settled !== true);
      expect(stale.map((c) => `${p.name} ${new Date(Number(c.f)).toISOString()}..${new Date(Number(c.t)).toISOString()}`), runs.join('\n')).toEqual([]);
    }
    const status = await collectStatus({
      conn: wh.conn, clock, warehouse, readPath: cfg.readPath, lake: null, budgetDir: cfg.budgetDir, rate: cfg.rate, maxWaitMs: cfg.maxWaitMs,
    });
    expect(healthProblems(status, { maxAgeMs: 26 * H, facts: await collectHealthFacts(wh.conn, clock) })).toEqual([]);
    // The organization's backfill, all pipelines together, at the nightly cadence it observed.
    const [org] = status.backfill;
    expect(status.backfill).toHaveLength(1);
    expect(org!.cadence_s! / 3600).toBeCloseTo(24.5, 1);
    const left = status.streams.reduce((n, x) => n + (x.backfill.complete ? 0 : (x.backfill.remaining_requests ?? 0)), 0);
    expect(org!.remaining_requests).toBe(left);
    // 100 requests a night, less what the heads and re-reads take first: at least a head and a
    // re-read for each of the 7 streams, more where a night's head holds more than a page.
    expect(org!.per_run_fresh).toBeGreaterThanOrEqual(14);
    expect(org!.per_run).toBe(100 - org!.per_run_fresh);
    const known = status.streams.filter((x) => !x.backfill.complete && x.backfill.remaining_requests !== null).length;
    expect(org!.runs).toBe(known ? Math.ceil(left / org!.per_run) : null);
  } finally {
    wh.close();
  }
});
