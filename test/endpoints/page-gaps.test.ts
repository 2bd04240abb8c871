// The page_gaps view against numbers computed by hand from the sandbox's truth (sql/views/page-gaps.sql
// defines each column): views and visitors summed over the days read, thumbs and code reports
// counted from the feedback entries themselves (feedbackTruth: contextual entries, helpful or
// not; code_snippet entries), open feedback and comments from every entry, assistant turns and
// unanswered ones by the path of the page the turn was asked on (truth()).
// A loopback proxy in front of the sandbox names some pages with a trailing slash, and some page
// URLs with a query and a fragment (the sandbox never does): the view must count '/a/' as '/a'.
// In-process sync of every pipeline with one injected clock for the sandbox and the sync.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { DAY_MS, SMALL_SITE, completeDays, query, rewritingProxy, utcMidnight, type Proxy, type Row } from './exports-helpers.js';

const KEY = 'mint_exports_page_gaps_key';
const P = 'alpha';
const NOW = Date.parse('2026-07-09T14:00:00Z');
const FROM = utcMidnight(NOW) - 8 * DAY_MS;
const DAYS = completeDays(FROM, NOW);

/** A small stable hash of a string, to rewrite the same records the same way on every read. */
const h = (s: string) => [...s].reduce((a, c) => (a * 31 + c.codePointAt(0)!) >>> 0, 7);
const slashed = (path: string) => (path === '/' ? path : `${path}/`);

const clock = new FakeClock(NOW, { sleepAdvances: false });
let sb: Sandbox;
let proxy: Proxy;
let tmp: ReturnType<typeof tempDir>;
let gaps: Map<string, Row>;
let warehouse: string;

beforeAll(async () => {
  tmp = tempDir('docs-etl-exports-gaps-');
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: [P], conversations: 1500, historyDays: 7, seed: 1351, site: { ...SMALL_SITE, feedbackPerDay: 60 }, clock,
  }));
  proxy = await rewritingProxy(sb.url, (endpoint, params, body) => {
    const odd = Math.floor(Date.parse(params.get('dateFrom') ?? '1970-01-01') / DAY_MS) % 2 === 1;
    if (endpoint === '/assistant') {
      for (const t of body.conversations as Record<string, unknown>[]) {
        if (typeof t.pageUrl !== 'string') continue;
        const k = h(String(t.id)) % 3;
        if (k === 0) t.pageUrl = `${t.pageUrl}/`;
        if (k === 1) t.pageUrl = `${t.pageUrl}?ref=nav#top`;
      }
    } else if (endpoint === '/feedback') {
      for (const f of body.feedback as Record<string, unknown>[]) if (typeof f.path === 'string' && h(String(f.id)) % 2) f.path = slashed(f.path);
    } else if (odd && (endpoint === '/views' || endpoint === '/feedback/by-page')) {
      const list = body[endpoint === '/views' ? 'views' : 'feedback'] as Record<string, unknown>[];
      for (const r of list) r.path = slashed(String(r.path));
    }
  });
  warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse, [{
    projectId: P, apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: proxy.url, organization: keyFingerprint(KEY), backfillFrom: new Date(FROM),
  }], { rate: { limit: 100_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, pipelines: null });
  // Twice: the second run sweeps the feedback entries without createdAt (they count as open feedback and comments).
  for (let i = 0; i < 2; i++) expect((await runSync({ clock, logger: silentLogger }, cfg, PIPELINES)).exitCode).toBe(0);
  gaps = new Map((await query(warehouse, 'SELECT * FROM page_gaps WHERE project_id = $p', { p: P })).map((r) => [String(r.path), r]));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await sb?.close();
  tmp?.cleanup();
});

/** Every page_gaps column this test computes, for one page, from the truth alone. */
function byHand(path: string): Row {
  const sum = (items: { path: string; human: number; ai: number; total: number }[][], k: 'human' | 'ai' | 'total') =>
    items.flat().filter((v) => v.path === path).reduce((n, v) => n + v[k], 0);
  const views = DAYS.map((d) => sb.aggregateTruth(P, 'views', d, d + DAY_MS).views);
  const visitors = DAYS.map((d) => sb.aggregateTruth(P, 'visitors', d, d + DAY_MS).visitors);
  // by-page counts the entries created in the days read: contextual (helpful or not) and code_snippet.
  const dated = sb.feedbackTruth(P, { fromMs: DAYS[0]!, toMs: DAYS.at(-1)! + DAY_MS }).filter((f) => f.path === path);
  const all = sb.feedbackTruth(P).filter((f) => f.path === path);
  const turns = sb.truth(P).filter((t) => t.pageUrl !== null && new URL(t.pageUrl).pathname === path);
  const unanswered = turns.filter((t) => t.resolutionStatus === 'unanswered').length;
  return {
    views_human: sum(views, 'human'), views_ai: sum(views, 'ai'), views_total: sum(views, 'total'),
    visitors_human: sum(visitors, 'human'), visitors_ai: sum(visitors, 'ai'), visitors_total: sum(visitors, 'total'),
    thumbs_up: dated.filter((f) => f.source === 'contextual' && f.helpful).length,
    thumbs_down: dated.filter((f) => f.source === 'contextual' && !f.helpful).length,
    code_reports: dated.filter((f) => f.source === 'code_snippet').length,
    open_feedback: all.filter((f) => f.status === 'pending' || f.status === 'in_progress').length,
    feedback_comments: all.filter((f) => f.comment !== null && f.comment !== '').length,
    assistant_turns: turns.length,
    unanswered_turns: unanswered,
    unanswered_rate: turns.length ? unanswered / turns.length : null,
  };
}

