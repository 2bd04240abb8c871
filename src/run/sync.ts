// `docs-etl sync`: one incremental run per configured project. Organizations run in parallel
// (each its own budget and DuckDB connection); projects of one organization run one after another.
import pLimit from 'p-limit';
import { createAnalyticsClient } from '../api/analytics-client.js';
import { createBudget, type RequestBudget } from '../api/budget.js';
import { RequestLog } from '../api/request-log.js';
import type { RetryPolicy } from '../api/retry.js';
import type { Clock } from '../core/clock.js';
import { EXIT } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { SyncConfig } from '../config/sync-config.js';
import { interruptStaleRuns } from '../load/sync-runs.js';
import { openWarehouse } from '../load/warehouse.js';
import type { PipelineDefinition } from './pipeline.js';
import { syncProject, type ProjectRunSummary } from './sync-project.js';

export interface SyncDeps {
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  onPage?: (p: ProjectRunSummary, budget: RequestBudget) => void;
}

export interface SyncResult {
  runs: ProjectRunSummary[];
  exitCode: number;
}

export async function runSync(deps: SyncDeps, cfg: SyncConfig, pipelines: readonly PipelineDefinition[]): Promise<SyncResult> {
  const wh = await openWarehouse(cfg.warehouse);
  try {
    await interruptStaleRuns(wh.conn, deps.clock.now());
    const byOrg = new Map<string, SyncConfig['projects']>();
    for (const p of cfg.projects) byOrg.set(p.organization, [...(byOrg.get(p.organization) ?? []), p]);
    const limit = pLimit(4);
    const perOrg = await Promise.all(
      [...byOrg].map(([organization, projects]) =>
        limit(async () => {
          const conn = await wh.connect();
          const budget = createBudget({
            log: new RequestLog(cfg.budgetDir, organization, (file, reason) =>
              deps.logger.warn({ file, reason }, 'request log was damaged: starting a fresh one (429s from the server still hold the budget)')),
            rate: cfg.rate, clock: deps.clock, maxWaitMs: cfg.maxWaitMs, requestTimeoutMs: cfg.requestTimeoutMs,
            onWait: (ms) => deps.logger.info({ organization, waitMs: ms }, 'waiting for rate budget'),
          });
          const runs: ProjectRunSummary[] = [];
          for (const p of projects) {
            const client = createAnalyticsClient({
              baseUrl: p.baseUrl, apiKey: p.apiKey, keySource: p.keySource, budget, clock: deps.clock, logger: deps.logger, retry: deps.retry,
              timeoutMs: cfg.requestTimeoutMs, maxBodyBytes: cfg.maxPageBytes,
            });
            for (const pipeline of pipelines) {
              const run = await syncProject(
                { conn, client, clock: deps.clock, logger: deps.logger, signal: deps.signal, onPage: (s) => deps.onPage?.(s, budget) },
                { pipeline, projectId: p.projectId, organization, lookbackMs: cfg.lookbackMs, backfillFrom: p.backfillFrom },
              );
              runs.push(run);
              // An exhausted budget or a stop request ends this organization's queue; a failed
              // project (e.g. unknown id) does not stop the others.
              if (run.status === 'budget_exhausted' || run.status === 'stopped') return runs;
            }
          }
          return runs;
        }),
      ),
    );
    const runs = perOrg.flat();
    return { runs, exitCode: exitCodeOf(runs) };
  } finally {
    wh.close();
  }
}

function exitCodeOf(runs: ProjectRunSummary[]): number {
  if (runs.some((r) => r.status === 'failed')) return EXIT.failed;
  if (runs.some((r) => r.status === 'budget_exhausted')) return EXIT.budget;
  return EXIT.ok;
}
