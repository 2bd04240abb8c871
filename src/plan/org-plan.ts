// One plan per organization (all its projects and pipelines share the 100 requests/hour): open
// windows are finished first, then the heads of every project, then settle reads, then rechecks,
// then backfill, then sweeps; within each, pipelines by priority and projects in turn (fair shares). Heads,
// settle reads and open windows are always planned (a budget stop is reported if they cannot
// finish); rechecks and backfill only while their estimated requests fit the budget available now.
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

const RANK: Record<Purpose, number> = { head: 1, settle: 2, recheck: 3, backfill: 4, sweep: 5 };

export function planOrg(streams: readonly StreamPlan[], availableRequests: number): OrgPlan {
  const entries = streams.flatMap((s) =>
    s.windows.map((w, i) => ({
      entry: { projectId: s.projectId, pipeline: s.pipeline, window: w, optional: !w.resume && (w.purpose === 'recheck' || w.purpose === 'backfill' || w.purpose === 'sweep') },
      rank: w.resume ? 0 : RANK[w.purpose],
      priority: s.priority,
      turn: i,
      project: s.projectId,
    })));
  // Within a rank: pipeline priority, then each project's first window, then each one's second...
  entries.sort((a, b) => a.rank - b.rank || a.priority - b.priority || a.turn - b.turn || (a.project < b.project ? -1 : a.project > b.project ? 1 : 0));
  const reserve = new Set(entries.filter((e) => e.entry.window.purpose === 'head').map((e) => `${e.entry.pipeline}\u0000${e.entry.projectId}`)).size;
  let budget = availableRequests - reserve - entries.filter((e) => !e.entry.optional).reduce((n, e) => n + e.entry.window.estRequests, 0);
  const selected: PlanEntry[] = [];
  const deferred: PlanEntry[] = [];
  for (const { entry } of entries) {
    if (!entry.optional) selected.push(entry);
    else if (entry.window.estRequests <= budget) {
      selected.push(entry);
      budget -= entry.window.estRequests;
    } else deferred.push(entry);
  }
  return { selected, deferred, reserve };
}
