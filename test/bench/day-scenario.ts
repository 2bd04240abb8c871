// The virtual-day scenario of issue 16 for one traffic rate, in one process on one virtual clock:
// the sandbox (steady traffic of R turns a day, the late-arrival and change model, 2 days of
// history, 100 requests/hour) and `runSync` (default settings, rate 100/1h, --from = the start of
// the sandbox's history) share the clock; budget waits advance it, so nothing really waits.
// Runs: a first one at S (on the hour), then hourly runs for `days` days (default 2): the last 24
// are the steady state, those before them the warm-up (day 1). A tick that comes while a run is still going is skipped, as `docs-etl schedule` does.
// Each run records what the sandbox saw (its request log), what the sync did (summaries, plan) and
// what the published snapshot's coverage map says; the comparisons with the truth come at the end
// (day-compare.ts), plus one cross-check on a steady run's own instant.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { assistantConversations } from '../../pipelines/index.js';
import { defaultSyncConfig, type ProjectConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync, type SyncResult } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, trafficOptions } from '../../src/tools/sandbox/index.js';
import { Scratch, type Freshness, type SettleCheck } from './day-compare.js';
import { countByPurpose, emptyByPurpose, idealRequests, probeCoverage, type ByPurpose, type CoverageProbe } from './day-metrics.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { maxInWindow } from '../helpers/window-stats.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY = 'mint_bench_day_scenario_key';
const PROJECT = 'demo';
/** Only the conversations pipeline: the targets are about turns, and the sandbox serves its endpoint. */
const PIPELINE = assistantConversations;
export const BUDGET = { limit: 100, windowMs: HOUR };
export const RUNS_PER_DAY = 24;

export type Phase = 'first' | 'warmup' | 'steady';

export interface DayRun {
  index: number;
  phase: Phase;
  startAt: number;
  endAt: number;
  exitCode: number;
  statuses: string[];
  errors: string[];
  /** Analytics requests the sandbox received during the run (its log), and how many were 429. */
  requests: number;
  http429: number;
  /** Turns that became visible since the previous run (visibleCount at both start instants), and their ideal cost. */
  newVisible: number;
  ideal: number;
  /** Windows started, their pages, and those left incomplete (budget stop), by purpose. */
  windows: ByPurpose;
  pages: ByPurpose;
  incomplete: ByPurpose;
  /** The plan: windows selected and deferred (optional, no budget), and selected but never started. */
  selected: ByPurpose;
  deferred: ByPurpose;
  notReached: ByPurpose;
  coverage: CoverageProbe;
  realMs: number;
  timing: SyncResult['timing'];
}

export interface DayScenarioResult {
  rate: number;
  startMs: number;
  fromMs: number;
  endMs: number;
  /** Age by which an interval must have its settle read: the schedule's last stage, its slack, one run interval. */
  settleDueMs: number;
  runs: DayRun[];
  skippedTicks: number[];
  /** Freshness after each steady run (same order as the steady runs). */
  freshness: Freshness[];
  /** The freshness of one steady run computed on that instant's truth and snapshot, beside the reconstruction. */
  crossCheck: { index: number; direct: Freshness; reconstructed: Freshness } | null;
  settle: SettleCheck;
  requestTimes: number[];
  maxInHour: number;
  http429: number;
  /** Real seconds: the whole scenario, runSync (sandbox serving included), its merge and publish, the sandbox's truth, comparisons. */
  seconds: { total: number; sync: number; fetch: number; merge: number; publish: number; truth: number; compare: number };
}

export interface DayScenarioInput {
  rate: number;
  seed: number;
  workDir: string;
  /** S: the sandbox's start and the first run (on the hour). */
  startMs: number;
  /** Days of hourly runs after the first run (at least 2: the last day is the steady state). */
  days: number;
  /** Index of the steady run whose freshness is cross-checked directly (null: none). */
  crossCheckRun: number | null;
  log: (message: string) => void;
}

