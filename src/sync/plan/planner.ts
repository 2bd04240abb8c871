// The planner of one stream (project and pipeline): turns the coverage map into the windows of a
// run, in the stream's own priority order (design rule 2):
//   resume  the open window, exactly where it stopped;
//   head    from the end of coverage minus a short overlap to now (a first run: the last hour);
//   catchup after a lag, the rest of the span between the end of coverage and the head (the part
//           younger than the settle age; older is backfill), newest first;
//   settle / recheck  due re-reads, adjacent intervals merged so pages are full;
//   backfill older gaps down to `from`, newest first;
//   sweep    the endpoint without dates, when it has undated records, history has no gap left
//            and the last sweep is `sweepEveryMs` old (its estimate: every row read so far).
// Windows are bounded by `maxWindowMs`, by the learned row density (so a window is about
// `windowPages` pages) and by what a bisection learned. Pure: no I/O, no clock.
import { applyRead, gaps, type CoverageInterval } from '../../core/intervals.js';
import { localDays } from '../../core/time-zone.js';
import { BEGINNING, type Purpose, type Window } from '../../core/window.js';
import { dueReread, readAgesMs, settleAgeMs, type RereadStage } from './reread-schedule.js';
import { defaultHistoryFrom } from '../pipeline/definition.js';

export interface PlanConfig {
  now: number;
  /** Backfill down to here; null: all history (see `backfill`). */
  from: number | null;
  maxWindowMs: number;
  headOverlapMs: number;
  /** Target pages of a window once the density is known. */
  windowPages: number;
  rereads: readonly RereadStage[];
  pageSize: number;
  /** A due re-read waits (up to its deadline) until it is worth this many pages. */
  fillPages: number;
  /** Deprecated `--lookback`: re-read this span before the head on every run. */
  lookbackMs?: number;
  /** 'day': windows are whole local days of `timezone` (endpoints that aggregate over a range). */
  granularity?: 'event' | 'day';
  timezone?: string;
  /** 'day' windows: days read when `from` is not set (the pipeline's defaultHistoryDays). */
  historyDays: number;
  /** Pipelines with undated records: sweep every this long (see Purpose 'sweep'). */
  sweepEveryMs?: number;
  /**
   * All history: the start of the oldest week with data, as probed (history-probe.ts); null: no
   * data before the coverage. Nothing older is read as weeks: it is one (empty) window.
   */
  historyStart?: number | null;
}

export interface StreamInput {
  coverage: readonly CoverageInterval[];
  open: (Window & { id: string; pages: number; cursor: string | null; offset: number | null }) | null;
  /** Rows per millisecond of event time, learned from earlier reads; null when unknown. */
  density: number | null;
  windowLimitMs: number | null;
  /** When the last sweep completed (ms), null: never. */
  sweptAt?: number | null;
}

export interface PlannedWindow extends Window {
  estRequests: number;
  /**
   * A settle read still within its slack: planned after the windows that cannot wait and deferred
   * when the budget is short; at its deadline it can no longer wait.
   */
  canWait?: boolean;
  /** Set for the open window: continue it from here, under its id. */
  resume?: { id: string; cursor: string | null; offset: number | null; pages: number };
}

/** The first head when nothing is known about the stream: short, so a busy site is fresh at once. */
export const FIRST_HEAD_MS = 3_600_000;
/** Catch-up covers a lag up to at least this age (or the settle age, if longer); older is backfill. */
const CATCHUP_MIN_AGE_MS = 86_400_000;
/** Windows are not cut finer than this (bisection stops there too). */
export const MIN_WINDOW_MS = 60_000;
/** Most backfill windows one plan lists (a run rarely has budget for more). */
const MAX_BACKFILL_WINDOWS = 500;
/**
 * All history (no --from) is read back in steps until a step comes back empty; the part older than
 * this many steps below the newest gap is planned as one window (bisected if the API cannot take it).
 */
const MAX_HISTORY_STEPS = 52;

