// The aggregated endpoints over HTTP: GET …/searches (cursor until null), …/views and …/visitors
// (offset pages), …/assistant/caller-stats. Paging covers every item once and equals
// aggregateTruth; dateTo is exclusive and ranges add up (events) or deduplicate (visitors); days
// keep growing for SETTLE_MS after they end, then are final; the same seed and clock give the
// same answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLE_MS, type PageTrafficItem, type Sandbox, type SearchItem } from '../../src/tools/sandbox/index.js';
import { analyticsPath, call, FakeClock, get200, instantOf, sandboxWith, START } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TODAY = Math.floor(START / DAY) * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const range = (from: number, to: number) => ({ dateFrom: iso(from), dateTo: iso(to) });

let sb: Sandbox;
const clock = new FakeClock();
beforeAll(async () => {
  sb = await sandboxWith({ clock, conversations: 3000, historyDays: 10 });
});
afterAll(() => sb.close());

/** Follows nextCursor until null; every term served, the pages' totalSearches. */
async function readSearches(s: Sandbox, params: Record<string, string | number>) {
  const items: SearchItem[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const body = await get200(s, analyticsPath('demo', 'searches', { limit: 100, ...params, ...(cursor ? { cursor } : {}) }));
    expect(body).not.toHaveProperty('hasMore');
    items.push(...body.searches);
    totals.add(body.totalSearches);
    cursor = body.nextCursor;
    pages++;
  } while (cursor);
  return { items, totals, pages };
}

/** Increments offset by limit while hasMore; every item served and the totals of each page. */
async function readOffset(s: Sandbox, kind: 'views' | 'visitors', params: Record<string, string | number>) {
  const items: PageTrafficItem[] = [];
  const totals: unknown[] = [];
  for (let offset = 0; ; offset += 250) {
    const body = await get200(s, analyticsPath('demo', kind, { ...params, limit: 250, offset }));
    items.push(...body[kind]);
    totals.push(body.totals);
    if (!body.hasMore) return { items, totals };
  }
}

describe('GET …/searches', () => {
  it('cursor pages until null cover every term once, by hits desc, equal to aggregateTruth', async () => {
    const [from, to] = [TODAY - 3 * DAY, TODAY - 2 * DAY];
    const { items, totals, pages } = await readSearches(sb, range(from, to));
    const truth = sb.aggregateTruth('demo', 'searches', from, to);
    expect(pages).toBeGreaterThan(4);
    expect(items).toEqual(truth.searches);
    expect(new Set(items.map((i) => i.searchQuery)).size).toBe(items.length);
    expect([...totals]).toEqual([truth.totalSearches]);
    expect(truth.totalSearches).toBe(items.reduce((n, i) => n + i.hits, 0)); // hits, not distinct terms
    for (let i = 1; i < items.length; i++) expect(items[i]!.hits).toBeLessThanOrEqual(items[i - 1]!.hits);
    for (const i of items) {
      expect(i.ctr).toBeGreaterThanOrEqual(0);
      expect(i.ctr).toBeLessThanOrEqual(1);
      expect(i.topClickedPage === null).toBe(i.ctr === 0);
      expect(instantOf(i.lastSearchedAt)).toBeGreaterThanOrEqual(from);
      expect(instantOf(i.lastSearchedAt)).toBeLessThan(to);
    }
    expect(items.some((i) => /[^\x20-\x7e]/.test(i.searchQuery))).toBe(true);
    const dflt = await get200(sb, analyticsPath('demo', 'searches', range(from, to)));
    expect(dflt.searches).toEqual(items.slice(0, 50));
  });

  it('400 for a bad limit or a cursor it did not issue', async () => {
    const cases: Record<string, string | number>[] = [{ limit: 0 }, { limit: 101 }, { cursor: 'abc' }, { cursor: Buffer.from('["searches",5,"api"]').toString('base64url') }];
    for (const params of cases) {
      const r = await call(sb, analyticsPath('demo', 'searches', params));
      expect(r.status).toBe(400);
      expect(r.json.error).toBe('Invalid query parameters or cursor');
    }
  });
});

