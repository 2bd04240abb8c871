// `sync --dry-run`: the windows the next run would read, by purpose, with estimated requests.
import { formatDuration, type RateLimit } from '../core/duration.js';
import { formatWindow } from '../core/window.js';
import type { SyncResult } from '../sync/run/sync.js';
import { formatTable } from './format.js';

export function formatPlan(plans: SyncResult['plans'], rate: RateLimit): string {
  const out: string[] = [];
  for (const { organization, plan, available } of plans) {
    const est = plan.selected.reduce((n, e) => n + e.window.estRequests, 0);
    out.push(`organization ${organization}: ${plan.selected.length} window(s), about ${est} request(s); ` +
      `${available} of ${rate.limit} per ${formatDuration(rate.windowMs)} available now`);
    out.push(formatTable(plan.selected.map((e) => ({
      project: e.projectId, pipeline: e.pipeline, purpose: e.window.resume ? `${e.window.purpose} (resume)` : e.window.purpose,
      window: formatWindow(e.window), est_requests: e.window.estRequests,
    }))));
    if (plan.deferred.length) {
      const d = plan.deferred.reduce((n, e) => n + e.window.estRequests, 0);
      out.push(`deferred to later runs (budget): ${plan.deferred.length} window(s), about ${d} request(s)`);
    }
  }
  return out.join('\n');
}
