// Invalid records go to quarantine, once each, with their pipeline and the reason; the valid
// records around them all load. Syncs run in-process over real HTTP into a real DuckDB file with
// injected clocks; `docs-etl status --json` (the real CLI) reports each stream's own quarantine.
//  - feedback (and assistant turns): the sandbox's persistently malformed records (malformedRate);
//  - the day aggregates: the sandbox has no fault that breaks one record of an otherwise valid
//    body (its `malformed` fault retypes the whole body, which the client retries as a broken
//    page), so a small loopback proxy in front of it breaks one record of one day per endpoint.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import type { Clock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import {
  DAY_MS, SMALL_SITE, completeDays, expectedDaily, expectedFeedback, isoDay, query, rewritingProxy, utcMidnight, warehouseDaily, warehouseFeedback,
  type PipelineName, type Row,
} from './exports-helpers.js';

const KEY = 'mint_exports_quarantine_key';
const NOW = Date.parse('2026-05-20T10:00:00Z');
const FROM = utcMidnight(NOW) - 8 * DAY_MS;
const DAYS = completeDays(FROM, NOW);
const RETRY = { attempts: 5, baseMs: 1, maxMs: 5 };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function syncConfig(warehouse: string, baseUrl: string, projects: string[], pipelines: string[] | null): SyncConfig {
  return defaultSyncConfig(warehouse, projects.map((projectId) => ({
    projectId, apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl, organization: keyFingerprint(KEY), backfillFrom: new Date(FROM),
  })), { rate: { limit: 100_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, pipelines });
}

async function sandbox(clock: Clock, over: Parameters<typeof defaultSandboxOptions>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 800, historyDays: 7, seed: 1321, site: SMALL_SITE, clock, ...over }));
  cleanup.push(() => sb.close());
  return sb;
}

function dir(): string {
  const t = tempDir('docs-etl-exports-quarantine-');
  cleanup.push(async () => t.cleanup());
  return t.dir;
}

/** `docs-etl status --json` streams: pipeline → quarantined, for one project. */
async function statusQuarantine(warehouse: string, projectId: string): Promise<Record<string, number>> {
  const r = await runCli(['status', '--json', '--warehouse', warehouse], cliEnv({ LOG_LEVEL: 'warn' }));
  expect(r.code, r.stderr).toBe(0);
  const status = JSON.parse(r.stdout) as { streams: { project_id: string; pipeline: string; quarantined: number }[] };
  return Object.fromEntries(status.streams.filter((s) => s.project_id === projectId).map((s) => [s.pipeline, s.quarantined]));
}