function fromView(path: string): Row {
  const r = gaps.get(path);
  if (!r) throw new Error(`page_gaps has no row for ${path}`);
  const cols = ['views_human', 'views_ai', 'views_total', 'visitors_human', 'visitors_ai', 'visitors_total', 'thumbs_up', 'thumbs_down',
    'code_reports', 'open_feedback', 'feedback_comments', 'assistant_turns', 'unanswered_turns', 'unanswered_rate'];
  return Object.fromEntries(cols.map((c) => [c, r[c] === null ? null : Number(r[c])]));
}

describe('page_gaps equals numbers computed by hand from the truth', () => {
  it('a handful of pages: the most viewed, the most asked about, the most thumbed down, one with a non-ASCII path', () => {
    const views = DAYS.flatMap((d) => sb.aggregateTruth(P, 'views', d, d + DAY_MS).views);
    const turnPaths = sb.truth(P).flatMap((t) => (t.pageUrl === null ? [] : [new URL(t.pageUrl).pathname]));
    const most = (xs: string[]) => [...xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>())].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    const down = sb.feedbackTruth(P).filter((f) => f.source === 'contextual' && !f.helpful && f.createdAt !== null).map((f) => f.path);
    const pages = [...new Set([
      most(views.flatMap((v) => Array<string>(v.total).fill(v.path))), most(turnPaths), most(down), '/quickstart',
      views.map((v) => v.path).find((p) => /[^\x20-\x7e]/.test(p))!,
    ])];
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (const path of pages) {
      const want = byHand(path);
      const got = fromView(path);
      // unanswered_rate is rounded to 4 decimals: within half a unit of the 4th of the exact ratio.
      const { unanswered_rate: wantRate, ...wantRest } = want;
      const { unanswered_rate: gotRate, ...gotRest } = got;
      expect(gotRest, path).toEqual(wantRest);
      if (wantRate === null) expect(gotRate, path).toBeNull();
      else {
        expect(Math.abs(Number(gotRate) - Number(wantRate)), path).toBeLessThanOrEqual(0.00005 + 1e-12);
        expect(Number(gotRate) * 1e4, path).toBeCloseTo(Math.round(Number(gotRate) * 1e4), 6);
      }
    }
    // The pages chosen carry numbers worth comparing.
    const picked = pages.map(byHand);
    expect(picked.some((r) => Number(r.assistant_turns) > 10 && Number(r.unanswered_turns) > 0)).toBe(true);
    expect(picked.some((r) => Number(r.thumbs_down) > 0)).toBe(true);
    expect(picked.some((r) => Number(r.thumbs_up) > 0)).toBe(true);
    expect(picked.every((r) => Number(r.views_total) > 0 && Number(r.visitors_total) > 0)).toBe(true);
  });

  it("the proxy's trailing slashes and URL queries are folded into the page: no path ends with a slash", async () => {
    expect([...gaps.keys()].filter((p) => p !== '/' && p.endsWith('/'))).toEqual([]);
    // Every page of the site with views is one row, and the sums over all rows match the truth's.
    const views = DAYS.flatMap((d) => sb.aggregateTruth(P, 'views', d, d + DAY_MS).views);
    expect([...gaps.values()].reduce((n, r) => n + Number(r.views_total), 0)).toBe(views.reduce((n, v) => n + v.total, 0));
    const turns = sb.truth(P).filter((t) => t.pageUrl !== null);
    expect([...gaps.values()].reduce((n, r) => n + Number(r.assistant_turns), 0)).toBe(turns.length);
    // The rewriting really happened: the tables hold slashed paths and URLs with a query.
    const [stored] = await query(warehouse, `SELECT
      (SELECT count(*) FROM conversations WHERE page_url LIKE '%/') AS slashed_urls,
      (SELECT count(*) FROM conversations WHERE page_url LIKE '%?ref=nav#top') AS queried_urls,
      (SELECT count(*) FROM page_views_daily WHERE path LIKE '%_/') AS slashed_views,
      (SELECT count(*) FROM feedback_by_page_daily WHERE path LIKE '%_/') AS slashed_thumbs,
      (SELECT count(*) FROM feedback WHERE path LIKE '%_/') AS slashed_feedback`);
    for (const [k, n] of Object.entries(stored!)) expect(Number(n), k).toBeGreaterThan(10);
  });
});
