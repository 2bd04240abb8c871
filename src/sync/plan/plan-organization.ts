// The organization's plan from its streams: each stream's windows (planner.ts, keyed.ts), ranked
// and admitted under the budget available now as one plan (org-plan.ts).
import { pageSize, rereadsOf } from '../pipeline/definition.js';
import { planKeys } from './keyed.js';
import { planOrg, type OrgPlan } from './org-plan.js';
import type { PlanStream } from './plan-stream.js';
import { planStream, type PlanConfig } from './planner.js';

export type PlanSettings = Omit<PlanConfig, 'now' | 'from' | 'pageSize' | 'historyDays'>;

export function planOrganization(streams: readonly PlanStream[], settings: PlanSettings, now: Date, available: number): OrgPlan {
  return planOrg(streams.map((s) => ({
    projectId: s.projectId,
    pipeline: s.pipeline.name,
    priority: s.pipeline.priority,
    windows: s.keys ? planKeys(s.keys, now.getTime()) : planStream(
      { coverage: s.coverage, open: s.state.open, density: s.density, windowLimitMs: s.state.windowLimitMs, sweptAt: s.sweptAt },
      {
        ...settings, now: now.getTime(), from: s.from?.getTime() ?? null, pageSize: pageSize(s.pipeline),
        granularity: s.pipeline.time.granularity, timezone: s.timezone, historyDays: s.pipeline.defaultHistoryDays,
        rereads: rereadsOf(s.pipeline, settings.rereads), sweepEveryMs: s.pipeline.time.undated?.sweepEveryMs,
        historyStart: s.historyStart,
      },
    ),
  })), available);
}
