// The seven endpoints beside GET …/assistant, over real HTTP, against the vendor's published
// OpenAPI file (test/helpers/openapi.ts, ajv): every 200 page read, the 400s of each endpoint, and
// the thread's 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { openApiProblems } from '../helpers/openapi.js';
import { analyticsPath, call, FakeClock, sandboxWith, START } from './helpers.js';

const DAY = 86_400_000;
const day = new Date(Math.floor(START / DAY) * DAY - 2 * DAY).toISOString().slice(0, 10);
const next = new Date(Math.floor(START / DAY) * DAY - DAY).toISOString().slice(0, 10);

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandboxWith({ clock: new FakeClock(), conversations: 300, historyDays: 5 });
});
afterAll(() => sb.close());

async function check(path: string) {
  const r = await call(sb, path);
  return { status: r.status, json: r.json, problems: openApiProblems({ method: 'GET', path, status: r.status, body: r.json }) };
}

/** Reads every page of an endpoint (by `next`), checking each against the OpenAPI file; returns the page count. */
async function everyPage(first: string, nextPath: (body: Record<string, unknown>) => string | null): Promise<number> {
  let pages = 0;
  for (let path: string | null = first; path !== null; pages++) {
    const r = await check(path);
    expect([r.status, r.problems], path).toEqual([200, []]);
    path = nextPath(r.json);
  }
  return pages;
}

describe('the other analytics endpoints against the published OpenAPI file', () => {
  it('GET …/feedback: every page conforms, all three variants and null createdAt included', async () => {
    const pages = await everyPage(analyticsPath('demo', 'feedback', { limit: 100 }), (b) =>
      (b.nextCursor ? analyticsPath('demo', 'feedback', { limit: 100, cursor: b.nextCursor as string }) : null));
    expect(pages).toBeGreaterThan(10);
    const filtered = await check(analyticsPath('demo', 'feedback', { source: 'code_snippet', status: 'pending,resolved', dateFrom: day, dateTo: next }));
    expect([filtered.status, filtered.problems]).toEqual([200, []]);
  });

  it('GET …/feedback/by-page, …/searches (until nextCursor is null), …/views and …/visitors (offset), …/assistant/caller-stats', async () => {
    const byPage: Record<string, string | number>[] = [{}, { dateFrom: day, dateTo: next, limit: 100 }, { source: 'contextual', status: 'pending', dateFrom: day }];
    for (const params of byPage) {
      const r = await check(analyticsPath('demo', 'feedback/by-page', params));
      expect([r.status, r.problems]).toEqual([200, []]);
    }
    const searchPages = await everyPage(analyticsPath('demo', 'searches', { dateFrom: day, dateTo: next, limit: 100 }), (b) =>
      (b.nextCursor ? analyticsPath('demo', 'searches', { dateFrom: day, dateTo: next, limit: 100, cursor: b.nextCursor as string }) : null));
    expect(searchPages).toBeGreaterThan(3);
    for (const kind of ['views', 'visitors']) {
      let offset = 0;
      const pages = await everyPage(analyticsPath('demo', kind, { dateFrom: day, limit: 250 }), (b) =>
        (b.hasMore ? analyticsPath('demo', kind, { dateFrom: day, limit: 250, offset: (offset += 250) }) : null));
      expect(pages).toBeGreaterThan(2);
    }
    for (const params of [{}, { dateFrom: day, dateTo: next }] as Record<string, string>[]) {
      const r = await check(analyticsPath('demo', 'assistant/caller-stats', params));
      expect([r.status, r.problems]).toEqual([200, []]);
    }
  });

  it('GET …/assistant/threads/{threadId}: 200, 400 and 404 conform', async () => {
    const id = String(sb.truth('demo')[0]!.id);
    for (const [thread, status] of [[id, 200], ['not-a-ulid', 400], ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 404]] as const) {
      const r = await check(analyticsPath('demo', `assistant/threads/${thread}`));
      expect([r.status, r.problems], thread).toEqual([status, []]);
    }
  });

  it.each([
    ['feedback', { limit: 0 }], ['feedback', { source: 'email' }], ['feedback', { status: 'open' }], ['feedback', { cursor: 'x' }],
    ['feedback/by-page', { limit: 101 }], ['feedback/by-page', { dateFrom: '2026-02-30' }],
    ['searches', { limit: 1.5 }], ['searches', { cursor: 'x' }],
    ['views', { limit: 251 }], ['views', { offset: -1 }], ['visitors', { dateFrom: next, dateTo: day }],
    ['assistant/caller-stats', { dateTo: 'tomorrow' }],
  ] as const)('GET …/%s %j: the 400 body conforms, one detail per problem', async (endpoint, params) => {
    const r = await check(analyticsPath('demo', endpoint, params));
    expect([r.status, r.problems]).toEqual([400, []]);
    expect(r.json.details).toHaveLength(1);
  });
});