export async function runDayScenario(input: DayScenarioInput): Promise<DayScenarioResult> {
  const started = performance.now();
  const secs = { sync: 0, fetch: 0, merge: 0, publish: 0, truth: 0, compare: 0 };
  const timed = async <T>(what: 'truth' | 'compare', fn: () => T | Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      secs[what] += (performance.now() - t) / 1000;
    }
  };
  const S = input.startMs;
  const clock = new FakeClock(S);
  const sandbox = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: [PROJECT], clock, seed: input.seed, traffic: trafficOptions(input.rate), historyDays: 2, rateLimit: BUDGET,
  }));
  const scratch = await Scratch.open();
  try {
    const fromMs = S - 2 * DAY;
    const project: ProjectConfig = {
      projectId: PROJECT, apiKey: KEY, keySource: 'bench', baseUrl: sandbox.url, organization: keyFingerprint(KEY),
      backfillFrom: new Date(fromMs), timezone: 'UTC',
    };
    mkdirSync(input.workDir, { recursive: true });
    const cfg = defaultSyncConfig(join(input.workDir, 'warehouse.duckdb'), [project], { rate: BUDGET, budgetDir: join(input.workDir, 'budget') });
    const lastStage = cfg.plan.rereads.at(-1);
    const settleAgeMs = lastStage?.afterMs ?? 0;
    const settleDueMs = (lastStage ? lastStage.afterMs + lastStage.withinMs : 0) + HOUR;

    const runs: DayRun[] = [];
    const skippedTicks: number[] = [];
    let prevVisible: number | null = null;
    let published: string | null = null;
    let crossCheck: { index: number; direct: Freshness } | null = null;
    const total = 1 + RUNS_PER_DAY * input.days;
    const phaseOf = (index: number): Phase => (index === 0 ? 'first' : index < total - RUNS_PER_DAY ? 'warmup' : 'steady');
    for (let index = 0; index < total; index++) {
      const tick = S + index * HOUR;
      if (clock.ms > tick) {
        skippedTicks.push(index);
        continue;
      }
      clock.advanceTo(tick);
      const visible = await timed('truth', () => sandbox.visibleCount(PROJECT, tick));
      const newVisible = prevVisible === null ? visible : visible - prevVisible;
      prevVisible = visible;
      const logBefore = sandbox.requestLog(KEY).length;
      const t = performance.now();
      const r = await runSync({ clock, logger: silentLogger }, cfg, [PIPELINE]);
      const realMs = performance.now() - t;
      secs.sync += realMs / 1000;
      secs.fetch += r.timing.fetchMs / 1000;
      secs.merge += (r.timing.mergeMs + r.timing.recoverMs) / 1000;
      secs.publish += r.timing.publishMs / 1000;
      const requests = sandbox.requestLog(KEY).slice(logBefore).filter((x) => x.path.startsWith('/v1/analytics/'));
      if (r.published) published = r.published.path;
      const coverageRows = published
        ? await timed('compare', () => scratch.withSnapshot(published!, () => scratch.coverage(PROJECT, PIPELINE.name)))
        : [];
      const run = runRecord(index, phaseOf(index), r, {
        startAt: tick, endAt: clock.ms, requests: requests.length, http429: requests.filter((x) => x.status === 429).length,
        newVisible, realMs, coverage: probeCoverage(coverageRows, fromMs, clock.ms, { settleAgeMs, settleDueMs }),
      });
      runs.push(run);
      input.log(`${input.rate}/day run ${index} (${run.phase}): exit ${run.exitCode}, ${run.requests} requests (ideal ${run.ideal}), ` +
        `${(realMs / 1000).toFixed(1)} s real, ${((run.endAt - run.startAt) / 60_000).toFixed(1)} min virtual`);
      if (index === input.crossCheckRun && published) {
        const at = clock.ms;
        crossCheck = await timed('compare', async () => {
          await scratch.loadTruth('truth_x', await timed('truth', () => sandbox.truthKeys(PROJECT)));
          await scratch.withSnapshot(published!, () => scratch.copyWarehouse('rows_x', PROJECT, PIPELINE.name));
          const [direct] = await scratch.freshness('truth_x', 'rows_x', [at]);
          await scratch.dropTables('truth_x', 'rows_x', 'rows_x_cov');
          return { index, direct: direct! };
        });
      }
    }
    if (!published) throw new Error(`no run of the ${input.rate}/day scenario published a snapshot`);

    // The end: the truth now, the last snapshot; freshness of every steady run; the settle check.
    const endMs = clock.ms;
    const lastStart = runs.at(-1)!.startAt;
    const truth = await timed('truth', () => sandbox.truthKeys(PROJECT));
    input.log(`${input.rate}/day: comparing ${truth.count.toLocaleString('en-US')} turns with the warehouse`);
    const { freshness, settle, crossFresh } = await timed('compare', async () => {
      await scratch.loadTruth('truth', truth);
      await scratch.withSnapshot(published!, () => scratch.copyWarehouse('rows', PROJECT, PIPELINE.name));
      const steady = runs.filter((r) => r.phase === 'steady');
      const ends = [...steady.map((r) => r.endAt), ...(crossCheck ? [runs.find((r) => r.index === crossCheck!.index)!.endAt] : [])];
      const all = await scratch.freshness('truth', 'rows', ends);
      return {
        freshness: all.slice(0, steady.length),
        crossFresh: crossCheck ? all[steady.length]! : null,
        settle: await scratch.settleCheck('truth', 'rows', lastStart - settleDueMs),
      };
    });
    const requestTimes = sandbox.requestLog(KEY).filter((x) => x.path.startsWith('/v1/analytics/')).map((x) => x.at);
    return {
      rate: input.rate, startMs: S, fromMs, endMs, settleDueMs, runs, skippedTicks, freshness,
      crossCheck: crossCheck && crossFresh ? { ...crossCheck, reconstructed: crossFresh } : null,
      settle, requestTimes, maxInHour: maxInWindow(requestTimes, BUDGET.windowMs), http429: runs.reduce((n, r) => n + r.http429, 0),
      seconds: { total: (performance.now() - started) / 1000, ...secs },
    };
  } finally {
    scratch.close();
    await sandbox.close();
  }
}