export function planStream(s: StreamInput, c: PlanConfig): PlannedWindow[] {
  if (c.granularity === 'day') return planDays(s, c);
  const out: PlannedWindow[] = [];
  const est = (from: number, to: number) => (s.density === null ? 1 : Math.max(1, Math.ceil((s.density * (to - from)) / c.pageSize)));
  const span = spanLimit(s, c);
  let map: CoverageInterval[] = [...s.coverage];
  if (s.open) {
    const { from, to, purpose, id, cursor, offset, pages } = s.open;
    out.push({ from, to, purpose, estRequests: Math.max(1, est(from.getTime(), to.getTime()) - pages), resume: { id, cursor, offset, pages } });
    // Planned as if read now, so no other window repeats it.
    map = applyRead(map, { from: from.getTime(), to: to.getTime(), at: c.now, rows: null }, readAgesMs(c.rereads));
  }
  const end = map.length ? Math.max(...map.map((iv) => iv.to)) : null;
  const lower = c.from ?? BEGINNING.getTime();

  // Head.
  const headSpan = end === null && s.density === null ? Math.min(span, FIRST_HEAD_MS) : span;
  const floor = Math.max(end === null ? lower : end - c.headOverlapMs - (c.lookbackMs ?? 0), lower);
  const headFrom = Math.max(floor, c.now - headSpan);
  if (headFrom < c.now) {
    out.push(window(headFrom, c.now, 'head', est));
    map = applyRead(map, { from: headFrom, to: c.now, at: c.now, rows: null }, Number.MAX_SAFE_INTEGER);
  }
  // Catch-up: a lag longer than a head window leaves a span between the end of coverage and the
  // head. Its young part is read next (it has not had its first read yet, so nothing of it is in
  // the warehouse); what is older than the settle age is plain backfill.
  const catchupFloor = Math.max(floor, c.now - Math.max(settleAgeMs(c.rereads), CATCHUP_MIN_AGE_MS));
  if (end !== null && catchupFloor < headFrom) {
    for (const g of gaps(map, catchupFloor, headFrom).reverse()) {
      out.push(...split(g.from, g.to, span, 'catchup', est));
      map = applyRead(map, { from: g.from, to: g.to, at: c.now, rows: null }, Number.MAX_SAFE_INTEGER);
    }
  }

  // Re-reads due, settle first (the mandatory one), then rechecks; adjacent intervals read together.
  for (const purpose of ['settle', 'recheck'] as const) {
    for (const run of dueRuns(map, c, purpose)) {
      const rows = s.density === null ? 0 : s.density * (run.to - run.from);
      if (run.deadline > c.now && rows < c.fillPages * c.pageSize) continue;
      const windows = split(run.from, run.to, span, purpose, est);
      out.push(...(purpose === 'settle' && run.deadline > c.now ? windows.map((w) => ({ ...w, canWait: true })) : windows));
    }
  }

  // Backfill of gaps down to `from`, newest first.
  const backfill: PlannedWindow[] = [];
  for (const g of gaps(map, lower, c.now).reverse()) {
    for (let to = g.to, step = 0; to > g.from && backfill.length < MAX_BACKFILL_WINDOWS; step++) {
      const from = Math.max(g.from, to - span);
      // All history (no --from): once a window of old data came back empty, the rest is one window
      // (its estimate is one request: the data above it ran out); so is what lies beyond the steps.
      const rest = c.from === null && g.from === lower && (bottomIsEmpty(map, to) || step >= MAX_HISTORY_STEPS || olderThanHistory(c, to));
      backfill.push(rest ? { ...window(g.from, to, 'backfill', est), estRequests: 1 } : window(from, to, 'backfill', est));
      to = rest ? g.from : from;
    }
  }
  if (c.sweepEveryMs !== undefined && !backfill.length && !s.open && (s.sweptAt ?? -Infinity) <= c.now - c.sweepEveryMs) {
    // Every row stored: counted where intervals know their rows, else the density over the span.
    const counted = s.coverage.reduce((n, iv) => n + (iv.rows ?? 0), 0);
    const start = s.coverage.find((iv) => iv.rows !== 0)?.from;
    const rows = Math.max(counted, s.density !== null && start !== undefined ? s.density * (c.now - start) : 0);
    backfill.push({ from: BEGINNING, to: new Date(c.now), purpose: 'sweep', estRequests: Math.max(1, Math.ceil((rows + 1) / c.pageSize)) });
  }
  return [...out, ...backfill];
}

