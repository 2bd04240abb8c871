// One plan per organization (all its projects and pipelines share the 100 requests/hour): the heads
// of every project first, then catch-up after a lag, then settle reads, then rechecks, then
// backfill, then sweeps, then keyed reads (an open window is resumed in its purpose's place);
// within each, pipelines by priority and projects in turn (fair shares). Heads, catch-up, open
// settle reads and settle reads at their deadline are always planned (a budget stop is reported if
// they cannot finish); settle reads within their slack, rechecks, backfill, sweeps and keyed reads
// only while their estimated requests fit the budget available now, in that order (an open one of
// these, while any budget is left: it pauses again at the reserve, admission.ts). Once a due re-read
// (a settle read within its slack, a recheck) of any stream does not fit, no backfill, sweep or keyed
// read is admitted after it: a smaller, lower-ranked window that happens to fit never displaces a
// due re-read (late statuses would otherwise stay stale for days under a nightly schedule).
import { NO_DEFERRALS, defer, heldBack } from './deferral.js';
import type { PlanEntry } from './plan-entry.js';
import type { PlannedWindow } from './planner.js';
import { OPTIONAL, RANK } from './ranks.js';
import { streamKey } from '../pipeline/definition.js';

export type { PlanEntry } from './plan-entry.js';

export interface StreamPlan {
  projectId: string;
  pipeline: string;
  /** Pipeline order for the same purpose (lower first). */
  priority: number;
  windows: readonly PlannedWindow[];
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

export function planOrg(streams: readonly StreamPlan[], availableRequests: number): OrgPlan {
  const entries = streams.flatMap((s) =>
    s.windows.map((w, i) => ({
      // Fair shares: each stream's first window of a rank, then each one's second...
      turn: s.windows.slice(0, i).filter((x) => RANK[x.purpose] === RANK[w.purpose]).length,
      entry: { projectId: s.projectId, pipeline: s.pipeline, window: w, optional: OPTIONAL.has(w.purpose) || w.canWait === true },
      // A resumed window keeps its purpose's place: an open backfill window never goes before heads.
      rank: RANK[w.purpose],
      priority: s.priority,
      project: s.projectId,
    })));
  // Within a rank: pipeline priority, then each project's first window, then each one's second...
  entries.sort((a, b) => a.rank - b.rank || a.priority - b.priority || a.turn - b.turn || (a.project < b.project ? -1 : a.project > b.project ? 1 : 0));
  const reserve = new Set(entries.filter((e) => e.entry.window.purpose === 'head').map((e) => streamKey(e.entry.projectId, e.entry.pipeline))).size;
  let budget = availableRequests - reserve - entries.filter((e) => !e.entry.optional).reduce((n, e) => n + e.entry.window.estRequests, 0);
  const selected: PlanEntry[] = [];
  const deferred: PlanEntry[] = [];
  // The deferral rule the run applies too (deferral.ts): what waits holds back what ranks after it.
  let deferrals = NO_DEFERRALS;
  for (const { entry } of entries) {
    if (!entry.optional) selected.push(entry);
    // An open window pauses at the reserve (admission.ts, mayContinue): any budget left will do.
    else if (!heldBack(deferrals, entry) && (entry.window.resume ? budget > 0 : entry.window.estRequests <= budget)) {
      selected.push(entry);
      budget -= Math.min(entry.window.estRequests, budget);
    } else {
      deferrals = defer(deferrals, entry);
      deferred.push(entry);
    }
  }
  return { selected, deferred, reserve };
}
