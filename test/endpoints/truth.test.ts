// Every pipeline's table equals the sandbox's ground truth after a sync of all seven pipelines, run
// in-process over real HTTP into a real DuckDB file with one injected clock for the sandbox and
// the sync (the sandbox's data is a function of its clock: frozen, the truth cannot move under
// the comparison).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync, type SyncResult } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import {
  DAY_MS, PIPELINE_NAMES, actualAndExpected, byPageAsSplit, completeDays, expectedFeedback, isoDay, query, utcMidnight, warehouseFeedback,
  type PipelineName,
} from './exports-helpers.js';

const KEY = 'mint_exports_truth_key_01';
const PROJECTS = ['alpha', 'beta'];
const NOW = Date.parse('2026-03-11T15:30:00Z');
// Backfill from a midnight 8 days back: the sandbox's 7 days of history and an empty day before it.
const FROM = utcMidnight(NOW) - 8 * DAY_MS;
const DAYS = completeDays(FROM, NOW);
/** Views and visitors take two pages (250 paths each) a day, searches more terms than the 100 read, by-page splits. */
const SITE = { pages: 400, feedbackPerDay: 300, searchesPerDay: 3000, viewsPerDay: 20_000 };

const clock = new FakeClock(NOW, { sleepAdvances: false });
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
const results: SyncResult[] = [];

function config(): SyncConfig {
  return defaultSyncConfig(warehouse, PROJECTS.map((projectId) => ({
    projectId, apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date(FROM),
  })), { rate: { limit: 100_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, budgetDir: join(tmp.dir, 'budget'), pipelines: null });
}

beforeAll(async () => {
  tmp = tempDir('docs-etl-exports-truth-');
  warehouse = join(tmp.dir, 'w.duckdb');
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: PROJECTS, conversations: 600, historyDays: 7, seed: 1301, site: SITE, clock,
  }));
  // Feedback entries without createdAt are served only to a read without dates (a sweep), and a
  // sweep is planned only once the history has no gap left: the first run backfills, so its plan
  // has no sweep; the second run (same instant) has nothing else to read and sweeps.
  for (let i = 0; i < 2; i++) {
    const r = await runSync({ clock, logger: silentLogger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, config(), PIPELINES);
    expect(r.exitCode).toBe(0);
    results.push(r);
  }
}, 60_000);

afterAll(async () => {
  await sb?.close();
  tmp?.cleanup();
});

describe('every table equals the sandbox truth', () => {
  it.each(PIPELINE_NAMES.map((p) => [p]))('%s', async (pipeline) => {
    for (const projectId of PROJECTS) {
      const { actual, expected } = await actualAndExpected(sb, warehouse, pipeline as PipelineName, projectId, DAYS);
      expect(expected.length, `${projectId}: the truth is not empty`).toBeGreaterThan(0);
      expect(actual, `${pipeline} of ${projectId}`).toEqual(expected);
    }
  });

  it('the data has what the contract makes hard: multi-page days, cut rankings, split and truncated by-page days', () => {
    const n = (f: (d: number) => number) => DAYS.map(f);
    const views = n((d) => sb.aggregateTruth('alpha', 'views', d, d + DAY_MS).views.length);
    const terms = n((d) => sb.aggregateTruth('alpha', 'searches', d, d + DAY_MS).searches.length);
    const byPage = n((d) => sb.aggregateTruth('alpha', 'feedback/by-page', d, d + DAY_MS).feedback.length);
    expect(Math.max(...views)).toBeGreaterThan(250);
    expect(Math.max(...terms)).toBeGreaterThan(100);
    expect(Math.max(...byPage)).toBeGreaterThan(100);
    // A day of beta has a (source, status) part with more than 100 paths: truncated, as documented.
    expect(DAYS.filter((d) => byPageAsSplit(sb, 'beta', d, d + DAY_MS).truncated)).toHaveLength(1);
  });

  it('day pipelines hold exactly the complete days of the range, each day once', async () => {
    const rows = await query(warehouse, `
      SELECT project_id, strftime(day, '%Y-%m-%d') AS day FROM assistant_callers_daily ORDER BY ALL`);
    expect(rows).toEqual(PROJECTS.flatMap((p) => DAYS.map((d) => ({ project_id: p, day: isoDay(d) }))));
    // The range is what the test thinks it is: 8 days, ending yesterday (today is not complete).
    expect(DAYS).toHaveLength(8);
    expect(isoDay(DAYS.at(-1)!)).toBe('2026-03-10');
  });

  it('searches_daily_totals, site_views_daily and site_visitors_daily hold each day\'s totals as served', async () => {
    for (const projectId of PROJECTS) {
      const totals = await query(warehouse, `
        SELECT strftime(day, '%Y-%m-%d') AS day, total_searches, terms_read, truncated FROM searches_daily_totals WHERE project_id = $p ORDER BY day`,
      { p: projectId });
      expect(totals).toEqual(DAYS.map((d) => {
        const a = sb.aggregateTruth(projectId, 'searches', d, d + DAY_MS);
        return { day: isoDay(d), total_searches: a.totalSearches, terms_read: Math.min(100, a.searches.length), truncated: a.searches.length > 100 };
      }));
      const traffic = await query(warehouse, `
        SELECT strftime(day, '%Y-%m-%d') AS day, v.human AS views_human, v.ai AS views_ai, v.total AS views_total,
               u.human AS visitors_human, u.ai AS visitors_ai, u.total AS visitors_total
        FROM site_views_daily v FULL JOIN site_visitors_daily u USING (project_id, day) WHERE project_id = $p ORDER BY day`, { p: projectId });
      expect(traffic).toEqual(DAYS.map((d) => {
        const v = sb.aggregateTruth(projectId, 'views', d, d + DAY_MS).totals;
        const u = sb.aggregateTruth(projectId, 'visitors', d, d + DAY_MS).totals;
        return {
          day: isoDay(d), views_human: v.human, views_ai: v.ai, views_total: v.total, visitors_human: u.human, visitors_ai: u.ai, visitors_total: u.total,
        };
      }));
    }
  });

  it('undated feedback entries came in with the sweep of the second run, not the first', async () => {
    const runs = await query(warehouse, `
      SELECT project_id, purpose, count(*) AS n FROM sync_windows
      WHERE pipeline = 'feedback' AND purpose = 'sweep' GROUP BY ALL ORDER BY ALL`);
    expect(runs).toEqual(PROJECTS.map((p) => ({ project_id: p, purpose: 'sweep', n: 1 })));
    const sweptBy = await query(warehouse, "SELECT DISTINCT run_id FROM sync_windows WHERE purpose = 'sweep' ORDER BY 1");
    const secondRun = new Set(results[1]!.runs.map((r) => r.runId));
    expect(sweptBy.every((r) => secondRun.has(String(r.run_id))), 'the sweep belongs to the second run').toBe(true);
    for (const projectId of PROJECTS) {
      const undated = sb.feedbackTruth(projectId).filter((e) => e.createdAt === null);
      // The situation this is about happened: entries without a time exist, and a dated read misses them.
      expect(undated.length).toBeGreaterThan(0);
      expect(sb.feedbackTruth(projectId, { fromMs: 0, toMs: NOW + DAY_MS }).some((e) => e.createdAt === null)).toBe(false);
      const loaded = await warehouseFeedback(warehouse, projectId);
      expect(loaded.filter((r) => r.created_at === null)).toEqual(expectedFeedback(undated));
    }
  });
});
