// Admission of the window at the head of the run's queue (src/sync/plan/admission.ts): run it, re-split
// it, defer it, or read its newest part that fits. One row per rule a user sees in a run's outcome.
import { describe, expect, it } from 'vitest';
import { admit, mayContinue, readCap, type Admission, type AdmitContext, type Learned } from '../../src/sync/plan/admission.js';
import { NO_DEFERRALS, defer } from '../../src/sync/plan/deferral.js';
import { MIN_PAGE_CAP } from '../../src/sync/plan/page-cap.js';
import type { PlanEntry } from '../../src/sync/plan/plan-entry.js';
import type { PlanStream } from '../../src/sync/plan/plan-stream.js';
import { FEEDBACK, H, PAGE_AN_HOUR, VIEWS, entry, show } from './plan-fixtures.js';

type Stream = Pick<PlanStream, 'pipeline' | 'density'>;
const feedback = (density: number | null): Stream => ({ pipeline: FEEDBACK, density });
const views: Stream = { pipeline: VIEWS, density: null };
const budget = (n: number) => () => n;

/** What a user would read in the run's log: run, read as parts, or wait (with the part read now). */
function outcome(a: Admission): string {
  if (a.kind === 'run') return 'run';
  if (a.kind === 'split') return `split: ${a.entries.map(show).join(' | ')}`;
  return a.entries.length ? `defer, read now: ${a.entries.map(show).join(' | ')}` : 'defer';
}

const waitingBackfill = defer(NO_DEFERRALS, entry('backfill', 24, 48, 1));
const otherStreamBackfill = defer(NO_DEFERRALS, entry('backfill', 24, 48, 1, { projectId: 'q' }));
const otherStreamRecheck = defer(NO_DEFERRALS, entry('recheck', 24, 48, 1, { projectId: 'q' }));
const otherStreamSettle = defer(NO_DEFERRALS, entry('settle', 24, 48, 1, { projectId: 'q', optional: true }));
const learnedTenPagesAnHour: Learned = { rows: 2000, span: 2 * H, windows: 1, requests: 20 };
const cut = entry('backfill', 16, 24, 9, { cut: true });
/** A window a run left open (paused or stopped), as the planner lists it: resumed from its cursor. */
const open = (purpose: Parameters<typeof entry>[0], fromH: number, toH: number, est: number): PlanEntry => {
  const e = entry(purpose, fromH, toH, est);
  return { ...e, window: { ...e.window, resume: { id: 'w', cursor: 'c', offset: null, pages: 2 } } };
};

