// Steady traffic mode: R turns a day over the history and on as the (fake) clock advances, the
// late-arrival model, later changes of category/status, and keyset pages that stay complete
// while turns keep arriving. Everything is read back through truthKeys() and over HTTP.
import { describe, expect, it } from 'vitest';
import { trafficOptions, type Sandbox, type TruthKeys } from '../../src/tools/sandbox/index.js';
import { FakeClock, instantOf, readAll, sandboxWith, START, turnKey } from './helpers.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

async function withTraffic(turnsPerDay: number, fn: (sb: Sandbox, clock: FakeClock) => Promise<void>, historyDays = 2): Promise<void> {
  const clock = new FakeClock();
  const sb = await sandboxWith({ clock, traffic: trafficOptions(turnsPerDay), historyDays });
  try {
    await fn(sb, clock);
  } finally {
    await sb.close();
  }
}

const keysOf = (k: TruthKeys) => k.id.map((id, i) => `${id}@${k.timestampMs[i]}`);

describe('steady traffic', () => {
  it('serves R turns a day over historyDays before start, hour by hour', () =>
    withTraffic(24_000, async (sb, clock) => {
      clock.advance(DAY); // every history turn has arrived (the latest band is 20 h)
      const k = sb.truthKeys('demo', { toMs: START });
      expect(k.count).toBeGreaterThan(47_900);
      expect(k.count).toBeLessThanOrEqual(48_000);
      const perHour = new Map<number, number>();
      for (const ts of k.timestampMs) perHour.set(Math.floor(ts / HOUR), (perHour.get(Math.floor(ts / HOUR)) ?? 0) + 1);
      const inner = [...perHour.entries()].filter(([h]) => h * HOUR > START - 2 * DAY && (h + 1) * HOUR < START).map(([, n]) => n);
      expect(inner.length).toBe(46);
      for (const n of inner) expect(Math.abs(n - 1000)).toBeLessThan(80); // steady: ±8% an hour (turns of a conversation spill over)
      expect(Math.min(...k.timestampMs)).toBeGreaterThanOrEqual(START - 2 * DAY);
    }));

  it('keeps arriving as the clock advances: visibleCount grows by about R per day', () =>
    withTraffic(24_000, async (sb, clock) => {
      const atStart = sb.visibleCount('demo');
      clock.advance(6 * HOUR);
      const later = sb.visibleCount('demo');
      expect(later - atStart).toBeGreaterThan(5_700);
      expect(later - atStart).toBeLessThan(6_300);
      expect(sb.visibleCount('demo', START)).toBe(atStart); // a past instant is still answerable
      const fresh = sb.truthKeys('demo', { fromMs: START });
      expect(fresh.count).toBeGreaterThan(5_000);
      for (let i = 0; i < fresh.count; i++) expect(fresh.visibleAt[i]!).toBeLessThanOrEqual(clock.ms);
    }));

  it('follows the late-arrival model: 90% within 5 min, 9% within 3 h, 1% within 20 h', () =>
    withTraffic(48_000, async (sb, clock) => {
      clock.advance(DAY);
      const k = sb.truthKeys('demo', { toMs: START });
      const delays = Array.from(k.visibleAt, (v, i) => v - k.timestampMs[i]!);
      const share = (f: (d: number) => boolean) => delays.filter(f).length / delays.length;
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(1000);
      expect(share((d) => d <= 5 * MIN)).toBeCloseTo(0.9, 2);
      expect(share((d) => d > 5 * MIN && d <= 3 * HOUR)).toBeCloseTo(0.09, 2);
      expect(share((d) => d > 3 * HOUR)).toBeCloseTo(0.01, 2);
      expect(Math.max(...delays)).toBeLessThanOrEqual(20 * HOUR);
      expect(Math.max(...delays)).toBeGreaterThan(15 * HOUR);
    }));

  it('has multi-turn conversations: shared id, timestamps seconds to minutes apart', () =>
    withTraffic(24_000, async (sb, clock) => {
      clock.advance(DAY);
      const k = sb.truthKeys('demo', { toMs: START });
      const byId = new Map<string, number[]>();
      k.id.forEach((id, i) => byId.set(id, [...(byId.get(id) ?? []), k.timestampMs[i]!]));
      const multi = [...byId.values()].filter((ts) => ts.length > 1);
      expect(multi.length).toBeGreaterThan(byId.size / 4);
      for (const ts of multi.slice(0, 500)) {
        const sorted = [...ts].sort((a, b) => a - b);
        for (let i = 1; i < sorted.length; i++) {
          expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(2000);
          expect(sorted[i]! - sorted[i - 1]!).toBeLessThanOrEqual(6 * MIN);
        }
      }
    }));

  it('changes category and/or status of ~30% of turns 2–12 h after they happen, first version before', () =>
    withTraffic(48_000, async (sb, clock) => {
      const hour = { fromMs: START, toMs: START + HOUR };
      clock.advance(HOUR + 59 * MIN); // no change can have happened yet (the earliest is ts + 2 h)
      const first = sb.truthKeys('demo', hour);
      const firstServed = new Map((await readAll(sb, 'demo', { dateFrom: iso(hour.fromMs), dateTo: iso(hour.toMs) })).records.map((r) => [turnKey(r), r]));
      clock.advance(12 * HOUR); // every change of these turns has happened
      const final = sb.truthKeys('demo', hour);
      const finalByKey = new Map(keysOf(final).map((key, i) => [key, i]));
      let compared = 0;
      let changed = 0;
      let categoryChanged = 0;
      let statusChanged = 0;
      keysOf(first).forEach((key, i) => {
        const j = finalByKey.get(key)!;
        expect(j).toBeDefined();
        compared++;
        const cat = first.queryCategory[i] !== final.queryCategory[j];
        const status = first.resolutionStatus[i] !== final.resolutionStatus[j];
        if (cat || status) changed++;
        if (cat) categoryChanged++;
        if (status) statusChanged++;
        // what the API served then is the first version
        const served = firstServed.get(key)!;
        expect(served.queryCategory).toBe(first.queryCategory[i]);
        expect(served.resolutionStatus).toBe(first.resolutionStatus[i]);
      });
      expect(compared).toBeGreaterThan(1700);
      expect(changed / compared).toBeGreaterThan(0.26);
      expect(changed / compared).toBeLessThan(0.34);
      expect(categoryChanged).toBeGreaterThan(statusChanged); // 70% of changes touch the category, 50% the status
      expect(statusChanged).toBeGreaterThan(compared * 0.1);
      // and the API now serves the final version
      const now = (await readAll(sb, 'demo', { dateFrom: iso(hour.fromMs), dateTo: iso(hour.toMs) })).records;
      expect(now).toHaveLength(final.count);
      for (const r of now) {
        const j = finalByKey.get(turnKey(r))!;
        expect([r.queryCategory, r.resolutionStatus]).toEqual([final.queryCategory[j], final.resolutionStatus[j]]);
      }
    }));

  it('keeps cursor chains complete and duplicate-free while turns arrive between pages', () =>
    withTraffic(48_000, async (sb, clock) => {
      const window = { dateFrom: iso(START - 3 * HOUR), dateTo: iso(START + 3 * HOUR) };
      const atStart = new Set(keysOf(sb.truthKeys('demo', { fromMs: START - 3 * HOUR, toMs: START + 3 * HOUR })));
      const { records } = await readAll(sb, 'demo', { ...window, limit: 500 }, () => clock.advance(7 * MIN));
      const got = records.map(turnKey);
      expect(new Set(got).size).toBe(got.length);
      const gotSet = new Set(got);
      expect([...atStart].every((k) => gotSet.has(k))).toBe(true);
      const atEnd = new Set(keysOf(sb.truthKeys('demo', { fromMs: START - 3 * HOUR, toMs: START + 3 * HOUR })));
      expect(got.every((k) => atEnd.has(k))).toBe(true);
      expect(got.length).toBeGreaterThan(atStart.size + 1000); // turns did arrive during the chain
      expect(records.every((r) => instantOf(r.timestamp) >= START - 3 * HOUR && instantOf(r.timestamp) < START + 3 * HOUR)).toBe(true);
    }));

  it('is a pure function of seed and clock; an hour holds the same turns whenever the sandbox started', async () => {
    const opts = { traffic: trafficOptions(12_000), historyDays: 1 };
    const clock = new FakeClock();
    const a = await sandboxWith({ ...opts, clock });
    const b = await sandboxWith(opts);
    const c = await sandboxWith({ ...opts, clock: new FakeClock(START + 12 * HOUR) });
    const other = await sandboxWith({ ...opts, seed: 7 });
    try {
      const text = (k: TruthKeys) => JSON.stringify({ ...k, timestampMs: [...k.timestampMs], visibleAt: [...k.visibleAt] });
      expect(text(b.truthKeys('demo'))).toBe(text(a.truthKeys('demo')));
      expect(JSON.stringify((await readAll(b)).records)).toBe(JSON.stringify((await readAll(a)).records));
      const hour = { fromMs: START - 5 * HOUR, toMs: START - 4 * HOUR };
      clock.advance(12 * HOUR); // the same instant as c's start: the same turns have arrived
      expect(keysOf(c.truthKeys('demo', hour)).sort()).toEqual(keysOf(a.truthKeys('demo', hour)).sort());
      const mine = new Set(keysOf(a.truthKeys('demo')));
      expect(keysOf(other.truthKeys('demo')).filter((k) => mine.has(k)).length).toBeLessThan(50);
    } finally {
      await Promise.all([a, b, c, other].map((s) => s.close()));
    }
  });
});

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