describe('GET …/views and …/visitors', () => {
  it('offset pages cover every page once, equal to aggregateTruth; views add up, visitors are deduplicated', async () => {
    const [from, to] = [TODAY - 4 * DAY, TODAY - 3 * DAY];
    for (const kind of ['views', 'visitors'] as const) {
      const { items, totals } = await readOffset(sb, kind, range(from, to));
      const truth = sb.aggregateTruth('demo', kind, from, to);
      expect(items.length).toBeGreaterThan(500);
      expect(new Set(items.map((i) => i.path)).size).toBe(items.length);
      expect(items).toEqual(kind === 'views' ? sb.aggregateTruth('demo', 'views', from, to).views : sb.aggregateTruth('demo', 'visitors', from, to).visitors);
      expect(totals.every((t) => JSON.stringify(t) === JSON.stringify(truth.totals))).toBe(true);
      for (let i = 1; i < items.length; i++) expect(items[i]!.total).toBeLessThanOrEqual(items[i - 1]!.total);
      const sum = (k: 'human' | 'ai') => items.reduce((n, i) => n + i[k], 0);
      if (kind === 'views') {
        expect(items.every((i) => i.total === i.human + i.ai)).toBe(true);
        expect(truth.totals).toEqual({ human: sum('human'), ai: sum('ai'), total: sum('human') + sum('ai') });
      } else {
        expect(items.every((i) => i.total <= i.human + i.ai && i.total >= Math.max(i.human, i.ai))).toBe(true);
        expect(items.filter((i) => i.total < i.human + i.ai).length).toBeGreaterThan(100);
        expect(truth.totals.total).toBeLessThan(truth.totals.human + truth.totals.ai);
        expect(truth.totals.human).toBeLessThan(sum('human')); // a person reads several pages
      }
    }
    const dflt = await get200(sb, analyticsPath('demo', 'views', { ...range(from, to), offset: 50 }));
    expect(dflt.views).toEqual(sb.aggregateTruth('demo', 'views', from, to).views.slice(50, 100));
    const past = await get200(sb, analyticsPath('demo', 'views', { ...range(from, to), offset: 100_000 }));
    expect(past).toMatchObject({ views: [], hasMore: false });
  });

  it('dateTo is exclusive at hour resolution: views and searches of adjacent ranges add up; visitors do not', () => {
    const d = TODAY - 6 * DAY;
    const views = (a: number, b: number) => sb.aggregateTruth('demo', 'views', a, b).totals.total;
    expect(views(d, d + 13 * HOUR) + views(d + 13 * HOUR, d + DAY)).toBe(views(d, d + DAY));
    expect(views(d, d + 30 * 60_000)).toBe(views(d, d + HOUR)); // an hour counts when it starts in the range
    expect(views(d + 30 * 60_000, d + HOUR)).toBe(0);
    const searches = (a: number, b: number) => sb.aggregateTruth('demo', 'searches', a, b).totalSearches;
    expect(searches(d, d + DAY) + searches(d + DAY, d + 2 * DAY)).toBe(searches(d, d + 2 * DAY));
    const visitors = (a: number, b: number) => sb.aggregateTruth('demo', 'visitors', a, b).totals.human;
    expect(visitors(d, d + 2 * DAY)).toBeLessThan(visitors(d, d + DAY) + visitors(d + DAY, d + 2 * DAY));
  });

  it('400 for limit outside 1–250, a fractional limit, a negative offset', async () => {
    const r = await call(sb, analyticsPath('demo', 'visitors', { limit: 251, offset: -1 }));
    expect(r.status).toBe(400);
    expect(r.json.details).toHaveLength(2);
    expect((await call(sb, analyticsPath('demo', 'views', { limit: 2.5 }))).status).toBe(400);
  });
});

describe('GET …/assistant/caller-stats', () => {
  it('counts the assistant turns of the range by caller; takes dateFrom/dateTo only', async () => {
    const turns = sb.truth('demo');
    for (const [from, to] of [[TODAY - 3 * DAY, TODAY - 2 * DAY], [TODAY - 10 * DAY, START]] as const) {
      const body = await get200(sb, analyticsPath('demo', 'assistant/caller-stats', { ...range(from, to), limit: 5 }));
      expect(body.total).toBe(turns.filter((t) => instantOf(t.timestamp) >= from && instantOf(t.timestamp) < to).length);
      expect(body.web + body.api + body.other).toBe(body.total);
      expect(body.web).toBeGreaterThan(body.api);
      expect(body).toEqual(sb.aggregateTruth('demo', 'assistant/caller-stats', from, to));
    }
    const whole = await get200(sb, analyticsPath('demo', 'assistant/caller-stats'));
    expect(whole.total).toBe(turns.length);
    expect((await call(sb, analyticsPath('demo', 'assistant/caller-stats', { dateFrom: 'soon' }))).status).toBe(400);
  });
});

describe('aggregates over time', () => {
  it('a day keeps growing for SETTLE_MS after it ends, then is final; the current day grows as it goes', async () => {
    const c = new FakeClock(TODAY + DAY + HOUR); // one hour after the sandbox's start day ended
    const s = await sandboxWith({ clock: c, conversations: 10, historyDays: 2 });
    try {
      const snapshot = () => ({
        views: s.aggregateTruth('demo', 'views', TODAY, TODAY + DAY).totals.total,
        visitors: s.aggregateTruth('demo', 'visitors', TODAY, TODAY + DAY).totals.total,
        searches: s.aggregateTruth('demo', 'searches', TODAY, TODAY + DAY).totalSearches,
        today: s.aggregateTruth('demo', 'views', TODAY + DAY, TODAY + 2 * DAY).totals.total,
      });
      const early = snapshot();
      c.advance(2 * HOUR);
      const later = snapshot();
      for (const k of ['views', 'visitors', 'searches', 'today'] as const) expect(later[k], k).toBeGreaterThan(early[k]);
      c.ms = TODAY + DAY + SETTLE_MS;
      const settled = snapshot();
      c.advance(3 * DAY);
      const final = snapshot();
      expect(final.views).toBe(settled.views);
      expect(final.visitors).toBe(settled.visitors);
      expect(final.searches).toBe(settled.searches);
      expect(settled.views).toBeGreaterThan(later.views);
      // over HTTP: the same numbers
      const served = await get200(s, analyticsPath('demo', 'views', { dateFrom: iso(TODAY).slice(0, 10), dateTo: iso(TODAY + DAY).slice(0, 10) }));
      expect(served.totals.total).toBe(final.views);
    } finally {
      await s.close();
    }
  });

  it('is deterministic: the same seed and clock give the same answers, another seed others', async () => {
    const [a, b, other] = await Promise.all([1, 1, 2].map((seed) => sandboxWith({ clock: new FakeClock(), conversations: 200, historyDays: 3, seed })));
    try {
      for (const e of ['feedback/by-page', 'searches', 'views', 'visitors', 'assistant/caller-stats']) {
        const path = analyticsPath('demo', e, { dateFrom: iso(TODAY - 2 * DAY), dateTo: iso(TODAY) });
        const [ra, rb, ro] = await Promise.all([get200(a!, path), get200(b!, path), get200(other!, path)]);
        expect(ra, e).toEqual(rb);
        expect(ra, e).not.toEqual(ro);
      }
    } finally {
      await Promise.all([a, b, other].map((s) => s!.close()));
    }
  });
});
