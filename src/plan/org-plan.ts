// One plan per organization (all its projects and pipelines share the 100 requests/hour): the heads
// of every project first, then catch-up after a lag, then settle reads, then rechecks, then
// backfill, then sweeps, then keyed reads (an open window is resumed in its purpose's place);
// within each, pipelines by priority and projects in turn (fair shares). Heads, catch-up, open
// windows and settle reads at their deadline are always planned (a budget stop is reported if they
// cannot finish); settle reads within their slack, rechecks, backfill, sweeps and keyed reads only
// while their estimated requests fit the budget available now, in that order. Once a due re-read
// (a settle read within its slack, a recheck) of any stream does not fit, no backfill, sweep or keyed
// read is admitted after it: a smaller, lower-ranked window that happens to fit never displaces a
// due re-read (late statuses would otherwise stay stale for days under a nightly schedule).
import type { Purpose } from '../core/window.js';
import type { PlannedWindow } from './planner.js';

export interface StreamPlan {
  projectId: string;
  pipeline: string;
  /** Pipeline order for the same purpose (lower first). */
  priority: number;
  windows: readonly PlannedWindow[];
}

export interface PlanEntry {
  projectId: string;
  pipeline: string;
  window: PlannedWindow;
  optional: boolean;
}

export interface OrgPlan {
  selected: PlanEntry[];
  /** Optional windows left for later runs (budget). */
  deferred: PlanEntry[];
  /**
   * Requests optional windows leave unused: one per stream with a head, so a run that starts soon
   * after this one (a manual run, the demo's second sync) can still read every head's first page.
   */
  reserve: number;
}

const RANK: Record<Purpose, number> = { head: 1, catchup: 2, settle: 3, recheck: 4, backfill: 5, sweep: 6, keyed: 7 };
const OPTIONAL = new Set<Purpose>(['recheck', 'backfill', 'sweep', 'keyed']);

/** Re-reads (settle, recheck): a deferred one holds back every optional window ranked after them. */
export const isReread = (p: Purpose): boolean => p === 'settle' || p === 'recheck';
/** Ranked after the re-reads: backfill, sweeps, keyed reads. */
export const isAfterRereads = (p: Purpose): boolean => RANK[p] > RANK.recheck;

export function planOrg(streams: readonly StreamPlan[], availableRequests: number): OrgPlan {
  const entries = streams.flatMap((s) =>
    s.windows.map((w, i) => ({
      // Fair shares: each stream's first window of a rank, then each one's second...
      turn: s.windows.slice(0, i).filter((x) => RANK[x.purpose] === RANK[w.purpose]).length,
      entry: { projectId: s.projectId, pipeline: s.pipeline, window: w, optional: !w.resume && (OPTIONAL.has(w.purpose) || w.canWait === true) },
      // A resumed window keeps its purpose's place: an open backfill window never goes before heads.
      rank: RANK[w.purpose],
      priority: s.priority,
      project: s.projectId,
    })));
  // Within a rank: pipeline priority, then each project's first window, then each one's second...
  entries.sort((a, b) => a.rank - b.rank || a.priority - b.priority || a.turn - b.turn || (a.project < b.project ? -1 : a.project > b.project ? 1 : 0));
  const reserve = new Set(entries.filter((e) => e.entry.window.purpose === 'head').map((e) => `${e.entry.pipeline}\u0000${e.entry.projectId}`)).size;
  let budget = availableRequests - reserve - entries.filter((e) => !e.entry.optional).reduce((n, e) => n + e.entry.window.estRequests, 0);
  const selected: PlanEntry[] = [];
  const deferred: PlanEntry[] = [];
  // Once a stream's optional window of a purpose waits, its later (older) ones of that purpose wait
  // too: a smaller old window never jumps ahead of a newer one that did not fit.
  const waiting = new Set<string>();
  let rereadDeferred = false;
  for (const { entry } of entries) {
    const k = `${entry.pipeline}\u0000${entry.projectId}\u0000${entry.window.purpose}`;
    const purpose = entry.window.purpose;
    if (!entry.optional) selected.push(entry);
    else if (!waiting.has(k) && !(rereadDeferred && isAfterRereads(purpose)) && entry.window.estRequests <= budget) {
      selected.push(entry);
      budget -= entry.window.estRequests;
    } else {
      waiting.add(k);
      deferred.push(entry);
      if (isReread(purpose)) rereadDeferred = true;
    }
  }
  return { selected, deferred, reserve };
}
