// GET /v1/analytics/{projectId}/feedback over HTTP: cursor pages that cover every entry once, the
// three variants, the filters (source, status, dates with dateTo exclusive), the null-createdAt
// rule, entries arriving late and statuses changing as the clock advances, malformed entries,
// determinism and cursor errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { openApiProblems } from '../helpers/openapi.js';
import { analyticsPath, call, FakeClock, get200, readFeedback, sandboxWith, START } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const ids = (records: Record<string, unknown>[]) => records.map((r) => r.id as string);

let sb: Sandbox;
const clock = new FakeClock();
beforeAll(async () => {
  sb = await sandboxWith({ clock, conversations: 50, historyDays: 10, cursorTtlMs: 60_000 });
});
afterAll(() => sb.close());

describe('GET …/feedback', () => {
  it('pages cover every visible entry exactly once, newest first, null createdAt last, equal to feedbackTruth', async () => {
    const { records, pages } = await readFeedback(sb);
    expect(pages).toBeGreaterThan(20);
    expect(new Set(ids(records)).size).toBe(records.length);
    expect(records).toEqual(sb.feedbackTruth('demo'));
    const dated = records.filter((r) => r.createdAt !== null).map((r) => Date.parse(r.createdAt as string));
    const firstNull = records.findIndex((r) => r.createdAt === null);
    expect(firstNull).toBeGreaterThan(0);
    expect(records.slice(firstNull).every((r) => r.createdAt === null)).toBe(true);
    for (let i = 1; i < dated.length; i++) expect(dated[i]!).toBeLessThanOrEqual(dated[i - 1]!);
    // default limit 50; the last page has no cursor
    const first = await get200(sb, analyticsPath('demo', 'feedback'));
    expect(first.feedback).toHaveLength(50);
    expect(first.feedback).toEqual(records.slice(0, 50));
  });

  it('serves the three variants with their nullable fields, on docs pages', () => {
    const all = sb.feedbackTruth('demo');
    const bySource = (s: string) => all.filter((r) => r.source === s);
    for (const r of bySource('contextual')) expect(Object.keys(r).sort()).toEqual(['comment', 'contact', 'createdAt', 'helpful', 'id', 'path', 'source', 'status']);
    for (const r of bySource('code_snippet')) expect(Object.keys(r).sort()).toEqual(['code', 'comment', 'createdAt', 'filename', 'id', 'lang', 'path', 'source', 'status']);
    for (const s of ['agent', 'thumbs_only']) {
      expect(bySource(s).length).toBeGreaterThan(50);
      for (const r of bySource(s)) expect(Object.keys(r).sort()).toEqual(['comment', 'createdAt', 'id', 'path', 'source', 'status']);
    }
    const share = (f: (r: (typeof all)[number]) => boolean) => all.filter(f).length / all.length;
    expect(share((r) => r.comment === null)).toBeGreaterThan(0.2);
    expect(share((r) => r.createdAt === null)).toBeGreaterThan(0.005);
    expect(share((r) => r.source === 'contextual' && r.contact !== null)).toBeGreaterThan(0.01);
    expect(share((r) => r.source === 'code_snippet' && r.filename === null)).toBeGreaterThan(0.01);
    expect(new Set(all.map((r) => r.status))).toEqual(new Set(['pending', 'in_progress', 'resolved', 'dismissed']));
    expect(all.every((r) => /^\/\S/.test(r.path) && /^[0-9a-f]{24}$/.test(r.id))).toBe(true);
    expect(new Set(all.map((r) => r.path)).size).toBeGreaterThan(300);
  });

  it('filters by source, status (comma-separated) and dates; dateTo is exclusive; a null createdAt matches no bounded range', async () => {
    const all = sb.feedbackTruth('demo');
    const code = await readFeedback(sb, { source: 'code_snippet' });
    expect(code.records).toEqual(all.filter((r) => r.source === 'code_snippet'));
    const closed = await readFeedback(sb, { status: 'resolved,dismissed' });
    expect(closed.records).toEqual(all.filter((r) => r.status === 'resolved' || r.status === 'dismissed'));

    const from = Math.floor(START / DAY) * DAY - 3 * DAY;
    const day = await readFeedback(sb, { dateFrom: iso(from).slice(0, 10), dateTo: iso(from + DAY).slice(0, 10), source: 'contextual', status: 'pending' });
    const inDay = (r: (typeof all)[number]) => r.createdAt !== null && Date.parse(r.createdAt) >= from && Date.parse(r.createdAt) < from + DAY;
    expect(day.records).toEqual(all.filter((r) => inDay(r) && r.source === 'contextual' && r.status === 'pending'));
    expect(sb.feedbackTruth('demo', { fromMs: from, toMs: from + DAY })).toEqual(all.filter(inDay));

    // An entry exactly at dateTo is left out, exactly at dateFrom is in.
    const t = all.find((r) => r.createdAt !== null)!.createdAt!;
    const upTo = await get200(sb, analyticsPath('demo', 'feedback', { dateTo: t, limit: 1 }));
    expect(upTo.feedback[0].createdAt < t).toBe(true);
    const since = await get200(sb, analyticsPath('demo', 'feedback', { dateFrom: t, limit: 100 }));
    expect(since.feedback.at(-1).createdAt).toBe(t);

    // Null createdAt: served without bounds only.
    const wide = await readFeedback(sb, { dateFrom: '2000-01-01' });
    expect(wide.records.some((r) => r.createdAt === null)).toBe(false);
    expect(wide.records).toHaveLength(all.filter((r) => r.createdAt !== null).length);
  });

  it('400s: one detail per problem; unknown, foreign or expired cursors', async () => {
    const bad = await call(sb, analyticsPath('demo', 'feedback', { limit: 101, source: 'email', status: 'pending,open', dateFrom: '2026-02-30' }));
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('Invalid query parameters');
    expect(bad.json.details).toHaveLength(4);
    for (const cursor of ['nope', Buffer.from('["searches",1,"x"]').toString('base64url'), Buffer.from('["feedback",0,1]').toString('base64url')]) {
      expect((await call(sb, analyticsPath('demo', 'feedback', { cursor }))).status).toBe(400);
    }
    const first = await get200(sb, analyticsPath('demo', 'feedback', { limit: 5 }));
    expect((await call(sb, analyticsPath('demo', 'feedback', { limit: 5, cursor: first.nextCursor }))).status).toBe(200);
    expect((await call(sb, analyticsPath('other', 'feedback', { cursor: first.nextCursor }))).status).toBe(404);
    sb.expireCursors();
    expect((await call(sb, analyticsPath('demo', 'feedback', { limit: 5, cursor: first.nextCursor }))).status).toBe(400);
  });
});

