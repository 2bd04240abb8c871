// One window of an organization's plan, as the run's queue holds it: a plain value whose flags say
// what the plan functions already decided about it (admission.ts, after-window.ts), so the queue
// needs no side tables keyed by object identity.
import type { PlannedWindow } from './planner.js';

export interface PlanEntry {
  projectId: string;
  pipeline: string;
  window: PlannedWindow;
  optional: boolean;
  /** The newest part of a window cut to fit the budget left: it runs, and is never re-split. */
  cut?: true;
  /** A day window read whole once more after a failure: failing again fails the stream. */
  retried?: true;
}

/** The entry without its flags: what a window derived from it (a half, a part) starts from. */
export function plain(e: PlanEntry): PlanEntry {
  return { projectId: e.projectId, pipeline: e.pipeline, window: e.window, optional: e.optional };
}
