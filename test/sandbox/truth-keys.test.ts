// The compact truth accessors (truthKeys, visibleCount) agree with the full truth() and with what
// the API serves, in every data mode, and over the control routes.
import { describe, expect, it } from 'vitest';
import type { ConversationTurn } from '../../src/contracts/analytics.js';
import { trafficOptions, type Sandbox, type SandboxOptions, type TruthKeys } from '../../src/tools/sandbox/index.js';
import { call, FakeClock, instantOf, sandboxWith, START } from './helpers.js';

const HOUR = 3_600_000;

/** One line per turn: key, category, status (sorted: truthKeys is not in served order). */
const fromKeys = (k: TruthKeys) => k.id.map((id, i) => `${id}@${k.timestampMs[i]}|${k.queryCategory[i]}|${k.resolutionStatus[i]}`).sort();
const fromTruth = (t: ConversationTurn[]) => t.map((x) => `${x.id}@${instantOf(x.timestamp)}|${x.queryCategory}|${x.resolutionStatus}`).sort();

async function withSandbox(over: Partial<SandboxOptions>, fn: (sb: Sandbox, clock: FakeClock) => Promise<void>): Promise<void> {
  const clock = new FakeClock();
  const sb = await sandboxWith({ clock, ...over });
  try {
    await fn(sb, clock);
  } finally {
    await sb.close();
  }
}

describe('truthKeys and visibleCount', () => {
  it.each([
    ['history with malformed records', { conversations: 3000, malformedRate: 0.03 }],
    ['live mode, categories still pending', { conversations: 1000, live: true, liveTurnsPerMinute: 30 }],
    ['steady traffic with later changes', { traffic: trafficOptions(10_000), historyDays: 1, malformedRate: 0.01 }],
  ] as [string, Partial<SandboxOptions>][])('equal truth() (keys, current category and status): %s', (_, over) =>
    withSandbox(over, async (sb, clock) => {
      for (const step of [0, 40 * 60_000, 3 * HOUR]) {
        clock.advance(step);
        const keys = sb.truthKeys('demo');
        const truth = sb.truth('demo');
        expect(keys.count).toBe(truth.length);
        expect(fromKeys(keys)).toEqual(fromTruth(truth));
        expect(sb.visibleCount('demo')).toBe(truth.length);
        for (let i = 0; i < keys.count; i++) expect(keys.visibleAt[i]!).toBeLessThanOrEqual(clock.ms);
      }
      if (over.malformedRate) expect(sb.malformed('demo').length).toBeGreaterThan(0);
    }));

  it('restricts to [fromMs, toMs) of the turn instant', () =>
    withSandbox({ traffic: trafficOptions(20_000), historyDays: 1 }, async (sb) => {
      const range = { fromMs: START - 5 * HOUR, toMs: START - 3 * HOUR };
      const part = sb.truthKeys('demo', range);
      const all = sb.truthKeys('demo');
      const expected = all.id.filter((_, i) => all.timestampMs[i]! >= range.fromMs && all.timestampMs[i]! < range.toMs);
      expect(part.count).toBe(expected.length);
      expect(part.count).toBeGreaterThan(1500);
      expect(sb.visibleCount('demo', undefined, range)).toBe(part.count);
      expect(sb.visibleCount('demo', START, { toMs: range.fromMs })).toBe(sb.truthKeys('demo', { toMs: range.fromMs }).count);
    }));

  it('counts the valid turns visible at past and future instants', () =>
    withSandbox({ traffic: trafficOptions(20_000), historyDays: 1, malformedRate: 0.02 }, async (sb, clock) => {
      const inTwoHours = sb.visibleCount('demo', START + 2 * HOUR);
      const atStart = sb.visibleCount('demo');
      expect(inTwoHours - atStart).toBeGreaterThan(1500);
      clock.advance(2 * HOUR);
      expect(sb.visibleCount('demo')).toBe(inTwoHours);
      expect(sb.truth('demo')).toHaveLength(inTwoHours);
      expect(sb.visibleCount('demo', START)).toBe(atStart);
      const k = sb.truthKeys('demo');
      const cut = START + HOUR;
      expect(sb.visibleCount('demo', cut)).toBe(Array.from(k.visibleAt).filter((v) => v <= cut).length);
    }));

  it('is served by the control routes: /__sandbox/truth?compact=1 and /__sandbox/visible-count', () =>
    withSandbox({ traffic: trafficOptions(10_000), historyDays: 1 }, async (sb) => {
      const r = await call(sb, `/__sandbox/truth?projectId=demo&compact=1&from=${START - 2 * HOUR}&to=${START}`, { key: null });
      expect(r.status).toBe(200);
      const k = sb.truthKeys('demo', { fromMs: START - 2 * HOUR, toMs: START });
      expect(r.json).toEqual({ ...k, timestampMs: [...k.timestampMs], visibleAt: [...k.visibleAt] });
      const c = await call(sb, `/__sandbox/visible-count?projectId=demo&at=${START + HOUR}`, { key: null });
      expect(c.json).toEqual({ count: sb.visibleCount('demo', START + HOUR) });
      expect((await call(sb, '/__sandbox/visible-count?projectId=demo', { key: null })).json.count).toBe(sb.visibleCount('demo'));
      expect((await call(sb, '/__sandbox/visible-count?projectId=demo&at=soon', { key: null })).status).toBe(400);
      expect((await call(sb, '/__sandbox/visible-count?projectId=nope', { key: null })).status).toBe(404);
    }));
});
