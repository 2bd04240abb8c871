// The one deferral rule, shared by the organization's plan (org-plan.ts, before the run) and the
// run's admission (admission.ts, as it learns): once a stream's optional window of a purpose waits,
// its later (older) ones of that purpose wait too, so its gaps are still read newest first and a
// smaller old window never jumps ahead of a newer one that did not fit; once a due re-read
// (settle within its slack, recheck) of any stream waits, no backfill, sweep or keyed read is
// admitted after it, however small (issue 19: re-reads before backfill). Pure: values in, values out.
import type { PlanEntry } from './plan-entry.js';
import { isAfterRereads, isReread } from './ranks.js';
import { streamKey } from '../pipeline/definition.js';

export interface Deferrals {
  /** Stream and purpose whose optional windows wait for a later run. */
  readonly waiting: ReadonlySet<string>;
  /** A due re-read of some stream was deferred. */
  readonly rereadDeferred: boolean;
}

export const NO_DEFERRALS: Deferrals = { waiting: new Set(), rereadDeferred: false };

const waitKey = (e: PlanEntry) => `${streamKey(e.projectId, e.pipeline)}\u0000${e.window.purpose}`;

/** Whether an optional window waits whatever the budget says: an earlier deferral holds it back. */
export function heldBack(d: Deferrals, e: PlanEntry): boolean {
  return d.waiting.has(waitKey(e)) || (d.rereadDeferred && isAfterRereads(e.window.purpose));
}

/** The deferrals once this optional window waits. */
export function defer(d: Deferrals, e: PlanEntry): Deferrals {
  const k = waitKey(e);
  const rereadDeferred = d.rereadDeferred || isReread(e.window.purpose);
  if (d.waiting.has(k) && rereadDeferred === d.rereadDeferred) return d;
  return { waiting: d.waiting.has(k) ? d.waiting : new Set([...d.waiting, k]), rereadDeferred };
}