const rows: Array<{ name: string; e: PlanEntry; s: Stream; ctx: Partial<AdmitContext>; want: string }> = [
  { name: 'a head runs even with no budget left (a budget stop is reported instead)', e: entry('head', 0, 1, 5), s: feedback(null), ctx: { budgetLeft: budget(0) }, want: 'run' },
  { name: 'an open head is resumed whatever the budget left', e: open('head', 0, 1, 5), s: feedback(null), ctx: { budgetLeft: budget(0) }, want: 'run' },
  { name: 'an open backfill window waits while nothing is left above the reserve', e: open('backfill', 0, 24, 5), s: feedback(null), ctx: { budgetLeft: budget(0) }, want: 'defer' },
  { name: 'an open backfill window larger than what is left runs anyway: it pauses again at the reserve, so it advances run by run instead of waiting for an hour that never has room for all of it', e: open('backfill', 0, 24, 24), s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(3) }, want: 'run' },
  { name: 'an open backfill window is resumed as it is: never re-split, never cut (it continues from its cursor)', e: open('backfill', 0, 24, 5), s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(5), windowPages: 2 }, want: 'run' },
  { name: "an open backfill window held back by an earlier deferral of its stream waits (gaps are read newest first)", e: open('backfill', 0, 24, 5), s: feedback(null), ctx: { budgetLeft: budget(100), deferrals: otherStreamRecheck }, want: 'defer' },
  { name: 'an optional backfill whose estimate fits the budget left runs', e: entry('backfill', 0, 24, 3), s: feedback(null), ctx: { budgetLeft: budget(10) }, want: 'run' },
  { name: 'without a live budget every planned window runs (the plan already chose)', e: entry('backfill', 0, 24, 1000), s: feedback(null), ctx: { budgetLeft: null }, want: 'run' },
  { name: 'a backfill that no longer fits the budget left waits for a later run', e: entry('backfill', 0, 24, 5), s: feedback(null), ctx: { budgetLeft: budget(2) }, want: 'defer' },
  { name: 'a backfill too large for what is left is read in part: its newest part within 80% of the budget, flagged cut; the rest waits', e: entry('backfill', 0, 24, 24), s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(11) }, want: 'defer, read now: backfill [16h,24h) est 9 cut' },
  { name: 'a backfill is not cut to less than two pages: it waits whole', e: entry('backfill', 0, 24, 24), s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(3) }, want: 'defer' },
  { name: 'a window re-estimated with the density this run learned no longer fits: its newest part that fits is read', e: entry('backfill', 0, 10, 1), s: feedback(null), ctx: { budgetLeft: budget(50), learned: learnedTenPagesAnHour }, want: 'defer, read now: backfill [6.1h,10h) est 40 cut' },
  { name: 'the same window fits while the run has learned nothing of its stream', e: entry('backfill', 0, 10, 1), s: feedback(null), ctx: { budgetLeft: budget(50) }, want: 'run' },
  { name: 'a backfill planned before its density was known is read as windows of about windowPages pages, newest first', e: entry('backfill', 16, 24, 8), s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(100), windowPages: 2 }, want: 'split: backfill [22h,24h) est 2 | backfill [20h,22h) est 2 | backfill [18h,20h) est 2 | backfill [16h,18h) est 2' },
  { name: 'a catch-up window is re-split like backfill', e: entry('catchup', 16, 24, 1), s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(0), windowPages: 4 }, want: 'split: catchup [20h,24h) est 4 | catchup [16h,20h) est 4' },
  { name: 'a window cut to fit is never re-split', e: cut, s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(100), windowPages: 2 }, want: 'run' },
  { name: "a window cut to fit runs though its stream's other backfill waits and the budget moved", e: cut, s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(0), deferrals: waitingBackfill }, want: 'run' },
  { name: "once a backfill window waits, its stream's older backfill waits too, even if it fits (gaps are read newest first)", e: entry('backfill', 0, 24, 1), s: feedback(null), ctx: { budgetLeft: budget(100), deferrals: waitingBackfill }, want: 'defer' },
  { name: "a backfill window held back by an earlier deferral is not cut to fit", e: entry('backfill', 0, 24, 24), s: feedback(PAGE_AN_HOUR), ctx: { budgetLeft: budget(11), deferrals: waitingBackfill }, want: 'defer' },
  { name: "a backfill that waits does not hold back another stream's backfill that fits", e: entry('backfill', 0, 24, 1), s: feedback(null), ctx: { budgetLeft: budget(100), deferrals: otherStreamBackfill }, want: 'run' },
  { name: "a backfill that waits no longer holds back its stream's recheck (waiting is per purpose)", e: entry('recheck', 24, 48, 1), s: feedback(null), ctx: { budgetLeft: budget(100), deferrals: waitingBackfill }, want: 'run' },
  { name: 'a recheck that waits holds back every backfill, however small (re-reads before backfill, issue 19)', e: entry('backfill', 0, 24, 1), s: feedback(null), ctx: { budgetLeft: budget(100), deferrals: otherStreamRecheck }, want: 'defer' },
  { name: 'a recheck that waits holds back the sweep', e: entry('sweep', 0, 48, 1), s: feedback(null), ctx: { budgetLeft: budget(100), deferrals: otherStreamRecheck }, want: 'defer' },
  { name: 'a settle read that waits holds back no recheck that fits', e: entry('recheck', 24, 48, 1), s: feedback(null), ctx: { budgetLeft: budget(100), deferrals: otherStreamSettle }, want: 'run' },
  { name: "a day window costing what the run's earlier days cost no longer fits: it waits whole, never cut", e: { ...entry('backfill', 0, 24, 1), pipeline: 'page_views' }, s: views, ctx: { budgetLeft: budget(4), learned: { rows: 500, span: 48 * H, windows: 2, requests: 10 } }, want: 'defer' },
  { name: 'a day window fits while the earlier days were cheap', e: { ...entry('backfill', 0, 24, 1), pipeline: 'page_views' }, s: views, ctx: { budgetLeft: budget(5), learned: { rows: 500, span: 48 * H, windows: 2, requests: 10 } }, want: 'run' },
];

