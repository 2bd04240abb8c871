// The planner as a table: what a run reads, for a given coverage, density, schedule and clock.
import { describe, expect, it } from 'vitest';
import type { CoverageInterval } from '../../src/core/intervals.js';
import { planOrg } from '../../src/sync/plan/org-plan.js';
import { FIRST_HEAD_MS, planStream, type PlanConfig, type StreamInput } from '../../src/sync/plan/planner.js';
import { DEFAULT_REREADS, dueReread, parseRereads } from '../../src/sync/plan/reread-schedule.js';
import { DEFAULT_HISTORY_DAYS } from '../../src/sync/pipeline/definition.js';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.parse('2026-11-10T12:00:00Z');
const cfg = (over: Partial<PlanConfig> = {}): PlanConfig => ({
  now: NOW, from: null, maxWindowMs: 7 * D, headOverlapMs: 10 * 60_000, windowPages: 50, rereads: DEFAULT_REREADS,
  pageSize: 1000, fillPages: 10, historyDays: DEFAULT_HISTORY_DAYS, ...over,
});
const stream = (over: Partial<StreamInput> = {}): StreamInput => ({ coverage: [], open: null, density: null, windowLimitMs: null, ...over });
const cov = (fromH: number, toH: number, readAtH: number, extra: Partial<CoverageInterval> = {}): CoverageInterval => ({
  from: NOW + fromH * H, to: NOW + toH * H, firstReadAt: NOW + readAtH * H, readAt: NOW + readAtH * H, reads: 1, rows: null, settled: false, ...extra,
});
const view = (ws: ReturnType<typeof planStream>) => ws.map((w) => [w.purpose, (w.from.getTime() - NOW) / H, (w.to.getTime() - NOW) / H, w.estRequests]);

describe('re-read schedule', () => {
  it.each([
    ['3h+2h,24h+6h', [{ afterMs: 3 * H, withinMs: 2 * H }, { afterMs: 24 * H, withinMs: 6 * H }]],
    ['none', []],
    ['90m', [{ afterMs: 90 * 60_000, withinMs: 0 }]],
  ])('parses %s', (text, want) => expect(parseRereads(text)).toEqual(want));

  it.each(['24h,3h', '3h+x', ''])('refuses %j', (text) => expect(() => parseRereads(text)).toThrow());

  it.each([
    // [interval end, last read, now] → purpose due (or null)
    [0, 0, 2, null],
    [0, 0, 3, 'recheck'],
    [0, 3, 23, null],
    [0, 3, 24, 'settle'],
    [0, 0, 30, 'settle'], // both ages passed: one read serves as the settle read
    [0, 25, 40, null], // settled
  ])('an interval ending at %dh, read at %dh, at %dh: %s', (to, readAt, now, want) => {
    expect(dueReread(DEFAULT_REREADS, to * H, readAt * H, now * H)?.purpose ?? null).toBe(want);
  });
});

