// Issue 19, item 5: `status --check` names a stream stuck in one open window (it stopped on the
// budget on 3 consecutive runs without completing a window), and a healthy one stays healthy.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { sqlFile } from '../../src/warehouse/sql-files.js';
import { finishRun, registerStream, startRun } from '../../src/sync/load/sync-runs.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { collectStatus } from '../../src/outputs/status/collect-status.js';
import { collectHealthFacts, healthProblems } from '../../src/outputs/status/health-check.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { ulid } from 'ulid';

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

// A window restarted from its start in every run (the API rejected its stored cursor) that stops on
// the budget each time while the heads before it complete: the runs complete windows, so "nothing
// completed" missed it; the open window's id (a ULID minted when it started) dates it before the
// streak. Written through the merge's and the runner's own SQL into a real warehouse.
it('a window open since before 3 consecutive budget stops is stuck even though heads complete in those runs; one opened in the first of them is not', async () => {
  const t0 = Date.parse('2026-06-10T02:00:00Z');
  const warehouse = join(tmp.dir, 'restarted.duckdb');
  const wh = await openWarehouse(warehouse);
  const stream = { project_id: 'demo', pipeline: 'assistant_conversations' };
  const stuckNow = async (openedAt: number) => {
    await wh.conn.run(sqlFile('load/upsert-state.sql'), {
      ...stream, organization: 'org', high_water: new Date(t0 + 3 * H).toISOString(),
      window_from: new Date(t0 - 48 * H).toISOString(), window_to: new Date(t0 - 24 * H).toISOString(), window_purpose: 'catchup',
      window_id: ulid(openedAt), cursor: 'c', offset: null, pages: 3, rows: 3000, window_new: 0, window_changed: 0,
      merged_seq: 1, window_limit_ms: null, run_id: 'r', now: new Date(t0 + 3 * H).toISOString(),
    });
    return (await collectHealthFacts(wh.conn, new FakeClock(t0 + 4 * H))).stuck.map((x) => `${x.pipeline} ${x.runs} ${x.window}`);
  };
  try {
    await registerStream(wh.conn, { projectId: 'demo', pipeline: 'assistant_conversations', organization: 'org', backfillFrom: null, now: new Date(t0) });
    for (const at of [1, 2, 3]) {
      const runId = ulid(t0 + at * H);
      const now = new Date(t0 + at * H);
      await startRun(wh.conn, { runId, projectId: 'demo', pipeline: 'assistant_conversations', now });
      await wh.conn.run(sqlFile('load/insert-window.sql'), {
        ...stream, window_id: ulid(t0 + at * H + 1), run_id: runId, purpose: 'head', window_from: new Date(t0 + (at - 1) * H).toISOString(),
        window_to: now.toISOString(), now: new Date(t0 + at * H + 2).toISOString(), pages: 1, rows: 10, new_rows: 10, changed_rows: 0,
      });
      await finishRun(wh.conn, { runId, status: 'budget_exhausted', error: 'budget', requests: 5, span: null, now: new Date(t0 + at * H + 60_000) });
    }
    // Opened an hour before the streak (the run before it, which succeeded or paused it).
    expect(await stuckNow(t0)).toEqual([`assistant_conversations 3 catchup ${new Date(t0 - 48 * H).toISOString()} → ${new Date(t0 - 24 * H).toISOString()}`]);
    // Opened in the first run of the streak, after it started: a large window may take a few runs.
    expect(await stuckNow(t0 + H + 5)).toEqual([]);
  } finally {
    wh.close();
  }
});
