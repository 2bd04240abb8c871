// Issue 19, item 1: `rebuild` keeps the coverage map as it was (read ages, reads, settled flags per
// interval), so the re-reads still due are planned after a rebuild exactly as without it.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runRebuild } from '../../src/sync/run/rebuild.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_rebuild_key_01';
const H = 3_600_000;
const tmp = tempDir('docs-etl-rebuild-cov-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

const coverage = async (warehouse: string) => {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return (await wh.conn.runAndReadAll('SELECT pipeline, range_from, range_to, read_at, reads, settled FROM coverage ORDER BY pipeline, range_from'))
      .getRowObjectsJS();
  } finally {
    wh.close();
  }
};

it('a dry run 6 h after rebuild plans the same re-reads as the warehouse not rebuilt', { timeout: 120_000 }, async () => {
  const clock = new FakeClock(Date.parse('2026-06-10T09:00:00Z'));
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 800, historyDays: 4, seed: 19, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfgFor = (w: string): SyncConfig => defaultSyncConfig(w,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb!.url, organization: keyFingerprint(KEY), backfillFrom: new Date('2026-06-06T00:00:00Z') }],
    { rate: { limit: 10_000, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_conversations', 'feedback', 'page_views'], keepRawMs: 30 * 86_400_000, budgetDir: join(tmp.dir, 'budget') });
  const cfg = cfgFor(warehouse);
  expect((await runSync({ clock, logger: silentLogger }, cfg, PIPELINES)).exitCode).toBe(0);
  clock.advance(H);
  expect((await runSync({ clock, logger: silentLogger }, cfg, PIPELINES)).exitCode).toBe(0);

  const before = await coverage(warehouse);
  expect(before.some((r) => r.settled === false)).toBe(true);
  const twin = join(tmp.dir, 'twin.duckdb');
  copyFileSync(warehouse, twin);

  const rebuilt = await runRebuild({ clock, logger: silentLogger },
    { warehouse, landingDir: cfg.landingDir, readPath: cfg.readPath, readSurface: cfg.readSurface, readGraceMs: cfg.readGraceMs, duckdb: cfg.duckdb, projects: null }, PIPELINES);
  expect(rebuilt.every((s) => s.coverageDroppedMs === 0)).toBe(true);
  // Interval by interval: same bounds, read times, read counts and settled flags.
  expect(await coverage(warehouse)).toEqual(before);

  clock.advance(6 * H);
  const plan = async (w: string) => {
    const r = await runSync({ clock, logger: silentLogger, dryRun: true }, cfgFor(w), PIPELINES);
    const { selected, deferred } = r.plans[0]!.plan;
    return [...selected, ...deferred].map((e) => `${e.pipeline} ${e.window.purpose} ${e.window.from.toISOString()} ${e.window.to.toISOString()}`).sort();
  };
  const rebuiltPlan = await plan(warehouse);
  expect(rebuiltPlan).toEqual(await plan(twin));
  expect(rebuiltPlan.some((w) => /assistant_conversations (recheck|settle)/.test(w))).toBe(true);
});