describe('planStream (event time)', () => {
  it('a first run without density: an hour of head, then weekly backfill newest first', () => {
    const ws = planStream(stream(), cfg({ from: NOW - 15 * D }));
    expect(view(ws).slice(0, 4)).toEqual([['head', -1, 0, 1], ['backfill', -1 - 168, -1, 1], ['backfill', -1 - 336, -1 - 168, 1], ['backfill', -360, -337, 1]]);
    expect(ws[0]!.to.getTime() - ws[0]!.from.getTime()).toBe(FIRST_HEAD_MS);
  });

  it('a steady head starts the overlap before the end of coverage', () => {
    const ws = planStream(stream({ coverage: [cov(-48, -1, -1, { settled: false })], density: 1000 / H }), cfg({ from: NOW - 48 * H }));
    expect(view(ws)[0]).toEqual(['head', -1 - 1 / 6, 0, 2]);
  });

  it('windows are sized to windowPages at the learned density, and to a bisection\'s limit', () => {
    const dense = planStream(stream({ density: 10_000 / H }), cfg({ from: NOW - 20 * H }));
    expect(dense.every((w) => w.to.getTime() - w.from.getTime() <= 5 * H)).toBe(true);
    const bisected = planStream(stream({ density: 10 / H, windowLimitMs: 2 * H }), cfg({ from: NOW - 10 * H }));
    expect(bisected.every((w) => w.to.getTime() - w.from.getTime() <= 2 * H)).toBe(true);
  });

  it('a due re-read waits (within its slack) until it fills pages; at its deadline it is read anyway', () => {
    // [-31, -30) is past its settle deadline (24h + 6h); [-4, -3.5) is due a recheck (3h) but
    // worth less than 10 pages and before its deadline (3h + 2h).
    const coverage = [cov(-31, -30, -30), cov(-30, -4, -4), cov(-4, -3.5, -3.5), cov(-3.5, 0, 0)];
    const sparse = planStream(stream({ coverage, density: 100 / H }), cfg({ from: NOW - 31 * H }));
    expect(view(sparse).map((w) => w[0])).toEqual(['head', 'settle']);
    expect(view(sparse)[1]!.slice(1, 3)).toEqual([-31, -30]);
    // The same recheck worth many pages is read at once.
    const dense = planStream(stream({ coverage, density: 30_000 / H }), cfg({ from: NOW - 31 * H }));
    expect(view(dense).map((w) => w[0])).toContain('recheck');
  });

  it('the open window is resumed first and no other window repeats it', () => {
    const open = { from: new Date(NOW - 3 * H), to: new Date(NOW - 2 * H), purpose: 'backfill' as const, id: 'w1', pages: 2, cursor: 'C', offset: null };
    const ws = planStream(stream({ open, coverage: [cov(-2, -1, -1)] }), cfg({ from: NOW - 3 * H }));
    expect(ws[0]).toMatchObject({ purpose: 'backfill', resume: { id: 'w1', cursor: 'C', pages: 2 } });
    expect(ws.slice(1).some((w) => w.from.getTime() < NOW - 2 * H)).toBe(false);
  });

  it('all history: once the oldest read came back empty, the rest is one window of one request', () => {
    const coverage = [cov(-400, -200, -1, { rows: 0, settled: true }), cov(-200, 0, 0, { rows: 500 })];
    const ws = planStream(stream({ coverage, density: 1 / H }), cfg());
    expect(view(ws).at(-1)).toEqual(['backfill', -NOW / H, -400, 1]);
  });

  it('after a lag, the span between the end of coverage and the head is catch-up (newest first); older than a day is backfill', () => {
    // Coverage ends 40 h ago; at 10,000 rows/h a 50-page window is 5 h long.
    const ws = planStream(stream({ coverage: [cov(-72, -40, -40, { settled: true })], density: 10_000 / H }), cfg({ from: NOW - 72 * H }));
    const v = view(ws);
    expect(v[0]!.slice(0, 3)).toEqual(['head', -5, 0]);
    const catchup = v.filter((x) => x[0] === 'catchup');
    expect(catchup.map((x) => [x[1], x[2]])).toEqual([[-10, -5], [-15, -10], [-20, -15], [-24, -20]]);
    const backfill = v.filter((x) => x[0] === 'backfill');
    expect(backfill[0]!.slice(1, 3)).toEqual([-29, -24]);
    expect(backfill.at(-1)!.slice(1, 3)).toEqual([-40, -39]);
    // A first run has no lag: the rest is backfill.
    expect(planStream(stream({ density: 10_000 / H }), cfg({ from: NOW - 72 * H })).some((x) => x.purpose === 'catchup')).toBe(false);
  });

  it('a settle read is planned as able to wait until its deadline', () => {
    const coverage = [cov(-26, -25, -25), cov(-25, 0, 0)];
    const early = planStream(stream({ coverage, density: 30_000 / H }), cfg({ from: NOW - 26 * H }));
    expect(early.find((x) => x.purpose === 'settle')).toMatchObject({ canWait: true });
    const late = planStream(stream({ coverage, density: 30_000 / H }), cfg({ now: NOW + 6 * H, from: NOW - 26 * H }));
    expect(late.find((x) => x.purpose === 'settle')!.canWait).toBeUndefined();
  });

  it('undated records: a sweep once history has no gap and the last sweep is old, estimated from every row stored', () => {
    // 48 h covered (merged intervals do not know their rows), 100 rows an hour: 4,800 rows, 5 pages.
    const coverage = [cov(-48, -1, -1, { settled: true }), cov(-1, 0, 0)];
    const due = planStream(stream({ coverage, density: 100 / H, sweptAt: NOW - 8 * D }), cfg({ from: NOW - 48 * H, sweepEveryMs: 7 * D }));
    expect(due.find((w) => w.purpose === 'sweep')).toMatchObject({ from: new Date(0), estRequests: 5 });
    expect(planStream(stream({ coverage, density: 100 / H, sweptAt: NOW - D }), cfg({ from: NOW - 48 * H, sweepEveryMs: 7 * D }))
      .some((w) => w.purpose === 'sweep')).toBe(false);
  });

  it('the deprecated lookback re-reads its span before the head on every run', () => {
    const ws = planStream(stream({ coverage: [cov(-48, 0, 0)], density: 100 / H }), cfg({ lookbackMs: 24 * H, from: NOW - 48 * H }));
    expect(view(ws)[0]![1]).toBeCloseTo(-24 - 1 / 6);
  });
});

