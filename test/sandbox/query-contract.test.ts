// Auth, project, limit, dates and cursors of GET /v1/analytics/{projectId}/assistant over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { analyticsErrorSchema } from '../../src/contracts/analytics.js';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { assistantPath, call, FakeClock, instantOf, sandboxWith, turnKey } from './helpers.js';

let sb: Sandbox;
const clock = new FakeClock();
beforeAll(async () => {
  sb = await sandboxWith({ clock, projects: ['demo', 'other'], cursorTtlMs: 60_000, conversations: 1500 });
});
afterAll(() => sb.close());

describe('auth and routing', () => {
  it('401 with a JSON error for a missing or wrong key', async () => {
    for (const key of [null, 'mint_wrong']) {
      const r = await call(sb, assistantPath('demo'), { key });
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
      expect(analyticsErrorSchema.parse(r.json).error).toBeTruthy();
    }
  });

  it('accepts non-enterprise keys for analytics', async () => {
    const other = await sandboxWith({ nonEnterpriseKeys: ['mint_small_org'], conversations: 10 });
    try {
      expect((await call(other, assistantPath('demo'), { key: 'mint_small_org' })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('404 with a JSON error for an unknown project and an unknown route', async () => {
    const p = await call(sb, assistantPath('nope'));
    expect(p.status).toBe(404);
    expect(p.json.error).toMatch(/project/i);
    const r = await call(sb, '/nothing/here');
    expect(r.status).toBe(404);
    expect(analyticsErrorSchema.parse(r.json).error).toBeTruthy();
  });
});

describe('server errors', () => {
  it('turns an unexpected exception into a 500 JSON error', async () => {
    const broken = new FakeClock();
    const other = await sandboxWith({ clock: broken, conversations: 10 });
    try {
      broken.now = () => {
        throw new Error('clock exploded');
      };
      const r = await call(other, assistantPath('demo'));
      expect(r.status).toBe(500);
      expect(analyticsErrorSchema.parse(r.json).error).toBeTruthy();
    } finally {
      await other.close();
    }
  });
});

describe('limit', () => {
  it('defaults to 100 and accepts 1 and 1000', async () => {
    expect((await call(sb, assistantPath('demo'))).json.conversations).toHaveLength(100);
    expect((await call(sb, assistantPath('demo', { limit: 1 }))).json.conversations).toHaveLength(1);
    expect((await call(sb, assistantPath('demo', { limit: 1000 }))).json.conversations).toHaveLength(1000);
  });

  it.each(['0', '1001', 'abc', '1.5', '-3', ''])('limit=%j → 400 with a detail', async (limit) => {
    const r = await call(sb, assistantPath('demo', { limit }));
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Invalid query parameters');
    expect(r.json.details).toHaveLength(1);
    expect(r.json.details[0].message).toMatch(/limit/);
  });

  it('lists every bad parameter as its own detail and ignores unknown ones', async () => {
    const r = await call(sb, assistantPath('demo', { limit: 0, dateFrom: 'yesterday', dateTo: '2026-02-30', whatever: 'x' }));
    expect(r.status).toBe(400);
    expect(analyticsErrorSchema.parse(r.json).details?.map((d) => d.message)).toEqual([
      expect.stringMatching(/limit/), expect.stringMatching(/dateFrom/), expect.stringMatching(/dateTo/),
    ]);
    expect((await call(sb, assistantPath('demo', { whatever: 'x', limit: 5 }))).status).toBe(200);
  });

  it('400 when dateFrom is not before dateTo', async () => {
    for (const [dateFrom, dateTo] of [['2026-03-10', '2026-03-10'], ['2026-03-11', '2026-03-10']]) {
      const r = await call(sb, assistantPath('demo', { dateFrom: dateFrom!, dateTo: dateTo! }));
      expect(r.status).toBe(400);
      expect(r.json.details[0].message).toMatch(/dateFrom/);
    }
  });
});

describe('date filters', () => {
  it('dateFrom is inclusive and dateTo exclusive at the exact served timestamp', async () => {
    const truth = sb.truth('demo');
    const t = truth.find((x) => !x.timestamp.endsWith('Z'))!; // an offset form, e.g. +02:00
    expect(t).toBeDefined();
    const keys = async (params: Record<string, string>) =>
      new Set(((await call(sb, assistantPath('demo', { limit: 1000, ...params }))).json.conversations as object[]).map(turnKey));
    const ms = instantOf(t.timestamp);
    expect(await keys({ dateFrom: t.timestamp, dateTo: new Date(ms + 1).toISOString() })).toEqual(new Set([turnKey(t)]));
    expect((await keys({ dateFrom: new Date(ms - 1).toISOString(), dateTo: t.timestamp })).has(turnKey(t))).toBe(false);
    expect((await keys({ dateFrom: new Date(ms - 1).toISOString(), dateTo: new Date(ms + 1).toISOString() })).has(turnKey(t))).toBe(true);
  });

  it('YYYY-MM-DD is midnight UTC and an offset form selects the same instants', async () => {
    const expected = sb.truth('demo')
      .filter((x) => new Date(instantOf(x.timestamp)).toISOString().startsWith('2026-03-10'))
      .map(turnKey).sort();
    expect(expected.length).toBeGreaterThan(5);
    const byDay = await call(sb, assistantPath('demo', { limit: 1000, dateFrom: '2026-03-10', dateTo: '2026-03-11' }));
    expect((byDay.json.conversations as object[]).map(turnKey).sort()).toEqual(expected);
    const byOffset = await call(sb, assistantPath('demo', {
      limit: 1000, dateFrom: '2026-03-10T02:00:00+02:00', dateTo: '2026-03-10T19:00:00-05:00',
    }));
    expect((byOffset.json.conversations as object[]).map(turnKey).sort()).toEqual(expected);
  });
});

describe('cursors', () => {
  it('400 for garbage and for a ULID the sandbox never issued', async () => {
    for (const cursor of ['garbage', ulid()]) {
      const r = await call(sb, assistantPath('demo', { cursor }));
      expect(r.status).toBe(400);
      expect(r.json.details[0].message).toMatch(/cursor/);
    }
  });

  it('accepts an issued cursor, and rejects it for another project, after expireCursors() and after the TTL', async () => {
    const first = await call(sb, assistantPath('demo', { limit: 10 }));
    const cursor = first.json.nextCursor as string;
    expect(cursor).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect((await call(sb, assistantPath('demo', { limit: 10, cursor }))).status).toBe(200);
    expect((await call(sb, assistantPath('other', { limit: 10, cursor }))).status).toBe(400);

    clock.advance(61_000); // cursorTtlMs is 60 s
    expect((await call(sb, assistantPath('demo', { limit: 10, cursor }))).status).toBe(400);

    const fresh = (await call(sb, assistantPath('demo', { limit: 10 }))).json.nextCursor as string;
    sb.expireCursors();
    const r = await call(sb, assistantPath('demo', { limit: 10, cursor: fresh }));
    expect(r.status).toBe(400);
    expect(r.json.details[0].message).toMatch(/cursor/);
  });

  it('the last page has nextCursor null and hasMore false', async () => {
    const r = await call(sb, assistantPath('demo', { dateFrom: '2026-03-10', dateTo: '2026-03-11', limit: 1000 }));
    expect(r.json).toMatchObject({ nextCursor: null, hasMore: false });
  });
});
