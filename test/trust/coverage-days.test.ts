// Issue 19, item 2: coverage is part of the data. `coverage_days` says, per project, pipeline and
// day of the project's zone, whether the day is settled, loaded or missing; page_gaps and
// page_gaps_daily say how many days of each source are loaded in their period.
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

const KEY = 'mint_trust_coverage_key_1';
const H = 3_600_000;
const tmp = tempDir('docs-etl-coverage-days-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('coverage_days tells loaded, settled and missing days apart, in the project\'s zone; page_gaps counts loaded days per source', { timeout: 120_000 }, async () => {
  const t0 = Date.parse('2026-06-10T15:00:00Z');
  const clock = new FakeClock(t0);
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 2000, historyDays: 10, seed: 12, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date('2026-06-03T04:00:00Z'), timezone: 'America/New_York' }],
    // A budget that reads the assistant's history and only some days of views.
    { rate: { limit: 9, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_conversations', 'page_views'], budgetDir: join(tmp.dir, 'budget') });
  const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
  expect(r.runs.map((x) => x.status)).toEqual(['succeeded', 'succeeded']);
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const rows = (await wh.conn.runAndReadAll(
      "SELECT pipeline, strftime(day, '%m-%d') AS day, state, timezone FROM coverage_days WHERE day <= DATE '2026-06-10' ORDER BY pipeline, day",
    )).getRowObjectsJS();
    const by = (p: string) => Object.fromEntries(rows.filter((x) => x.pipeline === p).map((x) => [x.day, x.state]));
    expect(rows.every((x) => x.timezone === 'America/New_York')).toBe(true);
    // Views: New York days, yesterday (06-09) first, then older days as far as the budget went; today is not complete.
    const views = by('page_views');
    expect(views['06-03']).toBe('missing');
    expect(views['06-08']).toBe('missing');
    expect(views['06-09']).toMatch(/^(loaded|settled)$/);
    expect(views['06-10']).toBe('missing');
    const viewsLoaded = Object.values(views).filter((s) => s !== 'missing').length;
    expect(viewsLoaded).toBeGreaterThan(0);
    expect(viewsLoaded).toBeLessThan(7);
    // The assistant's backfill reached 06-03 14:00Z, not the New York midnight (04:00Z): that day is
    // read in part, so missing; the days after it, over a day old when read, settled at once;
    // yesterday loaded (its settle read is still due).
    const turns = by('assistant_conversations');
    expect(turns['06-03']).toBe('missing');
    for (const d of ['06-04', '06-05', '06-06', '06-07', '06-08']) expect(turns[d]).toBe('settled');
    expect(turns['06-09']).toBe('loaded');
    // The loaded view days match the days the table holds rows for.
    const tableDays = (await wh.conn.runAndReadAll("SELECT count(DISTINCT day) AS n FROM page_views_daily")).getRowObjectsJS()[0]!.n;
    expect(Number(tableDays)).toBe(viewsLoaded);
    // page_gaps: how many days of each source are loaded, beside the sums.
    const gaps = (await wh.conn.runAndReadAll(
      'SELECT DISTINCT views_days_loaded, turns_days_loaded, period_days FROM page_gaps WHERE project_id = $p', { p: 'demo' },
    )).getRowObjectsJS();
    expect(gaps).toHaveLength(1);
    expect(Number(gaps[0]!.views_days_loaded)).toBe(viewsLoaded);
    expect(Number(gaps[0]!.turns_days_loaded)).toBe(6);
    expect(Number(gaps[0]!.period_days)).toBe(6);
    const daily = (await wh.conn.runAndReadAll(
      "SELECT bool_and(views_loaded) AS v FROM page_gaps_daily WHERE project_id = 'demo' AND views_total > 0",
    )).getRowObjectsJS();
    expect(daily[0]!.v).toBe(true);
  } finally {
    wh.close();
  }
});