/** Longest window: the configured maximum, the learned density's `windowPages`, a bisection's limit. */
function spanLimit(s: StreamInput, c: PlanConfig): number {
  let span = c.maxWindowMs;
  if (s.density !== null && s.density > 0) span = Math.min(span, (c.windowPages * c.pageSize) / s.density);
  if (s.windowLimitMs !== null) span = Math.min(span, s.windowLimitMs);
  return Math.max(MIN_WINDOW_MS, Math.floor(span));
}

interface DueRun {
  from: number;
  to: number;
  deadline: number;
}

/** Contiguous intervals with a re-read of this purpose due, as runs (deadline: the earliest). */
function dueRuns(map: readonly CoverageInterval[], c: PlanConfig, purpose: 'settle' | 'recheck'): DueRun[] {
  const runs: DueRun[] = [];
  for (const iv of map) {
    if (iv.settled) continue;
    const due = dueReread(c.rereads, iv.to, iv.readAt, c.now);
    if (!due || due.purpose !== purpose) continue;
    const last = runs.at(-1);
    if (last && last.to === iv.from) {
      last.to = iv.to;
      last.deadline = Math.min(last.deadline, due.deadline);
    } else runs.push({ from: iv.from, to: iv.to, deadline: due.deadline });
  }
  return runs;
}

/** The probe found no data before `at` (history starts later). */
function olderThanHistory(c: PlanConfig, at: number): boolean {
  return c.historyStart !== undefined && (c.historyStart === null || at <= c.historyStart);
}

function bottomIsEmpty(map: readonly CoverageInterval[], at: number): boolean {
  const below = map.find((iv) => iv.from === at);
  return below !== undefined && below.rows === 0;
}

function split(from: number, to: number, span: number, purpose: Purpose, est: (f: number, t: number) => number): PlannedWindow[] {
  const out: PlannedWindow[] = [];
  for (let end = to; end > from;) {
    const start = Math.max(from, end - span);
    out.push(window(start, end, purpose, est));
    end = start;
  }
  return out;
}

function window(from: number, to: number, purpose: Purpose, est: (f: number, t: number) => number): PlannedWindow {
  return { from: new Date(from), to: new Date(to), purpose, estRequests: est(from, to) };
}

/**
 * Endpoints that aggregate over the requested range are read one complete local day at a time
 * (today is not complete yet): the newest day not read yet is the head, days due for their re-read
 * (once the day's late data has settled) come next, older days not read yet are backfill, newest
 * first. Days are never merged into one window: each is its own request.
 */
function planDays(s: StreamInput, c: PlanConfig): PlannedWindow[] {
  const out: PlannedWindow[] = [];
  const est = (from: number, to: number) => (s.density === null ? 1 : Math.max(1, Math.ceil((s.density * (to - from)) / c.pageSize)));
  let map: CoverageInterval[] = [...s.coverage];
  if (s.open) {
    const { from, to, purpose, id, cursor, offset, pages } = s.open;
    out.push({ from, to, purpose, estRequests: Math.max(1, est(from.getTime(), to.getTime()) - pages), resume: { id, cursor, offset, pages } });
    map = applyRead(map, { from: from.getTime(), to: to.getTime(), at: c.now, rows: null }, settleAgeMs(c.rereads));
  }
  const lower = c.from ?? defaultHistoryFrom({ defaultHistoryDays: c.historyDays }, c.now);
  const days = localDays(lower, c.now, c.timezone ?? 'UTC').reverse();
  const covering = (d: { from: number; to: number }) => map.find((iv) => iv.from <= d.from && iv.to >= d.to);
  let headTaken = false;
  const rereads: PlannedWindow[] = [];
  const backfill: PlannedWindow[] = [];
  for (const d of days) {
    const iv = covering(d);
    if (!iv) {
      const w = window(d.from, d.to, headTaken ? 'backfill' : 'head', est);
      headTaken = true;
      (w.purpose === 'head' ? out : backfill).push(w);
      continue;
    }
    headTaken = true;
    const due = iv.settled ? null : dueReread(c.rereads, d.to, iv.readAt, c.now);
    if (due) rereads.push(window(d.from, d.to, due.purpose, est));
  }
  return [...out, ...rereads.sort((a, b) => Number(a.purpose === 'recheck') - Number(b.purpose === 'recheck')), ...backfill.slice(0, MAX_BACKFILL_WINDOWS)];
}