describe('feedback over time', () => {
  it('late entries arrive and statuses move on as the clock advances, then stay final', async () => {
    const c = new FakeClock();
    const s = await sandboxWith({ clock: c, conversations: 10, historyDays: 4 });
    try {
      const before = new Map(s.feedbackTruth('demo').map((r) => [r.id, r]));
      c.advance(6 * HOUR);
      const after = s.feedbackTruth('demo');
      const late = after.filter((r) => !before.has(r.id) && r.createdAt !== null && Date.parse(r.createdAt) < START);
      expect(late.length).toBeGreaterThan(0);
      const order = ['pending', 'in_progress', 'resolved', 'dismissed'];
      const moved = after.filter((r) => before.has(r.id) && before.get(r.id)!.status !== r.status);
      expect(moved.length).toBeGreaterThan(20);
      for (const r of moved) {
        const was = before.get(r.id)!;
        expect(order.indexOf(r.status)).toBeGreaterThan(order.indexOf(was.status)); // never back
        expect({ ...r, status: was.status }).toEqual(was); // only the status changes
      }
      // Over HTTP too: the status filter follows the clock.
      const pendingNow = await readFeedback(s, { status: 'pending' });
      expect(pendingNow.records).toEqual(after.filter((r) => r.status === 'pending'));
      // Two days on, entries created before the start have their final status.
      c.advance(2 * DAY);
      const settled = s.feedbackTruth('demo', { toMs: START });
      c.advance(3 * DAY);
      expect(s.feedbackTruth('demo', { toMs: START })).toEqual(settled);
    } finally {
      await s.close();
    }
  });

  it('is deterministic: the same seed and clock give the same pages; another seed other ones', async () => {
    const [a, b, other] = await Promise.all([
      sandboxWith({ clock: new FakeClock(), conversations: 10, historyDays: 3 }),
      sandboxWith({ clock: new FakeClock(), conversations: 10, historyDays: 3 }),
      sandboxWith({ clock: new FakeClock(), conversations: 10, historyDays: 3, seed: 7 }),
    ]);
    try {
      const [ra, rb, ro] = await Promise.all([readFeedback(a), readFeedback(b), readFeedback(other)]);
      expect(ra.records).toEqual(rb.records);
      expect(ids(ro.records)).not.toEqual(ids(ra.records));
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });

  it('malformed entries (malformedRate) are the same on every read, break the schema, and are left out of the truth', async () => {
    const s = await sandboxWith({ clock: new FakeClock(), conversations: 10, historyDays: 10, malformedRate: 0.05 });
    try {
      const { records } = await readFeedback(s);
      const isBad = (r: Record<string, unknown>) =>
        openApiProblems({ method: 'GET', path: '/v1/analytics/demo/feedback', status: 200, body: { feedback: [r], nextCursor: null, hasMore: false } }).length > 0;
      const bad = records.filter(isBad);
      expect(bad.length).toBeGreaterThan(records.length * 0.03);
      expect(bad.length).toBeLessThan(records.length * 0.07);
      expect(bad).toEqual(s.feedbackMalformed('demo'));
      expect(records.filter((r) => !isBad(r))).toEqual(s.feedbackTruth('demo'));
      expect((await readFeedback(s)).records).toEqual(records);
    } finally {
      await s.close();
    }
  });
});