describe('planStream (day windows)', () => {
  const day = (over: Partial<PlanConfig> = {}) => cfg({ granularity: 'day', timezone: 'UTC', rereads: [{ afterMs: 12 * H, withinMs: 12 * H }], ...over });

  it('reads complete days only: yesterday is the head, older days backfill, newest first', () => {
    const ws = planStream(stream(), day({ from: NOW - 3 * D }));
    expect(ws.map((w) => [w.purpose, w.from.toISOString(), w.to.toISOString()])).toEqual([
      ['head', '2026-11-09T00:00:00.000Z', '2026-11-10T00:00:00.000Z'],
      ['backfill', '2026-11-08T00:00:00.000Z', '2026-11-09T00:00:00.000Z'],
    ]);
  });

  it('follows the project\'s midnights, DST included', () => {
    const ws = planStream(stream(), day({ now: Date.parse('2026-03-30T12:00:00Z'), from: Date.parse('2026-03-27T00:00:00Z'), timezone: 'Europe/Berlin' }));
    // Newest first: Sunday 29 March (23 h: the clocks went forward), then Saturday.
    expect(ws.map((w) => (w.to.getTime() - w.from.getTime()) / H)).toEqual([23, 24]);
    expect(ws[0]!.from.toISOString()).toBe('2026-03-28T23:00:00.000Z');
  });

  it('re-reads a day once its late data has settled, then never again', () => {
    const y = Date.parse('2026-11-09T00:00:00Z');
    const read = (readAt: number, settled = false): CoverageInterval => ({ from: y, to: y + D, firstReadAt: readAt, readAt, reads: 1, rows: 10, settled });
    expect(planStream(stream({ coverage: [read(y + D + H)] }), day({ from: y })).map((w) => w.purpose)).toEqual(['settle']);
    expect(planStream(stream({ coverage: [read(NOW, true)] }), day({ from: y }))).toEqual([]);
  });
});

