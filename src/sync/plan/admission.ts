// Whether the window at the head of the run's queue runs now, and how large: re-split when it was
// planned before the stream's density was known, deferred (the one rule of deferral.ts) when an
// earlier deferral holds it back or its estimate, made again with what the run learned, no longer
// fits the budget left, cut to its newest part that fits when it is a backfill window too large for
// what is left; and how many pages its read may take (readCap). Pure: the budget left is read
// through `budgetLeft` only when a fit is in question (a file budget store reads its log on each
// call).
import { isDated, spanMs } from '../../core/window.js';
import { pageSize } from '../pipeline/definition.js';
import { defer, heldBack, type Deferrals } from './deferral.js';
import { plain, type PlanEntry } from './plan-entry.js';
import type { PlanStream } from './plan-stream.js';
import { HEAD_ONLY_MARGIN, MARGIN, pageCap } from './page-cap.js';
import { MIN_WINDOW_MS } from './planner.js';

/** Windows longer than this (the open-ended bottom of history) say little about density. */
export const LEARN_MAX_SPAN_MS = 31 * 86_400_000;

/** What the run's complete windows of a stream say about the next ones. */
export interface Learned { rows: number; span: number; windows: number; requests: number }

/** What admission reads of the stream: its pipeline and the density earlier runs found. */
export type AdmitStream = Pick<PlanStream, 'pipeline' | 'density'>;

export interface AdmitContext {
  /** What this run's complete windows of the stream found (undefined: none yet). */
  learned: Learned | undefined;
  deferrals: Deferrals;
  /** Requests the organization can still send without waiting too long; null: no live budget. */
  budgetLeft: (() => number) | null;
  /** Target pages of a window once the density is known; unset or 0: no re-split. */
  windowPages?: number;
}

export type Admission =
  | { kind: 'run' }
  /** Read these instead, in order (newest first). */
  | { kind: 'split'; entries: PlanEntry[] }
  /** Deferred to a later run; `entries`: its newest part cut to fit (read now), or none. */
  | { kind: 'defer'; deferrals: Deferrals; entries: PlanEntry[] };

const RUN: Admission = { kind: 'run' };

export function admit(e: PlanEntry, s: AdmitStream, ctx: AdmitContext): Admission {
  const parts = ctx.windowPages && !e.cut ? resplit(e, rowsPerMs(s, ctx.learned), ctx.windowPages, pageSize(s.pipeline)) : null;
  if (parts) return { kind: 'split', entries: parts };
  // Heads, catch-up, open windows of those, settle reads at their deadline and a part cut to fit
  // always run.
  if (!e.optional || e.cut) return RUN;
  const held = heldBack(ctx.deferrals, e);
  // An open window of an optional purpose cannot be cut (it continues from its cursor) and need not
  // fit: it runs while it may continue (anything left above the reserve) and pauses again where
  // the reserve starts, so a window larger than any hour's leftover still advances run by run.
  const open = e.window.resume !== undefined;
  if (!held && (open ? mayContinue(e, ctx.budgetLeft) : fits(e, s, ctx.learned, ctx.budgetLeft))) return RUN;
  // A window held back by an earlier deferral is not cut: the stream's newer gaps go first.
  const head = held || open ? null : cutToFit(e, s, ctx.learned, ctx.budgetLeft);
  return { kind: 'defer', deferrals: defer(ctx.deferrals, e), entries: head ? [head] : [] };
}

/** Whether an optional window's estimate, made again with what this run learned, fits the budget left. */
export function fits(e: PlanEntry, s: AdmitStream, learned: Learned | undefined, budgetLeft: (() => number) | null): boolean {
  if (!budgetLeft) return true;
  return estimateNow(e, s, learned) <= budgetLeft();
}

/**
 * The window's requests, estimated again with what this run learned, never below the plan's: a
 * plan made before the stream's density was known says one request for a window of days. A
 * resumed window's pages already read are taken off.
 */
function estimateNow(e: PlanEntry, s: AdmitStream, learned: Learned | undefined): number {
  let est = e.window.estRequests;
  if (s.pipeline.time.granularity === 'day') {
    // A day window costs about what the run's earlier day windows of the stream cost.
    if (learned?.windows) est = Math.max(est, Math.ceil(learned.requests / learned.windows));
  } else if (isDated(e.window.purpose) && spanMs(e.window) <= LEARN_MAX_SPAN_MS) {
    const density = rowsPerMs(s, learned);
    if (density !== null) est = Math.max(est, Math.ceil((density * spanMs(e.window)) / pageSize(s.pipeline)) - (e.window.resume?.pages ?? 0));
  }
  return est;
}