/** One run's record from its SyncResult and what the harness measured around it. */
export function runRecord(
  index: number, phase: Phase, r: Pick<SyncResult, 'runs' | 'plans' | 'exitCode' | 'timing'>,
  m: { startAt: number; endAt: number; requests: number; http429: number; newVisible: number; realMs: number; coverage: CoverageProbe },
): DayRun {
  const windows = r.runs.flatMap((s) => s.windows);
  const selected = countByPurpose(r.plans.flatMap((p) => p.plan.selected.map((e) => e.window)));
  const started = countByPurpose(windows);
  const notReached = emptyByPurpose();
  for (const p of Object.keys(notReached) as (keyof ByPurpose)[]) notReached[p] = Math.max(0, selected[p] - started[p]);
  return {
    index, phase, startAt: m.startAt, endAt: m.endAt, exitCode: r.exitCode,
    statuses: r.runs.map((s) => s.status), errors: r.runs.flatMap((s) => (s.error ? [s.error] : [])),
    requests: m.requests, http429: m.http429, newVisible: m.newVisible, ideal: idealRequests(m.newVisible),
    windows: started, pages: countByPurpose(windows, (w) => w.pages), incomplete: countByPurpose(windows.filter((w) => !w.complete)),
    selected, deferred: countByPurpose(r.plans.flatMap((p) => p.plan.deferred.map((e) => e.window))), notReached,
    coverage: m.coverage, realMs: m.realMs, timing: r.timing,
  };
}