const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) =>
  (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

describe('quarantine', () => {
  it('feedback: each malformed entry once, with its pipeline and reason, across re-reads and sweeps; every valid entry loaded', async () => {
    // The sandbox's data stands still; the sync's clock moves 8 days on before its last two runs:
    // they re-read the recent windows (rechecks) and, once the day between the old and the new head
    // is read (the head spans 7 days at most), sweep again. Every malformed entry is read at least
    // twice, undated ones included.
    const data = new FakeClock(NOW, { sleepAdvances: false });
    const syncClock = new FakeClock(NOW, { sleepAdvances: false });
    const sb = await sandbox(data, { malformedRate: 0.03, site: { ...SMALL_SITE, feedbackPerDay: 120 } });
    const warehouse = join(dir(), 'w.duckdb');
    const cfg = syncConfig(warehouse, sb.url, ['demo'], ['feedback', 'assistant_conversations']);
    for (const advance of [0, 0, 8 * DAY_MS, 0]) {
      syncClock.advance(advance);
      const r = await runSync({ clock: syncClock, logger: silentLogger, retry: RETRY }, cfg, PIPELINES);
      expect(r.exitCode).toBe(0);
    }
    expect(await query(warehouse, "SELECT count(*) AS n FROM sync_windows WHERE pipeline = 'feedback' AND purpose = 'sweep'")).toEqual([{ n: 2 }]);

    const malformed = sb.feedbackMalformed('demo');
    expect(malformed.length).toBeGreaterThan(10);
    expect(malformed.some((m) => (m as { createdAt?: unknown }).createdAt === null), 'an undated malformed entry (read by sweeps only)').toBe(true);
    const rows = await query(warehouse, "SELECT error, CAST(raw AS VARCHAR) AS raw FROM quarantine WHERE pipeline = 'feedback'");
    expect(rows.map((r) => canonical(JSON.parse(String(r.raw)))).sort()).toEqual(malformed.map(canonical).sort());
    // The reason names what is wrong: the field the sandbox broke.
    for (const r of rows) {
      const raw = JSON.parse(String(r.raw)) as Record<string, unknown>;
      const field = !('path' in raw) ? 'path' : typeof raw.id !== 'string' ? 'id' : typeof raw.createdAt === 'number' ? 'createdAt'
        : typeof raw.comment === 'object' && raw.comment !== null ? 'comment' : !['pending', 'in_progress', 'resolved', 'dismissed'].includes(String(raw.status)) ? 'status' : 'source';
      expect(String(r.error), String(r.raw)).toMatch(new RegExp(`^${field}: `));
    }
    // The assistant's malformed turns are quarantined under their own pipeline, once each too.
    expect(await query(warehouse, "SELECT count(*) AS n FROM quarantine WHERE pipeline = 'assistant_conversations'"))
      .toEqual([{ n: sb.malformed('demo').length }]);
    // Every valid entry loaded, none of the malformed ones.
    expect(await warehouseFeedback(warehouse, 'demo')).toEqual(expectedFeedback(sb.feedbackTruth('demo')));
    // `status` counts each stream's own quarantine.
    expect(await statusQuarantine(warehouse, 'demo')).toEqual({ assistant_conversations: sb.malformed('demo').length, feedback: malformed.length });
  });

  it('day aggregates: a broken record of a day is quarantined once, with its pipeline and reason; the rest of the day and every other day load', async () => {
    const clock = new FakeClock(NOW, { sleepAdvances: false });
    const sb = await sandbox(clock);
    // Yesterday: read at 10:00, and read again after 12 h, when its late data has settled.
    const BROKEN_DAY = DAYS.at(-1)!;
    // Per endpoint: which record of the broken day's answer to break, and how.
    const breaks: Record<string, { list: string | null; at: number; fix: (r: Record<string, unknown>) => void; field: string }> = {
      '/views': { list: 'views', at: 1, fix: (r) => { r.human = -1; }, field: 'human' },
      '/visitors': { list: 'visitors', at: 0, fix: (r) => { delete r.path; }, field: 'path' },
      '/searches': { list: 'searches', at: 2, fix: (r) => { r.hits = 'many'; }, field: 'hits' },
      '/feedback/by-page': { list: 'feedback', at: 0, fix: (r) => { r.thumbsUp = null; }, field: 'thumbsUp' },
      '/assistant/caller-stats': { list: null, at: 0, fix: (r) => { r.total = -3; }, field: 'total' },
    };
    const broken = new Map<string, unknown>();
    const proxy = await rewritingProxy(sb.url, (endpoint, params, json) => {
      const b = breaks[endpoint];
      if (!b || params.get('dateFrom') !== new Date(BROKEN_DAY).toISOString()) return;
      const rec = (b.list === null ? [json] : (json[b.list] as Record<string, unknown>[]))[b.at];
      if (!rec) return;
      b.fix(rec);
      broken.set(endpoint, structuredClone(rec));
    });
    cleanup.push(() => proxy.close());
    const warehouse = join(dir(), 'w.duckdb');
    const daily: PipelineName[] = ['page_views', 'page_visitors', 'searches', 'feedback_by_page', 'assistant_callers'];
    const cfg = syncConfig(warehouse, proxy.url, ['demo'], daily);
    // The first run reads every day; 13 h later (the same day, 23:00) the second re-reads yesterday,
    // now settled: the broken record is served again, and must not be quarantined twice.
    for (const advance of [0, 13 * 3_600_000]) {
      clock.advance(advance);
      const r = await runSync({ clock, logger: silentLogger, retry: RETRY }, cfg, PIPELINES);
      expect(r.exitCode).toBe(0);
    }
    expect([...broken.keys()].sort()).toEqual(Object.keys(breaks).sort());
    // The broken day was read twice by every pipeline (whatever the planner calls the second read).
    expect(await query(warehouse, `SELECT pipeline, count(*) AS reads FROM sync_windows
      WHERE window_from = $d GROUP BY ALL ORDER BY ALL`, { d: new Date(BROKEN_DAY).toISOString() }))
      .toEqual([...daily].sort().map((pipeline) => ({ pipeline, reads: 2 })));

    const endpointOf: Record<string, string> = {
      page_views: '/views', page_visitors: '/visitors', searches: '/searches', feedback_by_page: '/feedback/by-page', assistant_callers: '/assistant/caller-stats',
    };
    const q = await query(warehouse, 'SELECT pipeline, error, CAST(raw AS VARCHAR) AS raw FROM quarantine ORDER BY pipeline');
    expect(q.map((r) => r.pipeline)).toEqual([...daily].sort());
    for (const r of q) {
      const b = breaks[endpointOf[String(r.pipeline)]!]!;
      expect(canonical(JSON.parse(String(r.raw)))).toBe(canonical(broken.get(endpointOf[String(r.pipeline)]!)));
      expect(String(r.error)).toMatch(new RegExp(`^${b.field}: `));
    }
    // Everything else of the broken day, and every other day, loaded as served.
    const key = (r: Row) => JSON.stringify(r);
    for (const pipeline of daily) {
      const endpoint = endpointOf[pipeline]!;
      const b = breaks[endpoint]!;
      const expected = expectedDaily(sb, pipeline, 'demo', DAYS);
      const brokenDay = expected.filter((r) => r.day === isoDay(BROKEN_DAY));
      // The record the proxy broke, as the truth has it: the day's `at`-th item in served order.
      const truthItems = pipeline === 'assistant_callers' ? brokenDay : servedOrder(sb, pipeline, BROKEN_DAY, brokenDay);
      const lost = truthItems[b.at]!;
      // The ranks of searches are the API's positions: the terms after the broken one keep theirs.
      const want = expected.filter((r) => key(r) !== key(lost));
      expect(want).toHaveLength(expected.length - 1);
      expect(await warehouseDaily(warehouse, pipeline, 'demo'), pipeline).toEqual(want);
    }
    expect(await statusQuarantine(warehouse, 'demo')).toEqual(Object.fromEntries(daily.map((p) => [p, 1])));
  });
});

/** The broken day's expected rows in the order the endpoint serves them (the proxy picks by position). */
function servedOrder(sb: Sandbox, pipeline: PipelineName, day: number, rows: Row[]): Row[] {
  const [from, to] = [day, day + DAY_MS];
  const paths = pipeline === 'page_views' ? sb.aggregateTruth('demo', 'views', from, to).views.map((v) => v.path)
    : pipeline === 'page_visitors' ? sb.aggregateTruth('demo', 'visitors', from, to).visitors.map((v) => v.path)
      : pipeline === 'feedback_by_page' ? sb.aggregateTruth('demo', 'feedback/by-page', from, to).feedback.map((v) => v.path)
        : sb.aggregateTruth('demo', 'searches', from, to).searches.map((s) => s.searchQuery);
  const keyOf = (r: Row) => String(pipeline === 'searches' ? r.search_query : r.path);
  return paths.map((p) => rows.find((r) => keyOf(r) === p)!);
}
