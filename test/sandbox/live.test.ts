// Live mode: arrivals are a pure function of the (fake) clock — late rows, categories filled
// in later, and keyset pages that stay complete while rows keep arriving.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { assistantPath, call, FakeClock, instantOf, readAll, sandboxWith, START, turnKey } from './helpers.js';

const MIN = 60_000;

async function withLive(fn: (sb: Sandbox, clock: FakeClock) => Promise<void>, live = true): Promise<void> {
  const clock = new FakeClock();
  const sb = await sandboxWith({ clock, live, conversations: 300, liveTurnsPerMinute: 20 });
  try {
    await fn(sb, clock);
  } finally {
    await sb.close();
  }
}

describe('live arrivals', () => {
  it('makes new turns visible as the clock advances (1–10 min after their timestamp)', () =>
    withLive(async (sb, clock) => {
      expect(sb.truth('demo')).toHaveLength(300);
      expect(sb.truth('demo').every((t) => instantOf(t.timestamp) < START)).toBe(true);
      clock.advance(30 * MIN);
      const now = sb.truth('demo');
      const fresh = now.filter((t) => instantOf(t.timestamp) >= START);
      expect(fresh.length).toBeGreaterThan(400);
      expect(fresh.length).toBeLessThan(600);
      expect(fresh.every((t) => instantOf(t.timestamp) <= clock.ms - MIN)).toBe(true);
      // and the API serves the same set
      expect((await readAll(sb)).records.map(turnKey).sort()).toEqual(now.map(turnKey).sort());
    }));

  it('delivers some turns hours late, after every row seen before (timestamp older than rows already served)', () =>
    withLive(async (sb, clock) => {
      clock.advance(30 * MIN);
      const before = sb.truth('demo').map(turnKey);
      clock.advance(5 * 60 * MIN);
      const after = sb.truth('demo');
      expect(after.slice(0, before.length).map(turnKey)).toEqual(before);
      const seen = new Set(before);
      const late = after.filter((t) => !seen.has(turnKey(t)) && instantOf(t.timestamp) < START + 20 * MIN);
      expect(late.length).toBeGreaterThan(2);
    }));

  it('fills in a null category later while the row keeps its position', () =>
    withLive(async (sb, clock) => {
      clock.advance(30 * MIN);
      const early = sb.truth('demo');
      clock.advance(4 * 60 * MIN);
      const later = sb.truth('demo');
      const filled = early
        .map((t, i) => ({ t, i, now: later[i]! }))
        .filter(({ t, now }) => t.queryCategory === null && now.queryCategory !== null);
      expect(filled.length).toBeGreaterThan(10);
      for (const { t, now } of filled) {
        expect(turnKey(now)).toBe(turnKey(t));
        expect({ ...now, queryCategory: null }).toEqual(t);
      }
      // the API shows the change at the same position too
      const page = await call(sb, assistantPath('demo', { limit: 1000 }));
      const { i } = filled[0]!;
      expect(page.json.conversations[i].queryCategory).toBe(later[i]!.queryCategory);
    }));

  it('keeps keyset pages complete and duplicate-free while rows arrive between pages', () =>
    withLive(async (sb, clock) => {
      clock.advance(10 * MIN);
      const atStart = sb.truth('demo').map(turnKey);
      const { records } = await readAll(sb, 'demo', { limit: 100 }, () => clock.advance(2 * MIN));
      const got = records.map(turnKey);
      expect(new Set(got).size).toBe(got.length);
      const gotSet = new Set(got);
      expect(atStart.every((k) => gotSet.has(k))).toBe(true);
      const atEnd = new Set(sb.truth('demo').map(turnKey));
      expect(got.every((k) => atEnd.has(k))).toBe(true);
      expect(got.length).toBeGreaterThan(atStart.length);
    }));

  it('without live mode, advancing the clock changes nothing', () =>
    withLive(async (sb, clock) => {
      const before = sb.truth('demo');
      clock.advance(6 * 60 * MIN);
      expect(sb.truth('demo')).toEqual(before);
    }, false));
});