/**
 * Most pages the read of an admitted window may take: the cap of its estimate made again with what
 * this run learned. Without that, a first sync's backfill window (planned at one request, before
 * the head said how dense the stream is) was cut at the floor of 60 pages and its run failed,
 * though the head had shown the window to hold about 70. While all the stream's density comes
 * from a first head (under a day of event time), the margin is wider (page-cap.ts).
 */
export function readCap(e: PlanEntry, s: AdmitStream, learned: Learned | undefined): number {
  const headOnly = s.density === null && learned !== undefined && learned.span < DAY_MS;
  return pageCap(estimateNow(e, s, learned), headOnly ? HEAD_ONLY_MARGIN : MARGIN);
}

const DAY_MS = 86_400_000;

/**
 * Whether an optional window that is being read may send its next request: only while the budget
 * left (the organization's, less the reserve kept for the heads of a run soon after) is above zero.
 * Its estimate was an average: a window that runs longer than it stops here, at a page boundary,
 * and stays open; a later run resumes it from its cursor (admit: while anything is left). Without
 * this, a first sync whose backfill ran past its estimates spent the reserve, and the next run
 * found no request for its heads (the demo failed in some hours of the day). Windows that cannot
 * wait (heads, catch-up, settle reads at their deadline) and runs without a live budget never pause.
 */
export function mayContinue(e: PlanEntry, budgetLeft: (() => number) | null): boolean {
  return !e.optional || !budgetLeft || budgetLeft() > 0;
}

/**
 * The newest part of a backfill window (event time) that fits in about 80% of the requests left
 * (estimates are averages), flagged `cut`, or null when that is less than two pages. The rest stays
 * a gap, read by later runs: a busy site's steady runs leave a few requests an hour, and they go to
 * backfill.
 */
export function cutToFit(e: PlanEntry, s: AdmitStream, learned: Learned | undefined, budgetLeft: (() => number) | null): PlanEntry | null {
  const w = e.window;
  if (!budgetLeft || w.purpose !== 'backfill' || s.pipeline.time.granularity === 'day' || spanMs(w) > LEARN_MAX_SPAN_MS) return null;
  const density = rowsPerMs(s, learned);
  const pages = Math.floor((budgetLeft() - 1) * 0.8);
  if (density === null || density <= 0 || pages < 2) return null;
  const span = Math.floor((pages * pageSize(s.pipeline)) / density);
  if (span < MIN_WINDOW_MS || span >= spanMs(w)) return null;
  return { ...plain(e), cut: true, window: { ...w, from: new Date(w.to.getTime() - span), estRequests: pages + 1 } };
}

/**
 * Rows per ms of event time, to size and admit windows: the higher of what this run's complete
 * windows found and what earlier runs did (a short head is a noisy sample; erring high defers or
 * cuts a window rather than running it into the budget).
 */
export function rowsPerMs(s: Pick<PlanStream, 'density'>, learned: Learned | undefined): number | null {
  const now = learned && learned.span > 0 ? learned.rows / learned.span : null;
  if (now === null) return s.density;
  return s.density === null ? now : Math.max(now, s.density);
}

/**
 * A backfill or catch-up window (event time, not resumed, not the open-ended bottom of history)
 * expected to hold well over `windowPages` pages, as windows of about that many pages, newest
 * first; null when it is fine as it is.
 */
export function resplit(e: PlanEntry, density: number | null, windowPages: number, pageSize: number): PlanEntry[] | null {
  const w = e.window;
  const targetRows = windowPages * pageSize;
  if (w.resume || (w.purpose !== 'backfill' && w.purpose !== 'catchup') || density === null || density <= 0) return null;
  const span = spanMs(w);
  if (span > LEARN_MAX_SPAN_MS || density * span <= 1.5 * targetRows) return null;
  const n = Math.min(Math.ceil((density * span) / targetRows), Math.floor(span / MIN_WINDOW_MS));
  if (n < 2) return null;
  const out: PlanEntry[] = [];
  for (let i = n; i > 0; i--) {
    const from = w.from.getTime() + Math.floor(((i - 1) * span) / n);
    const to = i === n ? w.to.getTime() : w.from.getTime() + Math.floor((i * span) / n);
    out.push({ ...plain(e), window: { ...w, from: new Date(from), to: new Date(to), estRequests: Math.max(1, Math.ceil((density * (to - from)) / pageSize)) } });
  }
  return out;
}
