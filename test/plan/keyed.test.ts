// Keyed reads in the organization's plan: one request per key, after every other window, optional
// (deferred when the budget does not fit), and only the keys given.
import { describe, expect, it } from 'vitest';
import { planKeys, MAX_KEYED_WINDOWS } from '../../src/sync/plan/keyed.js';
import { planOrg } from '../../src/sync/plan/org-plan.js';
import { planStream, type PlanConfig } from '../../src/sync/plan/planner.js';
import { DEFAULT_REREADS } from '../../src/sync/plan/reread-schedule.js';
import { DEFAULT_HISTORY_DAYS } from '../../src/sync/pipeline/definition.js';

const NOW = Date.parse('2026-11-10T12:00:00Z');
const cfg: PlanConfig = {
  now: NOW, from: NOW - 3 * 86_400_000, maxWindowMs: 86_400_000, headOverlapMs: 600_000, windowPages: 50, rereads: DEFAULT_REREADS,
  pageSize: 1000, fillPages: 10, historyDays: DEFAULT_HISTORY_DAYS,
};

describe('keyed windows', () => {
  it('are one request per distinct key, in the order given, without dates', () => {
    const ws = planKeys(['b', 'a', 'b'], NOW);
    expect(ws.map((w) => [w.purpose, w.key, w.estRequests, w.from.getTime(), w.to.getTime()])).toEqual([
      ['keyed', 'b', 1, 0, NOW], ['keyed', 'a', 1, 0, NOW],
    ]);
    expect(planKeys(Array.from({ length: MAX_KEYED_WINDOWS + 5 }, (_, i) => `k${i}`), NOW)).toHaveLength(MAX_KEYED_WINDOWS);
  });

  it('rank after backfill and sweeps, whatever their priority, and are deferred when the budget does not fit', () => {
    const dated = planStream({ coverage: [], open: null, density: null, windowLimitMs: null }, cfg);
    const streams = [
      { projectId: 'p', pipeline: 'keyed', priority: -1, windows: planKeys(['k1', 'k2', 'k3'], NOW) },
      { projectId: 'p', pipeline: 'dated', priority: 5, windows: dated },
    ];
    const all = planOrg(streams, 1000);
    expect(all.selected.map((e) => e.window.purpose)).toEqual([...dated.map((w) => w.purpose), 'keyed', 'keyed', 'keyed']);
    expect(all.selected.filter((e) => e.window.purpose === 'keyed').every((e) => e.optional)).toBe(true);
    // The head is always planned; what is left (minus the head's reserve) goes to backfill, then keys.
    const short = planOrg(streams, 1 + 1 + (dated.length - 1) + 2);
    expect(short.selected.filter((e) => e.window.purpose === 'keyed').map((e) => e.window.key)).toEqual(['k1', 'k2']);
    expect(short.deferred.map((e) => e.window.key)).toEqual(['k3']);
  });
});
