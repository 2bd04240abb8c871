// The sandbox's responses, over real HTTP, against the vendor's published OpenAPI files in docs/api/
// (test/helpers/openapi.ts), not against our own zod schemas. Only statuses the files declare are
// checked; the sandbox's choices beyond them (401/404/429 on analytics) are covered elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { httpCall } from '../helpers/http.js';
import { openApiProblems } from '../helpers/openapi.js';

const KEY = 'mint_openapi_conformance_key';
const BASIC_KEY = 'mint_openapi_basic_plan_key';
const clock = new FakeClock(Date.parse('2026-11-01T09:00:00Z'));
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], nonEnterpriseKeys: [BASIC_KEY], conversations: 2300, seed: 12, clock,
    staticExport: { jobDurationMs: 10_000, failDomains: ['fail.example.com'], bundleTtlMs: 60_000, pagesPerSite: 5, damagedDownloads: 0 },
  }));
});
afterAll(() => sb.close());

/** Calls the sandbox and returns the response's problems against the OpenAPI files. */
async function check(method: string, path: string, key: string | null = KEY, body?: unknown) {
  const r = await httpCall(sb.url, path, { key, method, body });
  return { status: r.status, json: r.json, problems: openApiProblems({ method, path, status: r.status, body: r.json }) };
}

describe('the sandbox against the published OpenAPI files', () => {
  it('GET /v1/analytics/{projectId}/assistant: every 200 page conforms, records with extra fields included', async () => {
    let cursor: string | null = null;
    let pages = 0;
    let extra = 0;
    const known = new Set(['id', 'timestamp', 'query', 'response', 'responseType', 'sources', 'resolutionStatus', 'queryCategory', 'pageUrl']);
    do {
      const r = await check('GET', `/v1/analytics/demo/assistant?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.problems).toEqual([]);
      for (const t of r.json.conversations as Record<string, unknown>[]) if (Object.keys(t).some((k) => !known.has(k))) extra++;
      cursor = r.json.nextCursor as string | null;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(extra).toBeGreaterThan(0);
    const windowed = await check('GET', '/v1/analytics/demo/assistant?limit=1&dateFrom=2026-10-20&dateTo=2026-10-21T12:00:00Z');
    expect(windowed.problems).toEqual([]);
  });

  it.each([
    '/v1/analytics/demo/assistant?limit=0',
    '/v1/analytics/demo/assistant?limit=5000',
    '/v1/analytics/demo/assistant?dateFrom=yesterday',
    '/v1/analytics/demo/assistant?cursor=not-a-cursor',
  ])('GET %s: the 400 body conforms', async (path) => {
    const r = await check('GET', path);
    expect(r.status).toBe(400);
    expect(r.problems).toEqual([]);
  });

  it('the static export endpoints: 202, 200 while running and done, 409 before, 200 bundle, 400, 401, 403, 404', async () => {
    const started = await check('POST', '/v1/static-export/jobs', KEY, { domain: 'docs.example.com', paths: ['index'] });
    expect(started.status).toBe(202);
    expect(started.problems).toEqual([]);
    const job = `/v1/static-export/jobs/${started.json.jobId as string}`;
    const early = await check('POST', `${job}/bundle`);
    expect(early.status).toBe(409);
    expect(early.problems).toEqual([]);
    clock.advance(5_000);
    const running = await check('GET', job);
    expect(running).toMatchObject({ status: 200, problems: [] });
    expect(running.json.status).toBe('running');
    clock.advance(10_000);
    const done = await check('GET', job);
    expect(done).toMatchObject({ status: 200, problems: [] });
    expect(done.json.status).toBe('completed');
    const bundle = await check('POST', `${job}/bundle`);
    expect(bundle).toMatchObject({ status: 200, problems: [] });
    for (const [method, path, key, body, status] of [
      ['POST', '/v1/static-export/jobs', KEY, { domain: 'https://docs.example.com/' }, 400],
      ['POST', '/v1/static-export/jobs', 'mint_wrong', { domain: 'docs.example.com' }, 401],
      ['GET', job, 'mint_wrong', undefined, 401],
      ['POST', '/v1/static-export/jobs', BASIC_KEY, { domain: 'docs.example.com' }, 403],
      ['GET', '/v1/static-export/jobs/se_0000000000000000', KEY, undefined, 404],
      ['POST', '/v1/static-export/jobs/se_0000000000000000/bundle', KEY, undefined, 404],
    ] as const) {
      const r = await check(method, path, key, body);
      expect([r.status, r.problems], `${method} ${path}`).toEqual([status, []]);
    }
  });

  it('the helper fails what breaks the contract, and an undeclared status', () => {
    const page = { conversations: [{ id: 'a', timestamp: 't', query: 'q', response: 'r', sources: [], resolutionStatus: 'maybe', queryCategory: null, pageUrl: null }], nextCursor: null, hasMore: false };
    expect(openApiProblems({ method: 'GET', path: '/v1/analytics/x/assistant', status: 200, body: page }).join()).toMatch(/resolutionStatus must be equal to one of the allowed values/);
    expect(openApiProblems({ method: 'GET', path: '/v1/analytics/x/assistant', status: 200, body: { ...page, conversations: [], hasMore: 'no' } }).join()).toMatch(/hasMore must be boolean/);
    const job = { jobId: 'se_1', status: 'running', progress: 5, pageCount: 1, createdAt: 'yesterday', updatedAt: '2026-11-01T09:00:00Z', error: null };
    expect(openApiProblems({ method: 'GET', path: '/v1/static-export/jobs/se_1', status: 200, body: job }).join()).toMatch(/createdAt must match format "date-time"/);
    expect(openApiProblems({ method: 'GET', path: '/v1/static-export/jobs/se_1', status: 200, body: { ...job, createdAt: job.updatedAt } })).toEqual([]); // nullable: true
    expect(openApiProblems({ method: 'GET', path: '/v1/analytics/x/assistant', status: 401, body: {} }).join()).toMatch(/declares no 401 response/);
    expect(openApiProblems({ method: 'GET', path: '/v1/nowhere', status: 200, body: {} }).join()).toMatch(/no operation GET \/v1\/nowhere/);
  });
});
