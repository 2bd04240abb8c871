// GET /v1/analytics/{projectId}/assistant/threads/{threadId} over HTTP: the transcript of the
// conversation whose `id` the assistant endpoint serves, consistent with its turns; 400 for an id
// that is not a ULID, 404 for one of no conversation of the project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trafficOptions, type AssistantThread, type Sandbox } from '../../src/tools/sandbox/index.js';
import { analyticsPath, call, FakeClock, get200, instantOf, readAll, sandboxWith } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandboxWith({ clock: new FakeClock(), conversations: 400, projects: ['demo', 'other'] });
});
afterAll(() => sb.close());

/** The turns of each conversation id, in timestamp order. */
function byConversation(turns: Record<string, unknown>[]): Map<string, Record<string, unknown>[]> {
  const m = new Map<string, Record<string, unknown>[]>();
  for (const t of turns) m.set(String(t.id), [...(m.get(String(t.id)) ?? []), t]);
  for (const list of m.values()) list.sort((a, b) => instantOf(a.timestamp) - instantOf(b.timestamp));
  return m;
}

describe('GET …/assistant/threads/{threadId}', () => {
  it('is the transcript of an assistant conversation: user and assistant messages alternate, with its turns\' texts', async () => {
    const convs = byConversation(sb.truth('demo') as unknown as Record<string, unknown>[]);
    const multi = [...convs.entries()].filter(([, t]) => t.length >= 3).slice(0, 15);
    expect(multi.length).toBe(15);
    for (const [id, turns] of [...multi, ...[...convs.entries()].slice(0, 10)]) {
      const thread = (await get200(sb, analyticsPath('demo', `assistant/threads/${id}`))) as AssistantThread;
      expect(thread).toEqual(sb.threadTruth('demo', id));
      expect(thread.threadId).toBe(id);
      expect(Date.parse(thread.createdAt)).toBe(instantOf(turns[0]!.timestamp));
      expect(thread.messages.map((m) => m.role)).toEqual(turns.flatMap(() => ['user', 'assistant']));
      turns.forEach((t, k) => {
        const [q, a] = [thread.messages[2 * k]!, thread.messages[2 * k + 1]!];
        expect(q.content).toBe(t.query);
        expect(a.content).toBe(t.response);
        expect(Date.parse(q.createdAt)).toBe(instantOf(t.timestamp));
        expect(Date.parse(a.createdAt)).toBeGreaterThan(Date.parse(q.createdAt));
      });
      const times = thread.messages.map((m) => Date.parse(m.createdAt));
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      expect(new Set(thread.messages.map((m) => m.id)).size).toBe(thread.messages.length);
    }
  });

  it('serves the threads of malformed export rows too (the transcript is not the export)', async () => {
    const s = await sandboxWith({ clock: new FakeClock(), conversations: 200, malformedRate: 0.1 });
    try {
      const withId = (s.malformed('demo') as Record<string, unknown>[]).filter((r) => typeof r.id === 'string');
      expect(withId.length).toBeGreaterThan(0);
      const r = await call(s, analyticsPath('demo', `assistant/threads/${String(withId[0]!.id)}`));
      expect(r.status).toBe(200);
      expect(r.json.messages.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it('400 "Invalid thread ID" for what is not a ULID; 404 "Thread not found" for an unknown one or another project\'s', async () => {
    for (const id of ['x', '01ARZ3NDEKTSV4RRFFQ69G5FA', '81ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAU%2F']) {
      const r = await call(sb, analyticsPath('demo', `assistant/threads/${id}`));
      expect([r.status, r.json.error], id).toEqual([400, 'Invalid thread ID']);
    }
    const id = String(sb.truth('demo')[0]!.id);
    for (const [project, thread] of [['demo', '01ARZ3NDEKTSV4RRFFQ69G5FAV'], ['other', id], ['demo', `${id.slice(0, 20)}000000`]]) {
      const r = await call(sb, analyticsPath(project!, `assistant/threads/${thread}`));
      expect([r.status, r.json], `${project} ${thread}`).toEqual([404, { error: 'Thread not found' }]);
    }
    expect((await call(sb, analyticsPath('demo', `assistant/threads/${id.toLowerCase()}`))).json.threadId).toBe(id);
  });

  it('is live while the export lags: a thread can hold turns the export does not serve yet, answers after their instant', async () => {
    const clock = new FakeClock();
    const s = await sandboxWith({ clock, traffic: trafficOptions(48_000), historyDays: 1 });
    try {
      clock.advance(20 * 60_000);
      const exported = byConversation((await readAll(s, 'demo', { dateFrom: new Date(clock.ms - 40 * 60_000).toISOString() })).records);
      let ahead = 0;
      for (const [id, turns] of exported) {
        const thread = s.threadTruth('demo', id)!;
        const users = thread.messages.filter((m) => m.role === 'user');
        expect(users.length).toBeGreaterThanOrEqual(turns.length);
        if (users.length > turns.length) ahead++;
        expect(thread.messages.every((m) => Date.parse(m.createdAt) <= clock.ms)).toBe(true);
      }
      expect(ahead).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});
