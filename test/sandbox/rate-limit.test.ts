// Per-organization sliding window, counted by arrival, one for all analytics endpoints; 401 and
// 429 are logged but not counted.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { analyticsPath, assistantPath, call, FakeClock, sandboxWith } from './helpers.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('rate limit', () => {
  it('refuses the request over the limit with 429 and Retry-After, and recovers when the window slides', async () => {
    const clock = new FakeClock();
    sb = await sandboxWith({ clock, rateLimit: { limit: 5, windowMs: 2000 }, apiKeys: ['mint_a', 'mint_b'], conversations: 20 });
    const get = (key = 'mint_a') => call(sb!, assistantPath('demo', { limit: 1 }), { key });
    for (let i = 0; i < 5; i++) {
      expect((await get()).status).toBe(200);
      clock.advance(100);
    }
    // now = t0+500; the oldest counted arrival (t0) leaves the window at t0+2000
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBeTruthy();
    expect(refused.headers.get('retry-after')).toBe('2');
    clock.advance(1000); // t0+1500: 500 ms left → rounded up to 1 s
    const again = await get();
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('1');
    // another organization has its own window
    expect((await get('mint_b')).status).toBe(200);

    clock.advance(500); // t0+2000: the first arrival left; the 429s did not count
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429); // t0+100 is still inside

    expect(sb.requestLog('mint_a').map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 200, 429]);
    expect(sb.requestLog('mint_a').every((r) => r.path === '/v1/analytics/demo/assistant')).toBe(true);
  });

  it('logs 401s under the presented key without counting them, and counts other analytics paths', async () => {
    const clock = new FakeClock();
    sb = await sandboxWith({ clock, rateLimit: { limit: 2, windowMs: 60_000 }, conversations: 20 });
    expect((await call(sb, assistantPath('demo'), { key: 'mint_wrong' })).status).toBe(401);
    expect(sb.requestLog('mint_wrong')).toEqual([{ at: clock.ms, status: 401, path: '/v1/analytics/demo/assistant' }]);
    expect((await call(sb, '/v1/analytics/demo/no-such-endpoint')).status).toBe(404);
    expect((await call(sb, assistantPath('demo'))).status).toBe(200);
    const third = await call(sb, assistantPath('demo'));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBe(60);
  });

  it('counts all eight analytics endpoints together in one window per organization', async () => {
    const clock = new FakeClock();
    sb = await sandboxWith({ clock, rateLimit: { limit: 8, windowMs: 60_000 }, apiKeys: ['mint_a', 'mint_b'], conversations: 20, historyDays: 2 });
    const thread = sb.truth('demo')[0]!.id;
    const endpoints = [
      'assistant', 'feedback', 'feedback/by-page', 'searches', 'views', 'visitors', 'assistant/caller-stats', `assistant/threads/${thread}`,
    ];
    for (const e of endpoints) {
      expect((await call(sb, analyticsPath('demo', e, { dateFrom: '2026-03-14' }), { key: 'mint_a' })).status, e).toBe(200);
      clock.advance(1000);
    }
    for (const e of endpoints) expect((await call(sb, analyticsPath('demo', e), { key: 'mint_a' })).status, e).toBe(429);
    expect((await call(sb, analyticsPath('demo', 'views'), { key: 'mint_b' })).status).toBe(200);
    clock.advance(52_000); // t0+60s: the first arrival (assistant, at t0) leaves the window, the second not yet
    expect((await call(sb, analyticsPath('demo', 'searches'), { key: 'mint_a' })).status).toBe(200);
    expect((await call(sb, analyticsPath('demo', 'views'), { key: 'mint_a' })).status).toBe(429);
    const log = sb.requestLog('mint_a');
    expect(log.map((r) => r.path)).toEqual([
      ...endpoints.map((e) => `/v1/analytics/demo/${e}`), ...endpoints.map((e) => `/v1/analytics/demo/${e}`),
      '/v1/analytics/demo/searches', '/v1/analytics/demo/views',
    ]);
    expect(log.map((r) => r.status)).toEqual([...endpoints.map(() => 200), ...endpoints.map(() => 429), 200, 429]);
  });

  it('counts faulted requests (they arrived)', async () => {
    sb = await sandboxWith({ rateLimit: { limit: 2, windowMs: 60_000 }, faultRate: 1, faults: ['http5xx'], conversations: 20 });
    expect((await call(sb, assistantPath('demo'))).status).toBeGreaterThanOrEqual(500);
    expect((await call(sb, assistantPath('demo'))).status).toBeGreaterThanOrEqual(500);
    expect((await call(sb, assistantPath('demo'))).status).toBe(429);
  });
});