describe('admit', () => {
  it.each(rows)('$name', ({ e, s, ctx, want }) => {
    expect(outcome(admit(e, s, { learned: undefined, deferrals: NO_DEFERRALS, budgetLeft: null, ...ctx }))).toBe(want);
  });

  it('a deferral is remembered for what follows: the returned deferrals hold back the stream\'s next backfill', () => {
    const first = admit(entry('backfill', 24, 48, 5), feedback(null), { learned: undefined, deferrals: NO_DEFERRALS, budgetLeft: budget(2) });
    expect(first.kind).toBe('defer');
    const deferrals = first.kind === 'defer' ? first.deferrals : NO_DEFERRALS;
    expect(outcome(admit(entry('backfill', 0, 24, 1), feedback(null), { learned: undefined, deferrals, budgetLeft: budget(2) }))).toBe('defer');
  });

  it('an optional window being read may send its next request only while the budget left is above the reserve; a window that cannot wait always may', () => {
    expect(mayContinue(entry('backfill', 0, 24, 5), budget(1))).toBe(true);
    expect(mayContinue(entry('backfill', 0, 24, 5), budget(0))).toBe(false);
    expect(mayContinue(open('backfill', 0, 24, 5), budget(-3))).toBe(false);
    expect(mayContinue(entry('head', 0, 1, 5), budget(0))).toBe(true);
    expect(mayContinue(entry('backfill', 0, 24, 5), null)).toBe(true);
  });

  it('reads the budget only when a fit is in question (a file budget store reads its log on each call)', () => {
    let reads = 0;
    const counted = () => { reads++; return 0; };
    admit(entry('head', 0, 1, 5), feedback(null), { learned: undefined, deferrals: NO_DEFERRALS, budgetLeft: counted });
    admit(entry('backfill', 0, 24, 1), feedback(null), { learned: undefined, deferrals: waitingBackfill, budgetLeft: counted });
    expect(reads).toBe(0);
  });

  it("caps a window's read at its estimate made again with what the run learned: a week planned at one request, read after a head that showed ten pages an hour, may take its 1,680 pages", () => {
    const week = entry('backfill', 0, 168, 1);
    // Learned nothing: the plan's guess of one request, so the floor.
    expect(readCap(week, feedback(null), undefined)).toBe(MIN_PAGE_CAP);
    // A first head said ten pages an hour: 1,680 pages for the week, with the margin of a guess
    // from one night hour (16); a day or more of reads, or an earlier run's density: the margin 4.
    expect(readCap(week, feedback(null), learnedTenPagesAnHour)).toBe(16 * 1680 + 10);
    expect(readCap(week, feedback(null), { ...learnedTenPagesAnHour, rows: 24_000, span: 24 * H })).toBe(4 * 1680 + 10);
    expect(readCap(week, feedback(PAGE_AN_HOUR), learnedTenPagesAnHour)).toBe(4 * 1680 + 10);
    // What earlier runs found counts too; a resumed window's pages already read are taken off.
    expect(readCap(week, feedback(PAGE_AN_HOUR), undefined)).toBe(4 * 168 + 10);
    expect(readCap(open('backfill', 0, 168, 1), feedback(PAGE_AN_HOUR), undefined)).toBe(4 * 166 + 10);
    // Never below the plan's own estimate.
    expect(readCap(entry('backfill', 0, 1, 50), feedback(PAGE_AN_HOUR), undefined)).toBe(4 * 50 + 10);
  });
});
