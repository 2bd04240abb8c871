// What one run did for one stream (project and pipeline): printed by the CLI, returned to tests.
import type { Window } from '../../core/window.js';
import type { RunStatus } from '../load/sync-runs.js';

export interface WindowRun extends Window {
  pages: number;
  complete: boolean;
}

export interface ProjectRunSummary {
  runId: string;
  projectId: string;
  pipeline: string;
  status: RunStatus;
  /** Windows read (or started) in this run, in order. */
  windows: WindowRun[];
  /** Optional windows (rechecks, backfill) the plan left for later runs. */
  deferred: number;
  pages: number;
  requests: number;
  /** Rows merged (new or re-read) and records quarantined, as the merge counted them. */
  upserted: number;
  quarantined: number;
  error: string | null;
  /** The error behind a non-succeeded status, for the caller to classify. */
  cause?: unknown;
}

/** The event-time span of the windows a run read (sync_runs.window_from/to). */
export function spanOf(s: ProjectRunSummary): { from: Date; to: Date } | null {
  if (!s.windows.length) return null;
  return {
    from: new Date(Math.min(...s.windows.map((w) => w.from.getTime()))),
    to: new Date(Math.max(...s.windows.map((w) => w.to.getTime()))),
  };
}