describe('planOrg', () => {
  const w = (purpose: 'head' | 'catchup' | 'settle' | 'recheck' | 'backfill', est = 1, extra = {}) => ({ from: new Date(0), to: new Date(1), purpose, estRequests: est, ...extra });

  it('heads of every project first, then settle, recheck, backfill; pipelines by priority; projects in turn', () => {
    const plan = planOrg([
      { projectId: 'a', pipeline: 'feedback', priority: 1, windows: [w('head'), w('backfill')] },
      { projectId: 'a', pipeline: 'assistant', priority: 0, windows: [w('head'), w('recheck'), w('backfill'), w('backfill')] },
      { projectId: 'b', pipeline: 'assistant', priority: 0, windows: [w('head'), w('settle'), w('backfill')] },
    ], 100);
    expect(plan.selected.map((e) => `${e.projectId}/${e.pipeline}:${e.window.purpose}`)).toEqual([
      'a/assistant:head', 'b/assistant:head', 'a/feedback:head', 'b/assistant:settle', 'a/assistant:recheck',
      'a/assistant:backfill', 'b/assistant:backfill', 'a/assistant:backfill', 'a/feedback:backfill',
    ]);
  });

  it('heads and settle reads are always planned; rechecks and backfill only as far as the budget goes', () => {
    // 99 available: one request kept in reserve for the head, 95 for head and settle, 3 left: the
    // recheck (10) does not fit, and the backfill (3) that would fit waits behind it (issue 19).
    const plan = planOrg([{ projectId: 'a', pipeline: 'p', priority: 0, windows: [w('head', 50), w('settle', 45), w('recheck', 10), w('backfill', 3)] }], 99);
    expect(plan.selected.map((e) => e.window.purpose)).toEqual(['head', 'settle']);
    expect(plan.deferred.map((e) => e.window.purpose)).toEqual(['recheck', 'backfill']);
    // With room for the recheck, the backfill follows it.
    const roomy = planOrg([{ projectId: 'a', pipeline: 'p', priority: 0, windows: [w('head', 50), w('settle', 45), w('recheck', 10), w('backfill', 3)] }], 110);
    expect(roomy.selected.map((e) => e.window.purpose)).toEqual(['head', 'settle', 'recheck', 'backfill']);
  });

  it('a due re-read of one pipeline is never displaced by a smaller backfill of another that fits', () => {
    const settle = { ...w('settle', 30), canWait: true };
    const plan = planOrg([
      { projectId: 'a', pipeline: 'feedback', priority: 1, windows: [w('head', 1), settle] },
      { projectId: 'a', pipeline: 'page_views', priority: 2, windows: [w('head', 1), w('backfill', 1), w('backfill', 1)] },
    ], 12);
    expect(plan.selected.map((e) => `${e.pipeline}:${e.window.purpose}`)).toEqual(['feedback:head', 'page_views:head']);
    expect(plan.deferred.map((e) => `${e.pipeline}:${e.window.purpose}`)).toEqual(['feedback:settle', 'page_views:backfill', 'page_views:backfill']);
  });

  it('backfill stays newest first: a smaller, older window never jumps ahead of one that did not fit', () => {
    const plan = planOrg([{ projectId: 'a', pipeline: 'p', priority: 0, windows: [w('head', 1), w('backfill', 50), w('backfill', 5), w('recheck', 3)] }], 20);
    expect(plan.selected.map((e) => `${e.window.purpose}:${e.window.estRequests}`)).toEqual(['head:1', 'recheck:3']);
    expect(plan.deferred.map((e) => `${e.window.purpose}:${e.window.estRequests}`)).toEqual(['backfill:50', 'backfill:5']);
  });

  it('catch-up goes after every head and before settle reads, and is always planned', () => {
    const plan = planOrg([
      { projectId: 'a', pipeline: 'assistant', priority: 0, windows: [w('head', 40), w('catchup', 40), w('settle', 10)] },
      { projectId: 'a', pipeline: 'feedback', priority: 1, windows: [w('head', 1)] },
    ], 50);
    expect(plan.selected.map((e) => `${e.pipeline}:${e.window.purpose}`)).toEqual(['assistant:head', 'feedback:head', 'assistant:catchup', 'assistant:settle']);
  });

  it('a settle read within its slack waits when the budget is short; at its deadline it does not', () => {
    const windows = [w('head', 80), w('settle', 30, { canWait: true }), w('settle', 5)];
    const plan = planOrg([{ projectId: 'a', pipeline: 'p', priority: 0, windows }], 100);
    expect(plan.selected.map((e) => [e.window.purpose, e.window.estRequests])).toEqual([['head', 80], ['settle', 5]]);
    expect(plan.deferred.map((e) => [e.window.purpose, e.window.estRequests])).toEqual([['settle', 30]]);
  });

  it('an open window is resumed in its purpose\'s place: an open backfill never goes before the heads; it is planned while any budget is left above the reserve (it pauses there)', () => {
    const resume = { id: 'w', cursor: 'C', offset: null, pages: 3 };
    const streams = [
      { projectId: 'a', pipeline: 'p', priority: 0, windows: [w('backfill', 50, { resume }), w('head', 2)] },
      { projectId: 'b', pipeline: 'p', priority: 0, windows: [w('head', 2)] },
    ];
    // 8 available: 2 in reserve, 4 for the heads, 2 left: the open window of 50 runs (and pauses).
    expect(planOrg(streams, 8).selected.map((e) => `${e.projectId}:${e.window.purpose}`)).toEqual(['a:head', 'b:head', 'a:backfill']);
    const none = planOrg(streams, 6);
    expect(none.selected.map((e) => `${e.projectId}:${e.window.purpose}`)).toEqual(['a:head', 'b:head']);
    expect(none.deferred.map((e) => `${e.projectId}:${e.window.purpose}`)).toEqual(['a:backfill']);
  });

  it('an open head or catch-up window is planned whatever the budget (it cannot wait)', () => {
    const resume = { id: 'w', cursor: 'C', offset: null, pages: 3 };
    const plan = planOrg([{ projectId: 'a', pipeline: 'p', priority: 0, windows: [w('catchup', 50, { resume }), w('head', 2)] }], 3);
    expect(plan.selected.map((e) => e.window.purpose)).toEqual(['head', 'catchup']);
  });
});
