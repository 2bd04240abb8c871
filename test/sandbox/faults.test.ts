// Injected faults (5xx with a non-JSON body, reset, truncated body, repeated record, malformed
// page) and persistently malformed records.
import { afterEach, describe, expect, it } from 'vitest';
import { conversationTurnSchema, conversationsPageSchema } from '../../src/contracts/analytics.js';
import { DEMO_API_KEY, type Sandbox } from '../../src/tools/sandbox/index.js';
import { openApiProblems } from '../helpers/openapi.js';
import { analyticsPath, assistantPath, call, readAll, sandboxWith, turnKey } from './helpers.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('faults', () => {
  it('http5xx: 500/502/503 with a non-JSON body', async () => {
    sb = await sandboxWith({ faultRate: 1, faults: ['http5xx'], conversations: 20 });
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const r = await call(sb, assistantPath('demo'));
      statuses.add(r.status);
      expect(r.json).toBeUndefined();
      expect(r.text).toMatch(/<html>/);
    }
    expect([...statuses].sort()).toEqual([500, 502, 503]);
  });

  it('reset: the connection closes without a response', async () => {
    sb = await sandboxWith({ faultRate: 1, faults: ['reset'], conversations: 20 });
    await expect(call(sb, assistantPath('demo'))).rejects.toThrow();
    expect(sb.requestLog(DEMO_API_KEY)).toEqual([expect.objectContaining({ status: 0 })]);
  });

  it('truncate: a 200 whose body is cut short, with an honest Content-Length', async () => {
    sb = await sandboxWith({ faultRate: 1, faults: ['truncate'], conversations: 50 });
    const r = await call(sb, assistantPath('demo'));
    expect(r.status).toBe(200);
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
    expect(r.text.length).toBeGreaterThan(10);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it('repeat: a page also carries the last record of the previous page of the chain', async () => {
    sb = await sandboxWith({ conversations: 50 });
    const first = await call(sb, assistantPath('demo', { limit: 10 }));
    sb.configure({ faultRate: 1, faults: ['repeat'] });
    const second = await call(sb, assistantPath('demo', { limit: 10, cursor: first.json.nextCursor }));
    expect(second.status).toBe(200);
    expect(second.json.conversations).toHaveLength(11);
    expect(second.json.conversations).toContainEqual(first.json.conversations[9]);
    const keys = [...first.json.conversations, ...second.json.conversations].map(turnKey);
    expect(keys).toHaveLength(21);
    expect(new Set(keys).size).toBe(20);
    // on a first page (no previous page) one of its own records is repeated
    const lone = await call(sb, assistantPath('demo', { limit: 10 }));
    expect(lone.json.conversations).toHaveLength(11);
    expect(new Set((lone.json.conversations as object[]).map(turnKey)).size).toBe(10);
  });

  it('malformed: a 200 JSON body that is not a page', async () => {
    sb = await sandboxWith({ faultRate: 1, faults: ['malformed'], conversations: 20 });
    const r = await call(sb, assistantPath('demo'));
    expect(r.status).toBe(200);
    expect(conversationsPageSchema.safeParse(r.json).success).toBe(false);
  });

  it('body faults apply to every analytics endpoint: repeat on lists, truncate, malformed', async () => {
    sb = await sandboxWith({ conversations: 50, historyDays: 3 });
    const thread = String(sb.truth('demo')[0]!.id);
    const first = await call(sb, analyticsPath('demo', 'feedback', { limit: 10 }));
    sb.configure({ faultRate: 1, faults: ['repeat'] });
    const second = await call(sb, analyticsPath('demo', 'feedback', { limit: 10, cursor: first.json.nextCursor }));
    expect(second.json.feedback).toHaveLength(11);
    expect(second.json.feedback[0]).toEqual(first.json.feedback[9]);
    const views = await call(sb, analyticsPath('demo', 'views', { limit: 5 }));
    expect(views.json.views).toHaveLength(6);
    expect(views.json.views[5]).toEqual(views.json.views[0]);
    const lists = { 'feedback/by-page': 'feedback', searches: 'searches', visitors: 'visitors' } as const;
    for (const [endpoint, key] of Object.entries(lists)) {
      const r = await call(sb, analyticsPath('demo', endpoint, { limit: 5 }));
      expect(new Set(r.json[key].map((x: unknown) => JSON.stringify(x))).size, endpoint).toBe(r.json[key].length - 1);
    }
    const endpoints = ['feedback', 'feedback/by-page', 'searches', 'views', 'visitors', 'assistant/caller-stats', `assistant/threads/${thread}`];
    sb.configure({ faults: ['malformed'] });
    for (const e of endpoints) {
      const r = await call(sb, analyticsPath('demo', e));
      expect(r.status).toBe(200);
      expect(openApiProblems({ method: 'GET', path: analyticsPath('demo', e), status: 200, body: r.json }).length, e).toBeGreaterThan(0);
    }
    sb.configure({ faults: ['truncate'] });
    for (const e of endpoints) {
      const r = await call(sb, analyticsPath('demo', e));
      expect(() => JSON.parse(r.text), e).toThrow();
    }
  });

  it('faultRate mixes faults with normal responses, and configure() turns them off', async () => {
    sb = await sandboxWith({ faultRate: 0.5, faults: ['http5xx'], conversations: 20 });
    const statuses = await Promise.all(Array.from({ length: 40 }, () => call(sb!, assistantPath('demo')).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s >= 500).length).toBeGreaterThan(5);
    sb.configure({ faultRate: 0 });
    expect((await call(sb, assistantPath('demo'))).status).toBe(200);
  });
});

describe('malformed records', () => {
  it('are served in pages, persistently the same, and excluded from truth()', async () => {
    sb = await sandboxWith({ malformedRate: 0.1, conversations: 2000 });
    const { records } = await readAll(sb);
    expect(records).toHaveLength(2000);
    const bad = records.filter((r) => !conversationTurnSchema.safeParse(r).success);
    const good = records.filter((r) => conversationTurnSchema.safeParse(r).success);
    expect(bad.length).toBeGreaterThan(120);
    expect(bad.length).toBeLessThan(280);
    expect(sb.malformed('demo')).toEqual(bad);
    expect(good.map((r) => conversationTurnSchema.parse(r))).toEqual(sb.truth('demo'));
    // the same records on every read
    expect((await readAll(sb)).records).toEqual(records);
    // several kinds of breakage
    const kinds = new Set(bad.map((r) => conversationTurnSchema.safeParse(r).error!.issues[0]!.path.join('.')));
    expect(kinds.size).toBeGreaterThanOrEqual(4);
  });
});
