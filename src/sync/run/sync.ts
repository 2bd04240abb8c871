// `docs-etl sync`: one run over every configured project and pipeline (design: Data flow).
//   1. take the writer lock, open the warehouse (migrations), mark runs a dead process left;
//   2. merge what earlier runs landed but did not merge (a crash), so the state is current;
//   3. per organization (all in parallel; projects of one organization share its budget): plan all
//      of its streams as one and read the selected windows, landing each page; the merger merges
//      landed pages in batches meanwhile (and publishes between them, mid-run-publish.ts);
//   4. wait for the merger, close the runs, group gap topics, publish the read snapshot.
// runSync reads as these steps; each is a function below.
import { existsSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { PIPELINES } from '../../../pipelines/index.js';
import { createAnalyticsClient } from '../api/analytics-client.js';
import { createBudget, type RequestBudget } from '../../budget/budget.js';
import { openBudgetBackend, type BudgetBackend } from '../../budget/open-budget-store.js';
import type { RetryPolicy } from '../api/retry.js';
import type { Clock } from '../../core/clock.js';
import { EXIT, UsageError, messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { SyncConfig } from '../../config/sync-config.js';
import { LandingZone } from '../land/landing-zone.js';
import { Merger } from '../load/merger.js';
import { finishRun, interruptStaleRuns, registerStream, startRun } from '../load/sync-runs.js';
import { pageCapFor } from '../load/mergeable-page.js';
import { openWarehouse, type Warehouse } from '../../warehouse/warehouse.js';
import { Writer } from '../../warehouse/writer.js';
import { acquireWriterLock } from '../../warehouse/writer-lock.js';
import type { OrgPlan } from '../plan/org-plan.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { publishRead } from '../publish/read-surface.js';
import { SURFACE_LAKE_TABLES } from './surface-lake-tables.js';
import { stepMemoryLimit, withMemoryLimit } from '../../warehouse/memory-pool.js';
import type { Published } from '../publish/snapshot.js';
import { loadStreams } from './load-streams.js';
import { createDeclaredTables } from '../pipeline/create-declared-tables.js';
import { probeNewHistories } from './history-probe.js';
import { writeHistoryProbe } from '../../warehouse/history-probes.js';
import { planOrganization } from '../plan/plan-organization.js';
import { runOrg, type OrgStream } from './run-org.js';
import { spanOf, type ProjectRunSummary } from './summary.js';
import { upsertProjects } from '../load/projects.js';
import { updateGapTopics, type TopicUpdate } from '../../outputs/topics/update-topics.js';
import { namingMemoryLimit } from '../../warehouse/out-of-memory.js';
import { parkWindow, unparkWindow } from '../load/parked-windows.js';
import { MidRunPublisher } from './mid-run-publish.js';

export interface SyncDeps {
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  onPage?: (p: ProjectRunSummary, budget: RequestBudget) => void;
  /** Plan only: the windows each organization would read; no analytics request, no write. */
  dryRun?: boolean;
  /** Operations (src/outputs/alerts/ops-hooks.ts): every API response's status, per stream. */
  onResponse?: (e: { projectId: string; pipeline: string; organization: string; endpoint: string; code: string }) => void;
  /** Operations: runs in the writer after the runs are recorded, before the publish (what it stores is in the snapshot). */
  beforePublish?: (conn: DuckDBConnection, runs: ProjectRunSummary[]) => Promise<void>;
  /** Runs in the writer after the publish (the CLI reads the backfill status here: no second open of the warehouse). */
  afterPublish?: (conn: DuckDBConnection) => Promise<void>;
}

export interface SyncResult {
  runs: ProjectRunSummary[];
  exitCode: number;
  /** Per organization, what was planned (dry runs return only this). */
  plans: { organization: string; plan: OrgPlan; available: number }[];
  published: Published | null;
  /** The gap topic step of each project (null: not run, a dry or stopped run). */
  topics: TopicUpdate | null;
  /**
   * Time split of the run, ms: recovery merge; the fetch phase (wall, merges overlapping); within
   * it, validating and landing pages; the merger's busy time; waiting for the last merges after the
   * fetch ended; publishing the read snapshot.
   */
  timing: { recoverMs: number; fetchMs: number; validateMs: number; landMs: number; mergeMs: number; drainMs: number; publishMs: number };
}

/** What the steps of one run share: its dependencies, configuration, warehouse and stores. */
interface RunContext {
  deps: SyncDeps;
  cfg: SyncConfig;
  wh: Warehouse;
  writer: Writer;
  zone: LandingZone;
  merger: Merger;
  budgets: BudgetBackend;
  publisher: MidRunPublisher;
  summaries: Map<string, ProjectRunSummary>;
  timing: SyncResult['timing'];
  /** The pool the writer's heavy steps run under (memory-pool.ts). */
  stepPool: ReturnType<typeof stepMemoryLimit>;
}

export async function runSync(deps: SyncDeps, cfg: SyncConfig, pipelines: readonly PipelineDefinition[] = PIPELINES): Promise<SyncResult> {
  const selected = selectPipelines(pipelines, cfg.pipelines);
  for (const w of cfg.warnings) deps.logger.warn(w);
  // Before anything else: a configured Redis budget that cannot be used stops the run here (exit 1).
  const budgets = await openBudgetBackend(
    { url: cfg.budgetUrl, source: cfg.budgetSource, dir: cfg.budgetDir, legacyDir: cfg.legacyBudgetDir, onWarning: (m) => deps.logger.warn(m) }, deps.clock);
  let lock: ReturnType<typeof acquireWriterLock> | null;
  try {
    lock = deps.dryRun ? null : acquireWriterLock(cfg.warehouse, 'docs-etl sync', deps.clock.now());
  } catch (err) {
    await budgets.close();
    throw err;
  }
  let wh: Warehouse | undefined;
  let publisher: MidRunPublisher | undefined;
  try {
    wh = await openRunWarehouse(deps, cfg);
    if (!deps.dryRun) await createDeclaredTables(wh.conn, pipelines);
    const run = createRunContext(deps, cfg, wh, budgets, pipelines);
    publisher = run.publisher;
    if (!deps.dryRun) await recover(run);
    const { runs, plans } = await readOrganizations(run, selected);
    if (deps.dryRun) return { runs, exitCode: EXIT.ok, plans, published: null, topics: null, timing: run.timing };
    await drainMerges(run, runs);
    await closeRuns(run, runs);
    // A stopped run (SIGTERM/SIGINT) publishes what it merged too, without the topic step: readers,
    // the lake and the report see it (issue 33). A second signal exits at once (src/cli/main.ts).
    const topics = deps.signal?.aborted ? null : await groupTopics(run);
    await run.publisher.settle();
    const published = await publishSnapshot(run);
    if (deps.afterPublish) await run.writer.run((c) => deps.afterPublish!(c));
    if (cfg.keepRawMs !== null) run.zone.pruneKept(deps.clock.now(), cfg.keepRawMs);
    return { runs, exitCode: exitCodeOf(runs), plans, published, topics, timing: run.timing };
  } finally {
    await publisher?.settle();
    wh?.close();
    lock?.release();
    await budgets.close();
  }
}

/** A dry run writes nothing: it plans from the warehouse read-only (or from nothing, before the first run). */
function openRunWarehouse(deps: SyncDeps, cfg: SyncConfig): Promise<Warehouse> {
  if (deps.dryRun) return openWarehouse(existsSync(cfg.warehouse) ? cfg.warehouse : ':memory:', { readOnly: existsSync(cfg.warehouse), readPath: cfg.readPath });
  return openWarehouse(cfg.warehouse, { memoryLimit: cfg.duckdb.memoryLimit, threads: cfg.duckdb.threads, readPath: cfg.readPath });
}

/** The writer, landing zone and merger of the run; merged batches count into the runs' summaries. */
function createRunContext(deps: SyncDeps, cfg: SyncConfig, wh: Warehouse, budgets: BudgetBackend, pipelines: readonly PipelineDefinition[]): RunContext {
  const writer = new Writer(wh.conn);
  const stepPool = stepMemoryLimit(cfg.duckdb.memoryLimit);
  const zone = new LandingZone(cfg.landingDir, ({ path, reason, dropped }) =>
    deps.logger.warn({ path, reason, dropped }, 'a landed page does not parse: dropped with the pages after it; they are read again from the page before it'));
  const summaries = new Map<string, ProjectRunSummary>();
  const publisher = new MidRunPublisher({
    clock: deps.clock, logger: deps.logger, intervalMs: cfg.publishIntervalMs, writer,
    publish: (c) => withMemoryLimit(c, stepPool, () => publishRead(c, wh.path, { ...cfg, lakeTables: SURFACE_LAKE_TABLES }, deps.clock.now())),
  });
  const merger = new Merger({
    writer, zone, pipelines, clock: deps.clock, logger: deps.logger, keepRaw: cfg.keepRawMs !== null,
    maxBatchRows: cfg.mergeBatchRows,
    memoryLimit: cfg.duckdb.memoryLimit,
    rereads: cfg.plan.rereads,
    onMerged: (batch) => {
      for (const [runId, c] of batch.runs) {
        const s = summaries.get(runId);
        if (s) {
          s.upserted += c.rows;
          s.quarantined += c.quarantined;
        }
      }
      publisher.afterBatch();
    },
  });
  const timing = { recoverMs: 0, fetchMs: 0, validateMs: 0, landMs: 0, mergeMs: 0, drainMs: 0, publishMs: 0 };
  return { deps, cfg, wh, writer, zone, merger, budgets, publisher, summaries, timing, stepPool };
}

/** Mark runs a dead process left, record the projects, and merge what earlier runs landed but did not merge. */
async function recover(run: RunContext): Promise<void> {
  const { deps, cfg } = run;
  await run.writer.run(async (c) => {
    await interruptStaleRuns(c, deps.clock.now());
    await upsertProjects(c, cfg.projects, deps.clock.now());
  });
  const t = performance.now();
  const failed = await run.merger.recover();
  if (failed) deps.logger.error({ err: failed }, 'recovery merge failed');
  run.timing.recoverMs = performance.now() - t;
}

/**
 * Every organization at once (projects of one organization share its budget; organizations share
 * nothing): plan its streams as one and, unless a dry run, read the selected windows.
 */
async function readOrganizations(run: RunContext, selected: readonly PipelineDefinition[]): Promise<{ runs: ProjectRunSummary[]; plans: SyncResult['plans'] }> {
  const byOrg = new Map<string, SyncConfig['projects']>();
  for (const p of run.cfg.projects) byOrg.set(p.organization, [...(byOrg.get(p.organization) ?? []), p]);
  const plans: SyncResult['plans'] = [];
  const reader = await run.wh.connect();
  const fetchStarted = performance.now();
  const perOrg = await Promise.all([...byOrg].map(([organization, projects]) => readOrganization(run, reader, selected, organization, projects, plans)));
  run.timing.fetchMs = performance.now() - fetchStarted;
  return { runs: perOrg.flat(), plans };
}

async function readOrganization(run: RunContext, reader: DuckDBConnection, selected: readonly PipelineDefinition[], organization: string,
  projects: SyncConfig['projects'], plans: SyncResult['plans']): Promise<ProjectRunSummary[]> {
  const { deps, cfg, writer, merger, zone } = run;
  // A page the merge could not load at the memory limit is refused at fetch (mergeable-page.ts).
  const pageCap = pageCapFor(cfg.maxPageBytes, cfg.duckdb.memoryLimit);
  const budget = createBudget({
    store: run.budgets.store(organization, (file, reason) =>
      deps.logger.warn({ file, reason }, 'request log was damaged: starting a fresh one (429s from the server still hold the budget)')),
    rate: cfg.rate, clock: deps.clock, maxWaitMs: cfg.maxWaitMs, requestTimeoutMs: cfg.requestTimeoutMs,
    onWait: (ms) => deps.logger.info({ organization, waitMs: ms }, 'waiting for rate budget'),
  });
  const streams: OrgStream[] = await loadStreams(reader, zone, projects.flatMap((p) => selected.map((pipeline) => ({
    project: p, pipeline,
    client: createAnalyticsClient({
      baseUrl: p.baseUrl, apiKey: p.apiKey, keySource: p.keySource, budget, clock: deps.clock, logger: deps.logger, retry: deps.retry,
      timeoutMs: cfg.requestTimeoutMs, maxBodyBytes: pageCap.bytes, maxBodyName: pageCap.name,
      onResponse: (endpoint, code) => deps.onResponse?.({ projectId: p.projectId, pipeline: pipeline.name, organization, endpoint, code }),
    }),
  }))), deps.clock.now(), merger);
  // All history: where it starts, probed once (issue 34), so the estimate exists after the first run.
  if (!deps.dryRun) {
    await probeNewHistories(streams, {
      budget, now: () => deps.clock.now().getTime(), warn: (m) => deps.logger.warn(m), signal: deps.signal,
      save: (projectId, pipeline, p) => writer.run((c) => writeHistoryProbe(c, projectId, pipeline, p)),
    });
  }
  await budget.refresh();
  const available = budget.available(cfg.maxWaitMs);
  const plan = planOrganization(streams, { ...cfg.plan, lookbackMs: cfg.lookbackMs ?? undefined }, deps.clock.now(), available);
  plans.push({ organization, plan, available });
  if (deps.dryRun) return [];
  return runOrg({
    zone, budget, clock: deps.clock, logger: deps.logger, signal: deps.signal, timing: run.timing,
    onLanded: (f) => merger.enqueue(f),
    available: () => budget.available(cfg.maxWaitMs) - plan.reserve,
    windowPages: cfg.plan.windowPages,
    mergeFailed: (pipeline, projectId) => merger.isFailed(pipeline, projectId),
    startRun: async (s) => {
      run.summaries.set(s.runId, s);
      const project = projects.find((p) => p.projectId === s.projectId)!;
      await writer.run(async (c) => {
        await registerStream(c, { projectId: s.projectId, pipeline: s.pipeline, organization, backfillFrom: project.backfillFrom, now: deps.clock.now() });
        await startRun(c, { runId: s.runId, projectId: s.projectId, pipeline: s.pipeline, now: deps.clock.now() });
      });
    },
    onPage: (s) => deps.onPage?.(s, budget),
    // Windows the API paged without end (issue 33): parked in the warehouse, retried with backoff.
    park: (s, w, reason) => writer.run((c) => parkWindow(c, { projectId: s.projectId, pipeline: s.pipeline.name, from: w.from, to: w.to, purpose: w.purpose, reason, now: deps.clock.now() })),
    unpark: (s) => writer.run((c) => unparkWindow(c, s.projectId, s.pipeline.name)),
  }, streams, plan);
}

/** Wait for the last merges; a stream whose merge failed fails its run (an out-of-memory names the setting). */
async function drainMerges(run: RunContext, runs: ProjectRunSummary[]): Promise<void> {
  const { merger } = run;
  const drainStarted = performance.now();
  try {
    await merger.drain();
  } catch (err) {
    for (const r of runs) {
      if (merger.isFailed(r.pipeline, r.projectId) && r.status !== 'failed') {
        r.status = 'failed';
        r.error = messageOf(err);
        r.cause = err;
      }
      // An out-of-memory names the setting to raise, whatever stopped the stream's reading first.
      const oom = merger.outOfMemory(r.pipeline, r.projectId);
      if (oom) Object.assign(r, { status: 'failed', error: oom, cause: err });
    }
  }
  run.timing.drainMs = performance.now() - drainStarted;
  run.timing.mergeMs = merger.stats.ms;
}

/** Record each run's end, then the operations' own rows (they are in the snapshot published next). */
async function closeRuns(run: RunContext, runs: ProjectRunSummary[]): Promise<void> {
  const { deps, writer } = run;
  for (const r of runs) {
    await writer.run((c) => finishRun(c, { runId: r.runId, status: r.status, error: r.error, requests: r.requests, span: spanOf(r), now: deps.clock.now() }));
  }
  if (deps.beforePublish) await writer.run((c) => deps.beforePublish!(c, runs));
}

/**
 * Gap topics (docs/topics.md) from what this run merged, in the snapshot readers get next; under
 * the writer's step pool, at the whole limit if it needs it (the step reports a project's failure
 * instead of throwing).
 */
function groupTopics(run: RunContext): Promise<TopicUpdate> {
  const { deps, cfg } = run;
  return namingMemoryLimit('grouping gap topics', cfg.duckdb.memoryLimit, () => run.writer.run((c) =>
    updateGapTopics({ clock: deps.clock, logger: deps.logger }, c, cfg.projects.map((p) => p.projectId), cfg.topics, { pool: run.stepPool })));
}

/** The read snapshot readers open, under the step pool (at the whole limit if it needs it). */
async function publishSnapshot(run: RunContext): Promise<Published> {
  const { deps, cfg, wh } = run;
  const published = await namingMemoryLimit('publishing the read snapshot', cfg.duckdb.memoryLimit, () => run.writer.run((c) =>
    withMemoryLimit(c, run.stepPool, () => publishRead(c, wh.path, { ...cfg, lakeTables: SURFACE_LAKE_TABLES }, deps.clock.now()))));
  run.timing.publishMs = published.ms;
  for (const w of published.warnings ?? []) deps.logger.warn(w);
  return published;
}

/** The pipelines named, or by default every pipeline but the opt-in ones. */
export function selectPipelines(all: readonly PipelineDefinition[], names: string[] | null): PipelineDefinition[] {
  if (!names) return all.filter((p) => !p.optIn);
  const unknown = names.filter((n) => !all.some((p) => p.name === n));
  if (unknown.length) throw new UsageError(`unknown pipeline ${unknown.map((n) => `"${n}"`).join(', ')}: choose from ${all.map((p) => p.name).join(', ')}`);
  return all.filter((p) => names.includes(p.name));
}

function exitCodeOf(runs: ProjectRunSummary[]): number {
  if (runs.some((r) => r.status === 'failed')) return EXIT.failed;
  if (runs.some((r) => r.status === 'budget_exhausted')) return EXIT.budget;
  return EXIT.ok;
}

