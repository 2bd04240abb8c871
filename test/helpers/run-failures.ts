// Why a fixture's sync failed, short enough to survive a CI log: the whole run summaries (windows
// and all) drown the reason, and only the first lines of an error reach the CI's excerpt.
import type { ProjectRunSummary } from '../../src/sync/run/summary.js';

/** The streams that did not succeed, one `pipeline status: error` each. */
export function runFailures(runs: readonly ProjectRunSummary[]): string {
  return runs.filter((r) => r.status !== 'succeeded').map((r) => `${r.projectId}/${r.pipeline} ${r.status}: ${r.error ?? '(no error)'}`).join('; ');
}
