// The test-only /__sandbox/* routes (for subprocess tests) mirror the Sandbox object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, type Sandbox } from '../../src/tools/sandbox/index.js';
import { assistantPath, call, sandboxWith, START } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandboxWith({ conversations: 200, malformedRate: 0.05, apiKeys: [DEMO_API_KEY, 'mint_fresh'] });
});
afterAll(() => sb.close());

describe('/__sandbox routes', () => {
  it('GET truth returns the turns and malformed records, unauthenticated', async () => {
    const r = await call(sb, '/__sandbox/truth?projectId=demo', { key: null });
    expect(r.status).toBe(200);
    expect(r.json.turns).toEqual(JSON.parse(JSON.stringify(sb.truth('demo'))));
    expect(r.json.malformed).toEqual(sb.malformed('demo'));
    expect(r.json.malformed.length).toBeGreaterThan(0);
    expect((await call(sb, '/__sandbox/truth?projectId=nope', { key: null })).status).toBe(404);
  });

  it('GET requests lists a key\'s requests', async () => {
    await call(sb, assistantPath('demo', { limit: 1 }), { key: 'mint_probe' });
    const r = await call(sb, '/__sandbox/requests?key=mint_probe', { key: null });
    expect(r.json.requests).toEqual([{ at: expect.any(Number), status: 401, path: '/v1/analytics/demo/assistant' }]);
  });

  it('POST expire-cursors makes an issued cursor a 400', async () => {
    const cursor = (await call(sb, assistantPath('demo', { limit: 5 }))).json.nextCursor as string;
    expect((await call(sb, assistantPath('demo', { limit: 5, cursor }))).status).toBe(200);
    expect((await call(sb, '/__sandbox/expire-cursors', { method: 'POST', key: null })).status).toBe(200);
    expect((await call(sb, assistantPath('demo', { limit: 5, cursor }))).status).toBe(400);
  });

  it('POST configure applies a patch and validates it', async () => {
    const ok = await call(sb, '/__sandbox/configure', { method: 'POST', key: null, body: { rateLimit: { limit: 1, windowMs: 60_000 } } });
    expect(ok.status).toBe(200);
    // a key that made no request yet (earlier arrivals of the demo key count in the window too)
    expect((await call(sb, assistantPath('demo'), { key: 'mint_fresh' })).status).toBe(200);
    expect((await call(sb, assistantPath('demo'), { key: 'mint_fresh' })).status).toBe(429);
    expect((await call(sb, assistantPath('demo'))).status).toBe(429);
    await call(sb, '/__sandbox/configure', { method: 'POST', key: null, body: { rateLimit: null, faultRate: 1, faults: ['http5xx'] } });
    expect((await call(sb, assistantPath('demo'))).status).toBeGreaterThanOrEqual(500);
    await call(sb, '/__sandbox/configure', { method: 'POST', key: null, body: { faultRate: 0 } });
    expect((await call(sb, assistantPath('demo'))).status).toBe(200);

    const bad = await call(sb, '/__sandbox/configure', { method: 'POST', key: null, body: { faultRate: 2, faults: ['boom'], port: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.json.details.length).toBe(3);
  });

  it('GET feedback-truth, aggregate and thread mirror feedbackTruth, aggregateTruth and threadTruth', async () => {
    const [from, to] = [START - 3 * 86_400_000, START - 2 * 86_400_000];
    const f = await call(sb, `/__sandbox/feedback-truth?projectId=demo&from=${from}&to=${to}`, { key: null });
    expect(f.json).toEqual({ feedback: sb.feedbackTruth('demo', { fromMs: from, toMs: to }), malformed: sb.feedbackMalformed('demo', { fromMs: from, toMs: to }) });
    expect(f.json.malformed.length).toBeGreaterThan(0);
    for (const endpoint of ['feedback/by-page', 'searches', 'views', 'visitors', 'assistant/caller-stats'] as const) {
      const r = await call(sb, `/__sandbox/aggregate?projectId=demo&endpoint=${endpoint}&from=${from}&to=${to}`, { key: null });
      expect(r.json, endpoint).toEqual(JSON.parse(JSON.stringify(sb.aggregateTruth('demo', endpoint, from, to))));
    }
    const split = await call(sb, `/__sandbox/aggregate?projectId=demo&endpoint=feedback/by-page&source=contextual&status=pending,resolved`, { key: null });
    expect(split.json).toEqual(sb.aggregateTruth('demo', 'feedback/by-page', null, null, { source: 'contextual', status: ['pending', 'resolved'] }));
    expect((await call(sb, '/__sandbox/aggregate?projectId=demo&endpoint=nope', { key: null })).status).toBe(400);
    const id = String(sb.truth('demo')[0]!.id);
    expect((await call(sb, `/__sandbox/thread?projectId=demo&threadId=${id}`, { key: null })).json).toEqual(sb.threadTruth('demo', id));
    expect((await call(sb, '/__sandbox/thread?projectId=demo&threadId=01ARZ3NDEKTSV4RRFFQ69G5FAV', { key: null })).status).toBe(404);
  });

  it('exposes the static export handler', () => {
    expect(typeof sb.staticExport.handle).toBe('function');
  });
});
