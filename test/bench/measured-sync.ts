// One `sync` through the product's own path (resolveSyncConfig + runSync + PIPELINES), timed. Used
// by the bench's child process (sync-child.ts) and, with --sync-in-process, by the bench itself.
import { PIPELINES } from '../../pipelines/index.js';
import { systemClock } from '../../src/core/clock.js';
import { parseDuration, parseRateLimit } from '../../src/core/duration.js';
import { createLogger } from '../../src/core/logger.js';
import { resolveSyncConfig } from '../../src/config/sync-config.js';
import { runSync, type SyncResult } from '../../src/sync/run/sync.js';
import { procMemory } from './proc-memory.js';

export interface MeasuredSyncInput {
  baseUrl: string;
  projectId: string;
  warehouse: string;
  budgetDir: string;
  /** e.g. "1000000/1h" (bench) or "100/10s" (budget utilization). */
  rateLimit: string;
  maxWait: string;
  /** pino level for the sync's own logs (stderr). */
  logLevel: string;
  /** Backfill bound and longest window (ISO date, duration): a bulk load reads history as one window. */
  from?: string;
  maxWindow?: string;
  /** DuckDB's memory_limit and threads of the sync (unset: the product's defaults). */
  memoryLimit?: string;
  threads?: number;
  /** Every pipeline `docs-etl sync` runs by default (its whole hourly run); unset: the assistant pipeline only. */
  allPipelines?: boolean;
}

export interface MeasuredSync {
  exitCode: number;
  runs: {
    status: string; pages: number; requests: number; upserted: number; quarantined: number; error: string | null;
    windows: { from: string; to: string; purpose: string; pages: number }[];
  }[];
  /** runSync alone: opening the warehouse, migrations, the run, closing. */
  syncMs: number;
  /** Peak resident set of the process that ran it, kB (null off Linux). */
  peakRssKb: number | null;
  /** Where the time went (ms): see SyncResult.timing. */
  timing: SyncResult['timing'];
  publishedBytes: number | null;
  /** The topic step's phases (its first project's), when it ran. */
  topicPhases: { phase: string; ms: number; cpuMs: number }[];
}

/** `apiKey` comes separately so it never sits in argv. */
export async function measuredSync(input: MeasuredSyncInput, apiKey: string, signal?: AbortSignal): Promise<MeasuredSync> {
  const cfg = resolveSyncConfig(
    {
      warehouse: input.warehouse,
      project: input.projectId,
      rateLimit: parseRateLimit(input.rateLimit),
      maxWait: parseDuration(input.maxWait),
      ...(input.from ? { from: new Date(input.from) } : {}),
      ...(input.maxWindow ? { maxWindow: parseDuration(input.maxWindow) } : {}),
      ...(input.memoryLimit ? { memoryLimit: input.memoryLimit } : {}),
      ...(input.threads ? { threads: input.threads } : {}),
      // The assistant pipeline: its pages are what DuckDB's reader loads beside it (the ceiling),
      // and its turns are what the ideal request count is computed from.
      ...(input.allPipelines ? {} : { pipelines: ['assistant_conversations'] }),
    },
    { DOCS_API_BASE_URL: input.baseUrl, DOCS_API_KEY: apiKey, DOCS_ETL_BUDGET_DIR: input.budgetDir },
  );
  const logger = createLogger({ level: input.logLevel });
  const started = performance.now();
  const result = await runSync({ clock: systemClock, logger, signal }, cfg, PIPELINES);
  const syncMs = performance.now() - started;
  return {
    exitCode: result.exitCode,
    runs: result.runs.map((r) => ({
      status: r.status, pages: r.pages, requests: r.requests, upserted: r.upserted, quarantined: r.quarantined, error: r.error,
      windows: r.windows.map((w) => ({ from: w.from.toISOString(), to: w.to.toISOString(), purpose: w.purpose, pages: w.pages })),
    })),
    syncMs,
    peakRssKb: procMemory()?.hwmKb ?? null,
    timing: result.timing,
    publishedBytes: result.published?.bytes ?? null,
    topicPhases: (result.topics?.results[0]?.phases ?? []).map((p) => ({ phase: p.phase, ms: p.ms, cpuMs: p.cpuMs })),
  };
}
