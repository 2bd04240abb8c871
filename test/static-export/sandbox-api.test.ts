// The sandbox's Static Export API over real HTTP: statuses, bodies and the clock-driven job states.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { staticExportJobSchema } from '../../src/contracts/static-export.js';
import { FAIL_DOMAIN, FakeClock, NON_ENTERPRISE_KEY, OTHER_KEY, call, sandboxWith } from './helpers.js';

const JOBS = '/v1/static-export/jobs';
const NOT_ENTERPRISE = 'Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan.';

let clock: FakeClock;
let sb: Sandbox;
beforeEach(async () => {
  clock = new FakeClock();
  sb = await sandboxWith(clock, { jobDurationMs: 10_000 });
});
afterEach(() => sb.close());

async function start(body: unknown = { domain: 'docs.example.com' }) {
  const r = await call(sb.url, JOBS, { method: 'POST', body });
  expect(r.status).toBe(202);
  return r.json as { jobId: string };
}

describe('POST /v1/static-export/jobs', () => {
  it('accepts a job: 202 with a queued StaticExportJob', async () => {
    const r = await call(sb.url, JOBS, { method: 'POST', body: { domain: 'docs.example.com', version: '2026-11-01' } });
    expect(r.status).toBe(202);
    const job = staticExportJobSchema.parse(r.json);
    expect(job.jobId).toMatch(/^se_[0-9a-f]{16}$/);
    expect(job).toMatchObject({ status: 'queued', progress: 0, pageCount: 0 });
    expect(job.createdAt).toBe(new Date(clock.ms).toISOString());
    expect(r.json).not.toHaveProperty('error');
  });

  it.each([
    ['not JSON', { rawBody: '{"domain": ' }],
    ['no domain', { body: {} }],
    ['domain with protocol', { body: { domain: 'https://docs.example.com' } }],
    ['domain with slash', { body: { domain: 'docs.example.com/' } }],
    ['domain with path', { body: { domain: 'example.com/docs' } }],
    ['path with a leading slash', { body: { domain: 'docs.example.com', paths: ['/quickstart'] } }],
    ['paths not strings', { body: { domain: 'docs.example.com', paths: [1, 2] } }],
    ['paths not an array', { body: { domain: 'docs.example.com', paths: 'index' } }],
    ['unknown page path', { body: { domain: 'docs.example.com', paths: ['index', 'no/such-page'] } }],
    ['empty paths', { body: { domain: 'docs.example.com', paths: [] } }],
  ])('400 with {error} for %s', async (_name, o) => {
    const r = await call(sb.url, JOBS, { method: 'POST', ...o });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatch(/request body is invalid/);
  });

  it('401 without a key or with a wrong key, on all three endpoints', async () => {
    const { jobId } = await start();
    for (const key of [null, 'mint_wrong']) {
      for (const [method, path] of [['POST', JOBS], ['GET', `${JOBS}/${jobId}`], ['POST', `${JOBS}/${jobId}/bundle`]] as const) {
        const r = await call(sb.url, path, { key, method, body: method === 'POST' ? { domain: 'docs.example.com' } : undefined });
        expect(r.status, `${method} ${path}`).toBe(401);
        expect(r.json).toEqual({ error: 'Authentication failed.' });
      }
    }
  });

  it('403 for an organization without the enterprise plan', async () => {
    const r = await call(sb.url, JOBS, { key: NON_ENTERPRISE_KEY, method: 'POST', body: { domain: 'docs.example.com' } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ error: NOT_ENTERPRISE });
    const { jobId } = await start();
    expect((await call(sb.url, `${JOBS}/${jobId}`, { key: NON_ENTERPRISE_KEY })).status).toBe(403);
  });

  it('paths restrict the exported pages', async () => {
    const { jobId } = await start({ domain: 'docs.example.com', paths: ['index', 'guides/authentication'] });
    expect(sb.staticExport.truth(jobId)?.map((p) => p.path)).toEqual(['index', 'guides/authentication']);
  });
});

