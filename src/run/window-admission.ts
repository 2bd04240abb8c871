// How a run sizes and admits its windows as it learns (run-org.ts): what the run's complete windows
// say about a stream's density, whether an optional window still fits the budget left, cutting a
// window planned before the density was known, and collapsing the bottom of history. Pure.
import type { PlanEntry } from '../plan/org-plan.js';
import { MIN_WINDOW_MS } from '../plan/planner.js';
import { pageSize } from '../pipeline/definition.js';
import { BEGINNING, isDated, spanMs } from '../core/window.js';
import type { OrgStream } from './run-org.js';
import type { ProjectRunSummary } from './summary.js';

/** Windows longer than this (the open-ended bottom of history) say little about density. */
export const LEARN_MAX_SPAN_MS = 31 * 86_400_000;

/** What the run's complete windows of a stream say about the next ones. */
export interface Learned { rows: number; span: number; windows: number; requests: number }

export const requestsSince = (summary: ProjectRunSummary, startedAt: number) => summary.requests - startedAt;

/** Whether an optional window's estimate, made again with what this run learned, fits the budget left. */
export function fits(e: PlanEntry, s: OrgStream, learned: Learned | undefined, available?: () => number): boolean {
  if (!available) return true;
  let est = e.window.estRequests;
  if (s.pipeline.time.granularity === 'day') {
    // A day window costs about what the run's earlier day windows of the stream cost.
    if (learned?.windows) est = Math.max(est, Math.ceil(learned.requests / learned.windows));
  } else if (isDated(e.window.purpose) && spanMs(e.window) <= LEARN_MAX_SPAN_MS) {
    const density = rowsPerMs(s, learned);
    if (density !== null) est = Math.max(est, Math.ceil((density * spanMs(e.window)) / pageSize(s.pipeline)));
  }
  return est <= available();
}

/**
 * The newest part of a backfill window (event time) that fits in about 80% of the requests left
 * (estimates are averages), or null when that is less than two pages. The rest stays a gap, read
 * by later runs: a busy site's steady runs leave a few requests an hour, and they go to backfill.
 */
export function cutToFit(e: PlanEntry, s: OrgStream, learned: Learned | undefined, available?: () => number): PlanEntry | null {
  const w = e.window;
  if (!available || w.purpose !== 'backfill' || s.pipeline.time.granularity === 'day' || spanMs(w) > LEARN_MAX_SPAN_MS) return null;
  const density = rowsPerMs(s, learned);
  const pages = Math.floor((available() - 1) * 0.8);
  if (density === null || density <= 0 || pages < 2) return null;
  const span = Math.floor((pages * pageSize(s.pipeline)) / density);
  if (span < MIN_WINDOW_MS || span >= spanMs(w)) return null;
  return { ...e, window: { ...w, from: new Date(w.to.getTime() - span), estRequests: pages + 1 } };
}

/**
 * Rows per ms of event time, to size and admit windows: the higher of what this run's complete
 * windows found and what earlier runs did (a short head is a noisy sample; erring high defers or
 * cuts a window rather than running it into the budget).
 */
export function rowsPerMs(s: OrgStream, learned: Learned | undefined): number | null {
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
    out.push({ ...e, window: { ...w, from: new Date(from), to: new Date(to), estRequests: Math.max(1, Math.ceil((density * (to - from)) / pageSize)) } });
  }
  return out;
}

/**
 * All history (no --from): a backfill window of old data came back empty, so history ends about
 * there. The stream's older stepped windows are replaced by one window down to the beginning: one
 * request when nothing is older, and a bisection if something large is.
 */
export function collapseBackfill(queue: PlanEntry[], done: PlanEntry): void {
  const older = (e: PlanEntry) => e.projectId === done.projectId && e.pipeline === done.pipeline && e.window.purpose === 'backfill' && !e.window.resume &&
    e.window.to.getTime() <= done.window.from.getTime();
  const removed = queue.filter(older);
  if (!removed.length) return;
  const at = queue.indexOf(removed[0]!);
  for (let i = queue.length - 1; i >= 0; i--) if (older(queue[i]!)) queue.splice(i, 1);
  queue.splice(at, 0, { ...done, window: { from: BEGINNING, to: done.window.from, purpose: 'backfill', estRequests: 1 } });
}
