// The windows of a keyed stream (a pipeline read once per key, see PipelineDefinition.keys): one
// read per key its SQL selected, in that order, each without dates (purpose 'keyed', from the
// beginning to now, for the window log), one request each. They rank after every other window of
// the organization (org-plan.ts) and are optional: planned only while they fit the budget, the rest
// deferred to a later run, where the SQL selects them again. Pure: no I/O, no clock.
import { BEGINNING } from '../../core/window.js';
import type { PlannedWindow } from './planner.js';

/** Most keyed reads one plan lists per stream (a run rarely has budget for more). */
export const MAX_KEYED_WINDOWS = 500;

export function planKeys(keys: readonly string[], now: number): PlannedWindow[] {
  return [...new Set(keys)].slice(0, MAX_KEYED_WINDOWS).map((key) => ({ from: BEGINNING, to: new Date(now), purpose: 'keyed', key, estRequests: 1 }));
}
