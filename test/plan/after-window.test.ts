// What the plan does after a window ends (src/sync/plan/after-window.ts): learn from a complete one,
// collapse the bottom of history, read a failed day whole once more, bisect a window too large for
// the API, or fail the stream. One row per rule a user sees in a run's outcome.
import { describe, expect, it } from 'vitest';
import type { Learned } from '../../src/sync/plan/admission.js';
import { afterWindow, type NextStep, type WindowResult } from '../../src/sync/plan/after-window.js';
import type { PlanEntry } from '../../src/sync/plan/plan-entry.js';
import type { PlanStream } from '../../src/sync/plan/plan-stream.js';
import { FEEDBACK, H, VIEWS, entry, show } from './plan-fixtures.js';

type Stream = Pick<PlanStream, 'pipeline' | 'from'>;
const allHistory: Stream = { pipeline: FEEDBACK, from: null };
const fromSet: Stream = { pipeline: FEEDBACK, from: new Date(0) };
const days: Stream = { pipeline: VIEWS, from: null };
const day = (more: Partial<PlanEntry> = {}) => ({ ...entry('backfill', 0, 24, 3), pipeline: 'page_views', ...more });
const resumed = (e: PlanEntry): PlanEntry => ({ ...e, window: { ...e.window, resume: { id: 'w', cursor: 'c', offset: null, pages: 2 } } });
const empty: WindowResult = { kind: 'complete', records: 0, requests: 1 };
const tooLarge: WindowResult = { kind: 'too-large' };
const head = entry('head', 100, 101, 1);
/** The rest of an all-history backfill, newest first, with another stream's window among it. */
const steps = [head, entry('backfill', 48, 72, 1), entry('backfill', 24, 48, 1, { projectId: 'q' }), entry('backfill', 24, 48, 1), entry('backfill', 0, 24, 1)];
const learnedBefore: Learned = { rows: 100, span: H, windows: 1, requests: 2 };

/** What the run does next, in the words of its log, and the queue it reads from then on. */
function step(n: NextStep): string {
  if (n.kind === 'fail') return 'fail';
  const limit = n.kind === 'bisect' ? ` (limit ${n.windowLimitMs / H}h)` : '';
  return `${n.kind}${limit}: ${n.queue.map(show).join(' | ')}`;
}

const rows: Array<{ name: string; e: PlanEntry; r: WindowResult; s: Stream; queue: PlanEntry[]; want: string }> = [
  { name: 'all history read back to an empty window: the older steps of the stream become one window down to the beginning, where the first stood', e: entry('backfill', 72, 96, 1), r: empty, s: allHistory, queue: steps,
    want: 'complete: head [100h,101h) est 1 | backfill [beginning,72h) est 1 | q/feedback backfill [24h,48h) est 1' },
  { name: 'with --from an empty backfill window does not end history: the steps stay', e: entry('backfill', 72, 96, 1), r: empty, s: fromSet, queue: steps, want: `complete: ${steps.map(show).join(' | ')}` },
  { name: 'a backfill window with records does not end history', e: entry('backfill', 72, 96, 1), r: { kind: 'complete', records: 5, requests: 1 }, s: allHistory, queue: steps, want: `complete: ${steps.map(show).join(' | ')}` },
  { name: 'an empty head does not end history', e: entry('head', 72, 96, 1, { optional: false }), r: empty, s: allHistory, queue: steps, want: `complete: ${steps.map(show).join(' | ')}` },
  { name: 'a day window that fails is read whole once more, first, from its start', e: resumed(day()), r: tooLarge, s: days, queue: [head], want: 'retry-day: p/page_views backfill [0h,24h) est 3 retried | head [100h,101h) est 1' },
  { name: 'a day window that fails twice fails its stream (the day is planned again next run)', e: day({ retried: true }), r: tooLarge, s: days, queue: [head], want: 'fail' },
  { name: 'a day window is never cut in half days', e: entry('backfill', 0, 24, 3), r: tooLarge, s: days, queue: [], want: 'retry-day: backfill [0h,24h) est 3 retried' },
  { name: 'a window too large for the API is read as two halves, newer first, and later windows of the stream are no longer than a half', e: resumed(entry('backfill', 0, 24, 7)), r: tooLarge, s: allHistory, queue: [head],
    want: 'bisect (limit 12h): backfill [12h,24h) est 4 | backfill [0h,12h) est 4 | head [100h,101h) est 1' },
  { name: 'the halves of a window cut to fit are admitted again like any window (not flagged cut)', e: entry('backfill', 0, 2, 3, { cut: true }), r: tooLarge, s: allHistory, queue: [],
    want: 'bisect (limit 1h): backfill [1h,2h) est 2 | backfill [0h,1h) est 2' },
  { name: 'a window already near the shortest span fails its stream instead of bisecting', e: entry('backfill', 0, 1.5 / 60, 1), r: tooLarge, s: allHistory, queue: [], want: 'fail' },
  { name: 'a sweep has no dates to halve: it fails its stream and is planned again next run', e: entry('sweep', 0, 100, 1), r: tooLarge, s: allHistory, queue: [], want: 'fail' },
  { name: 'a keyed read has no dates to halve: it fails its stream', e: entry('keyed', 0, 100, 1), r: tooLarge, s: allHistory, queue: [], want: 'fail' },
];

describe('afterWindow', () => {
  it.each(rows)('$name', ({ e, r, s, queue, want }) => {
    expect(step(afterWindow(e, r, s, undefined, queue))).toBe(want);
  });

  const learning: Array<{ name: string; e: PlanEntry; want: Learned | undefined }> = [
    { name: 'a complete window teaches the run its stream\'s density and cost', e: entry('backfill', 0, 24, 24), want: { rows: 2500, span: 25 * H, windows: 2, requests: 26 } },
    { name: 'a resumed window teaches nothing (its rows are only the rest of it)', e: resumed(entry('backfill', 0, 24, 24)), want: learnedBefore },
    { name: 'the open-ended bottom of history (over a month) says nothing about density', e: entry('backfill', 0, 32 * 24, 24), want: learnedBefore },
    { name: 'a sweep says nothing about density (no dates)', e: entry('sweep', 0, 24, 24), want: learnedBefore },
  ];
  it.each(learning)('$name', ({ e, want }) => {
    const next = afterWindow(e, { kind: 'complete', records: 2400, requests: 24 }, fromSet, learnedBefore, []);
    expect(next.kind === 'complete' ? next.learned : 'not complete').toEqual(want);
  });

  it('a complete window leaves the rest of the queue as it was (the same list)', () => {
    const next = afterWindow(entry('backfill', 72, 96, 1), { kind: 'complete', records: 3, requests: 1 }, allHistory, undefined, steps);
    expect(next.kind === 'complete' && next.queue).toBe(steps);
  });
});