describe('GET /v1/static-export/jobs/{jobId}', () => {
  it('404 for an unknown job, and for a job of another organization', async () => {
    const r = await call(sb.url, `${JOBS}/se_0000000000000000`);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: 'No job exists with the provided ID.' });
    const { jobId } = await start();
    expect((await call(sb.url, `${JOBS}/${jobId}`, { key: OTHER_KEY })).status).toBe(404);
  });

  it('status is a function of the clock: queued → running (progress, pageCount grow) → completed', async () => {
    const { jobId } = await start();
    const total = sb.staticExport.truth(jobId)!.length;
    const seen: { status: string; progress: number; pageCount: number; updatedAt: string }[] = [];
    for (let t = 0; t <= 11_000; t += 500) {
      const r = await call(sb.url, `${JOBS}/${jobId}`);
      expect(r.status).toBe(200);
      const job = staticExportJobSchema.parse(r.json);
      expect(Number.isInteger(job.progress)).toBe(true);
      seen.push(job);
      clock.advance(500);
    }
    expect(seen[0]).toMatchObject({ status: 'queued', progress: 0, pageCount: 0 });
    const running = seen.filter((j) => j.status === 'running');
    expect(running.length).toBeGreaterThan(5);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.progress).toBeGreaterThanOrEqual(seen[i - 1]!.progress);
      expect(seen[i]!.pageCount).toBeGreaterThanOrEqual(seen[i - 1]!.pageCount);
      expect(Date.parse(seen[i]!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(seen[i - 1]!.updatedAt));
    }
    expect(new Set(running.map((j) => j.updatedAt)).size).toBeGreaterThan(3);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', progress: 100, pageCount: total });
    expect(seen.every((j) => !('error' in j))).toBe(true);
  });

  it('a failing domain fails halfway with an error text', async () => {
    const { jobId } = await start({ domain: FAIL_DOMAIN });
    clock.advance(4_000);
    expect((await call(sb.url, `${JOBS}/${jobId}`)).json.status).toBe('running');
    clock.advance(2_000);
    const r = await call(sb.url, `${JOBS}/${jobId}`);
    expect(r.json.status).toBe('failed');
    expect(r.json.error).toMatch(/Rendering failed/);
    expect(r.json.progress).toBeLessThan(100);
    const b = await call(sb.url, `${JOBS}/${jobId}/bundle`, { method: 'POST' });
    expect(b.status).toBe(409);
    expect(b.json.error).toMatch(/failed/);
  });
});

describe('POST /v1/static-export/jobs/{jobId}/bundle', () => {
  it('409 until completed, then 200 with a presigned link; each call a fresh link for the same bytes', async () => {
    const { jobId } = await start();
    const early = await call(sb.url, `${JOBS}/${jobId}/bundle`, { method: 'POST' });
    expect(early.status).toBe(409);
    expect(early.json).toEqual({ error: 'The job has not finished yet, so a bundle cannot be generated.' });
    expect((await call(sb.url, `${JOBS}/se_ffffffffffffffff/bundle`, { method: 'POST' })).status).toBe(404);
    clock.advance(10_000);
    const a = await call(sb.url, `${JOBS}/${jobId}/bundle`, { method: 'POST' });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ jobId, sizeBytes: expect.any(Number) });
    expect(a.json.bundleUrl).toMatch(new RegExp(`^${sb.url}/bundles/${jobId}/bundle\\.tar\\.gz\\?.*X-Amz-Signature=[0-9a-f]{64}`));
    expect(Date.parse(a.json.expiresAt)).toBe(clock.ms + 60_000);
    clock.advance(1_000);
    const b = await call(sb.url, `${JOBS}/${jobId}/bundle`, { method: 'POST' });
    expect(b.json.bundleUrl).not.toBe(a.json.bundleUrl);
    expect(b.json.sizeBytes).toBe(a.json.sizeBytes);
    const bytesA = Buffer.from(await (await fetch(a.json.bundleUrl)).arrayBuffer());
    const bytesB = Buffer.from(await (await fetch(b.json.bundleUrl)).arrayBuffer());
    expect(bytesA.length).toBe(a.json.sizeBytes);
    expect(bytesA.equals(bytesB)).toBe(true);
    expect(sb.staticExport.linksIssued(jobId)).toBe(2);
  });
});
