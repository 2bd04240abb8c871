// The coverage map's interval arithmetic: reads update only what they overlap, keep each
// interval's own schedule, add what was not covered, and join settled neighbours.
import { describe, expect, it } from 'vitest';
import { applyRead, coalesce, gaps, type CoverageInterval } from '../../src/core/intervals.js';

const H = 3_600_000;
const iv = (from: number, to: number, readAt: number, extra: Partial<CoverageInterval> = {}): CoverageInterval => ({
  from: from * H, to: to * H, firstReadAt: readAt * H, readAt: readAt * H, reads: 1, rows: null, settled: false, ...extra,
});
const shape = (m: CoverageInterval[]) => m.map((x) => [x.from / H, x.to / H, x.readAt / H, x.reads, x.settled]);

describe('coverage intervals', () => {
  it('a read over nothing adds one interval with its row count', () => {
    const m = applyRead([], { from: 0, to: 2 * H, at: 3 * H, rows: 42 }, 24 * H);
    expect(shape(m)).toEqual([[0, 2, 3, 1, false]]);
    expect(m[0]!.rows).toBe(42);
  });

  it('a head overlapping the last interval splits it: only the overlap takes the new read', () => {
    const m = applyRead([iv(0, 10, 10)], { from: 9.5 * H, to: 12 * H, at: 12 * H, rows: 5 }, 24 * H);
    expect(shape(m)).toEqual([[0, 9.5, 10, 1, false], [9.5, 10, 12, 2, false], [10, 12, 12, 1, false]]);
  });

  it('a re-read over several intervals keeps their boundaries (each keeps its own schedule)', () => {
    const m = applyRead([iv(0, 1, 1), iv(1, 2, 2), iv(2, 3, 3)], { from: 0, to: 3 * H, at: 6 * H, rows: 9 }, 24 * H);
    expect(shape(m)).toEqual([[0, 1, 6, 2, false], [1, 2, 6, 2, false], [2, 3, 6, 2, false]]);
  });

  it('a read at least the settle age after an interval ends settles it; settled neighbours join', () => {
    const m = applyRead([iv(0, 1, 1), iv(1, 2, 2)], { from: 0, to: 2 * H, at: 30 * H, rows: 9 }, 24 * H);
    expect(shape(m)).toEqual([[0, 2, 30, 2, true]]);
  });

  it('a read is cut at the re-read ages: its older parts are not read again for those stages', () => {
    // Read at 30 h, window [0, 29): [0, 6) is past the settle age (24 h), [6, 27) past the recheck
    // age (3 h), [27, 29) young.
    const m = applyRead([], { from: 0, to: 29 * H, at: 30 * H, rows: 9000 }, [3 * H, 24 * H]);
    expect(shape(m)).toEqual([[0, 6, 30, 1, true], [6, 27, 30, 1, false], [27, 29, 30, 1, false]]);
    expect(m.map((x) => x.rows)).toEqual([null, null, null]);
  });

  it('a part cut off an interval by a read is settled once its new end is old enough', () => {
    // Last read at 27 h: [0, 20) was 7 h old then (not settled), [0, 2) was 25 h old. It joins the
    // settled part of the new read ([2, 6): 24 h old at 30 h); [6, 20) is not settled.
    const m = applyRead([iv(0, 20, 27)], { from: 2 * H, to: 20 * H, at: 30 * H, rows: 1 }, [24 * H]);
    expect(shape(m)).toEqual([[0, 6, 30, 1, true], [6, 20, 30, 2, false]]);
    // With the settle age alone (a day window), a read is never cut: [0, 2) stands apart, settled.
    const day = applyRead([iv(0, 20, 27)], { from: 2 * H, to: 20 * H, at: 30 * H, rows: 1 }, 24 * H);
    expect(shape(day)).toEqual([[0, 2, 27, 1, true], [2, 20, 30, 2, false]]);
  });

  it('an empty settled interval stays apart: it marks where history ran out', () => {
    const m = coalesce([iv(0, 1, 50, { settled: true, rows: 0 }), iv(1, 2, 50, { settled: true, rows: 7 })]);
    expect(m).toHaveLength(2);
  });

  it.each([
    [[iv(2, 4, 5)], 0, 6, [[0, 2], [4, 6]]],
    [[iv(0, 6, 7)], 0, 6, []],
    [[], 1, 3, [[1, 3]]],
    [[iv(0, 1, 1), iv(3, 4, 5)], 0, 5, [[1, 3], [4, 5]]],
  ])('gaps of %j in [%d, %d)', (map, from, to, want) => {
    expect(gaps(map, from * H, to * H).map((g) => [g.from / H, g.to / H])).toEqual(want);
  });
});
