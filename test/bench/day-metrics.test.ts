// The day scenario's pure measures (test/bench/day-metrics.ts): ideal requests, windows by purpose,
// and what a coverage map says at an instant (head lag, overdue settle reads, spans never read).
import { describe, expect, it } from 'vitest';
import { addByPurpose, countByPurpose, idealRequests, probeCoverage, share, type CoverageRow } from './day-metrics.js';
import { maxInWindow } from '../helpers/window-stats.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 5);
const settle = { settleAgeMs: 24 * H, settleDueMs: 31 * H };

describe('idealRequests', () => {
  it('is one request per started page of new visible turns', () => {
    expect(idealRequests(0)).toBe(0);
    expect(idealRequests(1)).toBe(1);
    expect(idealRequests(1000)).toBe(1);
    expect(idealRequests(1001)).toBe(2);
    expect(idealRequests(41_667)).toBe(42);
    expect(idealRequests(-5)).toBe(0);
  });
});

describe('countByPurpose', () => {
  it('counts and weighs windows by purpose, every purpose present', () => {
    const ws = [{ purpose: 'head' as const, pages: 2 }, { purpose: 'recheck' as const, pages: 5 }, { purpose: 'head' as const, pages: 1 }];
    const none = { catchup: 0, settle: 0, backfill: 0, sweep: 0, keyed: 0 };
    expect(countByPurpose(ws)).toEqual({ ...none, head: 2, recheck: 1 });
    expect(countByPurpose(ws, (w) => w.pages)).toEqual({ ...none, head: 3, recheck: 5 });
    expect(addByPurpose(countByPurpose(ws), countByPurpose(ws))).toEqual({ ...none, head: 4, recheck: 2 });
  });
});

describe('probeCoverage', () => {
  const now = T0 + 48 * H;
  const from = T0 - 48 * H;

  it('finds the head lag, overdue settle reads and spans never read', () => {
    const rows: CoverageRow[] = [
      // Old, read once 30 h after its end: settled, flagged.
      { from: T0 - 48 * H, to: T0 - 40 * H, readAt: T0 - 10 * H, settled: true },
      // Old (ended 44 h ago), last read 2 h after its end: its settle read is overdue.
      { from: T0 - 6 * H, to: T0 + 4 * H, readAt: T0 + 6 * H, settled: false },
      // Ended 27 h ago: not overdue yet (due at 31 h).
      { from: T0 + 4 * H, to: T0 + 21 * H, readAt: T0 + 22 * H, settled: false },
      // Recent, up to 1 h before now.
      { from: T0 + 40 * H, to: now - H, readAt: now - H, settled: false },
    ];
    const p = probeCoverage(rows, from, now, settle);
    expect(p.headAt).toBe(now - H);
    expect(p.headLagMs).toBe(H);
    expect(p.unsettledOverdueMs).toBe(10 * H);
    expect(p.settledFlagMissingMs).toBe(0);
    // Gaps: [T0-40h, T0-6h) = 34 h, [T0+21h, T0+40h) = 19 h, the last hour; overdue only before now-31h = T0+17h.
    expect(p.unreadMs).toBe(54 * H);
    expect(p.unreadOverdueMs).toBe(34 * H);
  });

  it('tells a settle read whose interval is not flagged settled', () => {
    const rows: CoverageRow[] = [{ from: T0 - 48 * H, to: T0 - 38 * H, readAt: T0 + H, settled: false }];
    const p = probeCoverage(rows, from, now, settle);
    expect(p.unsettledOverdueMs).toBe(0);
    expect(p.settledFlagMissingMs).toBe(10 * H);
  });

  it('reads an empty map as nothing loaded', () => {
    const p = probeCoverage([], from, now, settle);
    expect(p.headAt).toBeNull();
    expect(p.headLagMs).toBeNull();
    expect(p.unreadMs).toBe(96 * H);
  });
});

describe('share and maxInWindow', () => {
  it('counts nothing to measure as all there', () => {
    expect(share(0, 0)).toBe(1);
    expect(share(99, 100)).toBe(0.99);
  });

  it('finds the most requests in any hour of the log', () => {
    const at = [0, 10, 20, H - 1, H, H + 5, 3 * H];
    expect(maxInWindow(at, H)).toBe(5); // (H+5-1h, H+5]: 10, 20, H-1, H, H+5
  });
});
