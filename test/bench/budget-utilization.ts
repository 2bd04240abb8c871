// How much of the rate budget a long backfill uses: a sandbox enforcing a small sliding window
// (default 100/20s), a client configured with the same limit, a history larger than the run can
// read, and the sync stopped (SIGTERM, at a checkpoint) `durationS` after its first request
// arrived. Utilization = arrivals in [first, first + duration) / what the window allows there.
import { join } from 'node:path';
import { parseRateLimit } from '../../src/core/duration.js';
import { startChildSync } from './child-sync.js';
import { startSandboxProcess } from './sandbox-process.js';
import { allowedIn, maxInWindow } from '../helpers/window-stats.js';

export interface BudgetInput {
  workDir: string;
  rateLimit: string;
  durationS: number;
  /** Turns of history per project: more than the run can read. */
  historyTurns: number;
  /** Sync processes of the one organization (shared budget folder), each its own project and warehouse. */
  processes: number;
}

export interface BudgetResult {
  rateLimit: string;
  durationS: number;
  processes: number;
  requests: number;
  allowed: number;
  utilization: number;
  http429: number;
  maxInWindow: number;
  limit: number;
  pages: number;
  rows: number;
  /** Arrivals in each consecutive window of the interval: falling counts mean the client, not the budget, was the limit. */
  perWindow: number[];
  /** How each sync run ended ('stopped' at the SIGTERM, normally). */
  syncStatuses: string[];
}

const KEY = 'mint_bench_budget_key';
/** Another organization: its requests build the sandbox's history before the measured sync starts. */
const WARM_KEY = 'mint_bench_warmup_key';

export async function budgetUtilization(input: BudgetInput): Promise<BudgetResult> {
  const rate = parseRateLimit(input.rateLimit);
  const projects = Array.from({ length: input.processes }, (_, i) => `budget-${i + 1}`);
  const sandbox = await startSandboxProcess([
    '--api-key', KEY, '--api-key', WARM_KEY, '--conversations', String(input.historyTurns), '--rate-limit', input.rateLimit,
    ...projects.flatMap((p) => ['--project', p]),
  ]);
  try {
    for (const p of projects) await sandbox.warmUp(WARM_KEY, p);
    const children = projects.map((projectId) =>
      startChildSync(
        {
          baseUrl: sandbox.url, projectId, warehouse: join(input.workDir, `${projectId}.duckdb`), budgetDir: join(input.workDir, 'budget'),
          rateLimit: input.rateLimit, maxWait: '5m', logLevel: 'error',
        },
        KEY,
      ));
    // The measured interval starts when the first request arrives (after the child's start-up).
    let first: number | undefined;
    while (first === undefined) {
      await new Promise((r) => setTimeout(r, 100));
      first = (await sandbox.requestLog(KEY))[0]?.at;
    }
    const end = first + input.durationS * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, end - Date.now())));
    for (const c of children) c.stop();
    const results = await Promise.all(children.map((c) => c.result));
    const log = (await sandbox.requestLog(KEY)).filter((r) => r.path.startsWith('/v1/analytics/'));
    const inInterval = log.filter((r) => r.at >= first && r.at < end);
    const allowed = allowedIn(input.durationS * 1000, rate.limit, rate.windowMs);
    return {
      rateLimit: input.rateLimit,
      durationS: input.durationS,
      processes: input.processes,
      requests: inInterval.length,
      allowed,
      utilization: inInterval.length / allowed,
      http429: log.filter((r) => r.status === 429).length,
      maxInWindow: maxInWindow(log.map((r) => r.at), rate.windowMs),
      limit: rate.limit,
      pages: results.reduce((a, r) => a + r.runs.reduce((b, x) => b + x.pages, 0), 0),
      rows: results.reduce((a, r) => a + r.runs.reduce((b, x) => b + x.upserted, 0), 0),
      perWindow: Array.from({ length: Math.ceil((input.durationS * 1000) / rate.windowMs) }, (_, i) =>
        inInterval.filter((r) => Math.floor((r.at - first) / rate.windowMs) === i).length),
      syncStatuses: results.flatMap((r) => r.runs.map((x) => x.status)),
    };
  } finally {
    await sandbox.close();
  }
}
