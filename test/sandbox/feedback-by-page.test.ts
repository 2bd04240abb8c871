// GET /v1/analytics/{projectId}/feedback/by-page over HTTP: counts per page equal to the entries
// of GET …/feedback, order, limit and hasMore, and the days a client must split (by source, then
// by status) or mark truncated, found by the site's calendar (dayKind) in the sandbox's history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayKind, FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackByPageItem, type Sandbox } from '../../src/tools/sandbox/index.js';
import { analyticsPath, call, FakeClock, get200, readFeedback, sandboxWith, START } from './helpers.js';

const DAY = 86_400_000;
const TODAY = Math.floor(START / DAY) * DAY;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandboxWith({ clock: new FakeClock(), conversations: 10 });
});
afterAll(() => sb.close());

const byPage = (day: number, params: Record<string, string | number> = {}) =>
  get200(sb, analyticsPath('demo', 'feedback/by-page', { dateFrom: ymd(day), dateTo: ymd(day + DAY), limit: 100, ...params }));

/** Sums per path of several pieces (a split request), in served order. */
function merge(pieces: FeedbackByPageItem[][]): FeedbackByPageItem[] {
  const m = new Map<string, FeedbackByPageItem>();
  for (const item of pieces.flat()) {
    const have = m.get(item.path) ?? { path: item.path, thumbsUp: 0, thumbsDown: 0, code: 0, total: 0 };
    m.set(item.path, { path: item.path, thumbsUp: have.thumbsUp + item.thumbsUp, thumbsDown: have.thumbsDown + item.thumbsDown, code: have.code + item.code, total: have.total + item.total });
  }
  return [...m.values()].sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : 1));
}

/** The days of the last 28 complete days by kind (weekday or weekend). */
function daysOf(kind: 'ordinary' | 'release' | 'follow-up', weekend = false): number[] {
  const out: number[] = [];
  for (let d = TODAY - 28 * DAY; d < TODAY; d += DAY) {
    const w = new Date(d).getUTCDay();
    if (dayKind(42, 'demo', d / DAY) === kind && (w === 0 || w === 6) === weekend) out.push(d);
  }
  return out;
}

describe('GET …/feedback/by-page', () => {
  it('counts per page the entries GET …/feedback serves: thumbs of contextual entries, code snippets, all', async () => {
    const day = TODAY - 5 * DAY;
    const { records } = await readFeedback(sb, { dateFrom: ymd(day), dateTo: ymd(day + DAY) });
    const expected = merge([records.map((r) => ({
      path: r.path as string, thumbsUp: r.source === 'contextual' && r.helpful ? 1 : 0, thumbsDown: r.source === 'contextual' && !r.helpful ? 1 : 0,
      code: r.source === 'code_snippet' ? 1 : 0, total: 1,
    }))]);
    expect(sb.aggregateTruth('demo', 'feedback/by-page', day, day + DAY).feedback).toEqual(expected);
    const served = await byPage(day);
    expect(served.feedback).toEqual(expected.slice(0, 100));
    expect(served.hasMore).toBe(expected.length > 100);
    const top = await byPage(day, { limit: 3 });
    expect(top).toEqual({ feedback: expected.slice(0, 3), hasMore: true });
    // default limit 10; no cursor, no offset (other parameters are ignored)
    const dflt = await get200(sb, analyticsPath('demo', 'feedback/by-page', { dateFrom: ymd(day), dateTo: ymd(day + DAY), offset: 10, cursor: 'x' }));
    expect(dflt).toEqual({ feedback: expected.slice(0, 10), hasMore: true });
  });

  it('filters by source and comma-separated status, like GET …/feedback', async () => {
    const day = TODAY - 2 * DAY;
    const truth = sb.feedbackTruth('demo', { fromMs: day, toMs: day + DAY }).filter((r) => r.source === 'code_snippet' && r.status !== 'pending');
    const served = await byPage(day, { source: 'code_snippet', status: 'in_progress,resolved,dismissed' });
    expect(served.hasMore).toBe(false);
    expect(served.feedback.reduce((n: number, i: FeedbackByPageItem) => n + i.total, 0)).toBe(truth.length);
    expect(served.feedback.every((i: FeedbackByPageItem) => i.code === i.total && i.thumbsUp + i.thumbsDown === 0)).toBe(true);
    const bad = await call(sb, analyticsPath('demo', 'feedback/by-page', { limit: 0, source: 'page', status: 'done' }));
    expect(bad.status).toBe(400);
    expect(bad.json.details).toHaveLength(3);
  });

  it('weekends fit in one request; ordinary weekdays need a split by source, which is complete', async () => {
    for (const day of daysOf('ordinary', true)) expect((await byPage(day)).hasMore, ymd(day)).toBe(false);
    const weekdays = daysOf('ordinary');
    expect(weekdays.length).toBeGreaterThan(12);
    for (const day of weekdays.slice(-3)) {
      expect((await byPage(day)).hasMore, ymd(day)).toBe(true);
      const pieces = await Promise.all(FEEDBACK_SOURCES.map((source) => byPage(day, { source })));
      expect(pieces.map((p) => p.hasMore)).toEqual([false, false, false, false]);
      expect(merge(pieces.map((p) => p.feedback))).toEqual(sb.aggregateTruth('demo', 'feedback/by-page', day, day + DAY).feedback);
    }
  });

  it('a follow-up day needs a split by source and status; a release day stays over 100 even so (truncated)', async () => {
    const [followUp] = daysOf('follow-up').slice(-1);
    const [release] = daysOf('release').slice(-1);
    expect(followUp! - release!).toBe(DAY);
    const splitBySource = async (day: number) => Promise.all(FEEDBACK_SOURCES.map((source) => byPage(day, { source })));

    const bySource = await splitBySource(followUp!);
    expect(bySource.some((p) => p.hasMore)).toBe(true);
    const fine: FeedbackByPageItem[][] = [];
    for (const [k, source] of FEEDBACK_SOURCES.entries()) {
      if (!bySource[k]!.hasMore) {
        fine.push(bySource[k]!.feedback);
        continue;
      }
      for (const status of FEEDBACK_STATUSES) {
        const piece = await byPage(followUp!, { source, status });
        expect(piece.hasMore, `${source} ${status}`).toBe(false);
        fine.push(piece.feedback);
      }
    }
    expect(merge(fine)).toEqual(sb.aggregateTruth('demo', 'feedback/by-page', followUp!, followUp! + DAY).feedback);

    let truncated = 0;
    for (const source of FEEDBACK_SOURCES) {
      for (const status of FEEDBACK_STATUSES) if ((await byPage(release!, { source, status })).hasMore) truncated++;
    }
    expect(truncated).toBeGreaterThan(0);
    const full = sb.aggregateTruth('demo', 'feedback/by-page', release!, release! + DAY, { source: 'thumbs_only', status: ['pending'] }).feedback;
    expect(full.length).toBeGreaterThan(100);
  });
});
