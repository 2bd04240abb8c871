// What a finished window means for the rest of the run's queue: a complete one teaches the stream's
// density (and, all history read back to an empty window, collapses the older steps into one); a
// window the API could not serve is read again: a day whole once more, a dated range as two halves
// (newer first), anything else fails its stream and is planned again next run. Pure.
import { BEGINNING, isDated, spanMs } from '../../core/window.js';
import { LEARN_MAX_SPAN_MS, type Learned } from './admission.js';
import { plain, type PlanEntry } from './plan-entry.js';
import type { PlanStream } from './plan-stream.js';
import { MIN_WINDOW_MS } from './planner.js';

/** How the window ended, as the runner saw it. */
export type WindowResult =
  /** Every page landed: `records` read, `requests` sent for it. */
  | { kind: 'complete'; records: number; requests: number }
  /** Timeouts, 504s or persistent 5xx: the API could not serve it at this size. */
  | { kind: 'too-large' };

export type NextStep =
  | { kind: 'complete'; learned: Learned | undefined; queue: PlanEntry[] }
  /** A day window failed once: read whole once more, first. */
  | { kind: 'retry-day'; queue: PlanEntry[] }
  /** Read as two halves, newer first; windows of the stream no longer than `windowLimitMs`. */
  | { kind: 'bisect'; windowLimitMs: number; queue: PlanEntry[] }
  /** The stream fails with the window's error. */
  | { kind: 'fail' };

/** What the plan does next after window `e` ended with `result`; `queue`: what is still to read. */
export function afterWindow(
  e: PlanEntry, result: WindowResult, s: Pick<PlanStream, 'pipeline' | 'from'>, learned: Learned | undefined, queue: PlanEntry[],
): NextStep {
  if (result.kind === 'complete') {
    const collapse = e.window.purpose === 'backfill' && s.from === null && result.records === 0;
    return { kind: 'complete', learned: learn(e, result, learned), queue: collapse ? collapseHistory(queue, e) : queue };
  }
  // A day is one aggregate over its range: never cut. It is read whole once more in this run; if
  // that fails too, the stream fails and the day is planned again next run.
  if (s.pipeline.time.granularity === 'day') {
    if (e.retried) return { kind: 'fail' };
    return { kind: 'retry-day', queue: [{ ...plain(e), retried: true, window: { ...e.window, resume: undefined } }, ...queue] };
  }
  const half = Math.floor(spanMs(e.window) / 2);
  // A sweep or a keyed read has no dates to halve.
  if (half < MIN_WINDOW_MS || !isDated(e.window.purpose)) return { kind: 'fail' };
  const mid = new Date(e.window.from.getTime() + half);
  const estRequests = Math.ceil(e.window.estRequests / 2);
  return {
    kind: 'bisect', windowLimitMs: half, queue: [
      { ...plain(e), window: { ...e.window, from: mid, resume: undefined, estRequests } },
      { ...plain(e), window: { ...e.window, to: mid, resume: undefined, estRequests } },
      ...queue,
    ],
  };
}

/** A complete new dated window no longer than a month adds to what the run learned of its stream. */
function learn(e: PlanEntry, r: { records: number; requests: number }, learned: Learned | undefined): Learned | undefined {
  if (!isDated(e.window.purpose) || spanMs(e.window) > LEARN_MAX_SPAN_MS || e.window.resume) return learned;
  const l = learned ?? { rows: 0, span: 0, windows: 0, requests: 0 };
  return { rows: l.rows + r.records, span: l.span + spanMs(e.window), windows: l.windows + 1, requests: l.requests + r.requests };
}

/**
 * All history (no --from): a backfill window of old data came back empty, so history ends about
 * there. The stream's older stepped windows are replaced by one window down to the beginning (where
 * the first of them stood): one request when nothing is older, and a bisection if something large is.
 * Returns `queue` itself when nothing is older.
 */
export function collapseHistory(queue: PlanEntry[], done: PlanEntry): PlanEntry[] {
  const older = (e: PlanEntry) => e.projectId === done.projectId && e.pipeline === done.pipeline && e.window.purpose === 'backfill' && !e.window.resume &&
    e.window.to.getTime() <= done.window.from.getTime();
  const at = queue.findIndex(older);
  if (at < 0) return queue;
  const rest = queue.filter((e) => !older(e));
  const bottom: PlanEntry = { ...plain(done), window: { from: BEGINNING, to: done.window.from, purpose: 'backfill', estRequests: 1 } };
  // Entries before the first older one are all kept, so `at` is still its place in `rest`.
  return [...rest.slice(0, at), bottom, ...rest.slice(at)];
}
