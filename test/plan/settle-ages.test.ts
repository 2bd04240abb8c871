// The settle rule (plan/schedule.ts settleAges) is the one function the merge calls where a
// completed read enters the coverage map: a pipeline's own re-read schedule wins over the
// configured one; event windows are cut at each re-read age, a day settles whole at the last age.
import { describe, expect, it } from 'vitest';
import { feedback, pageViews, assistantConversations } from '../../pipelines/index.js';
import { applyRead } from '../../src/core/intervals.js';
import { DEFAULT_REREADS, settleAges } from '../../src/sync/plan/reread-schedule.js';

const H = 3_600_000;

describe('settleAges', () => {
  it('an event pipeline without its own schedule is cut at each configured age', () => {
    expect(settleAges(assistantConversations, DEFAULT_REREADS)).toEqual([3 * H, 24 * H]);
    expect(settleAges(assistantConversations, [{ afterMs: 5 * H, withinMs: 0 }])).toEqual([5 * H]);
    expect(settleAges(assistantConversations, [])).toEqual([0]);
  });

  it("an event pipeline's own schedule wins over the configured one", () => {
    expect(settleAges(feedback, DEFAULT_REREADS)).toEqual([3 * H, 24 * H, 7 * 24 * H]);
  });

  it('a day pipeline stays one interval, settled by the last age of its own schedule', () => {
    expect(settleAges(pageViews, DEFAULT_REREADS)).toBe(12 * H);
    expect(settleAges({ time: { granularity: 'day' } }, DEFAULT_REREADS)).toBe(24 * H);
  });

  it('read 16 h after a day ended, a day read settles it whole; an event read of the same span settles only its part older than 24 h', () => {
    const read = { from: 0, to: 24 * H, at: 40 * H, rows: 1 };
    expect(applyRead([], read, settleAges(pageViews, DEFAULT_REREADS)).map((iv) => [iv.from, iv.to, iv.settled])).toEqual([[0, 24 * H, true]]);
    expect(applyRead([], read, settleAges(assistantConversations, DEFAULT_REREADS)).map((iv) => [iv.from, iv.to, iv.settled]))
      .toEqual([[0, 16 * H, true], [16 * H, 24 * H, false]]);
  });
});
