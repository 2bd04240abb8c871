// Issue 19, item 5: `status --check` names a stream stuck in one open window (it stopped on the
// budget on 3 consecutive runs without completing a window), and a healthy one stays healthy.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/sync/load/warehouse.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { collectStatus } from '../../src/outputs/status/collect-status.js';
import { collectHealthFacts, healthProblems } from '../../src/outputs/status/health-check.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_stuck_key_0001';
const H = 3_600_000;
const tmp = tempDir('docs-etl-stuck-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('a stream stopped on the budget in the same open window on 3 consecutive runs makes --check unhealthy, naming it', { timeout: 120_000 }, async () => {
  const t0 = Date.parse('2026-06-10T02:00:00Z');
  const clock = new FakeClock(t0);
  // 36,000 new turns a day: a 10 h lag is a head window of about 15 pages.
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 3000, historyDays: 1, live: true, liveTurnsPerMinute: 25, seed: 5, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date(t0 - 3 * H) }],
    { budgetDir: join(tmp.dir, 'budget'), rate: { limit: 3, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_conversations'] });
  const check = async () => {
    const wh = await openWarehouse(warehouse, { readOnly: true });
    try {
      const status = await collectStatus({ conn: wh.conn, clock, warehouse, readPath: cfg.readPath, lake: null, budgetDir: cfg.budgetDir, rate: cfg.rate, maxWaitMs: 0 });
      return healthProblems(status, { maxAgeMs: 26 * H, facts: await collectHealthFacts(wh.conn, clock) });
    } finally {
      wh.close();
    }
  };
  const statuses: string[] = [];
  for (const at of [0, 10, 11, 12]) {
    clock.ms = t0 + at * H;
    const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
    statuses.push(`+${at}h ${r.runs[0]!.status} ${r.runs[0]!.windows.map((w) => `${w.purpose}:${w.pages}${w.complete ? '' : ' open'}`).join(',')}`);
    // Two stops in a row are not stuck yet: a large window may take a few runs.
    if (at === 11) expect(await check(), statuses.join('\n')).toEqual([]);
  }
  expect(statuses.slice(1).every((s) => s.includes('budget_exhausted')), statuses.join('\n')).toBe(true);
  const problems = await check();
  expect(problems, statuses.join('\n')).toHaveLength(1);
  expect(problems[0]).toMatch(/^demo\/assistant_conversations: stuck: stopped on the budget in the same open window \(head .* → .*\) on 3 consecutive runs since /);
});
