// The `sync` command's run, loaded only once its options have parsed (src/cli/commands/sync.ts):
// a usage error, `--help` and the grammar never load the engine, DuckDB, undici, the metrics
// registry or the lake's writer (about 0.6 s of CPU for every CLI process that stops at its options).
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { messageOf, StoppedError } from '../../core/errors.js';
import { formatExportSummary } from '../../outputs/lake/export-summary.js';
import { exportLakeAfterRun } from '../lake-after-run.js';
import type { SyncConfig, SyncFlags } from '../../config/sync-config.js';
import { createProgressLine } from '../../sync/run/progress.js';
import { NotReadError } from '../../sync/run/run-org.js';
import { runSync } from '../../sync/run/sync.js';
import { formatPlan } from '../format-plan.js';
import { formatNotRead, formatRunLine } from '../format.js';
import { serverText } from '../../core/server-text.js';
import { secretsOf } from '../../core/secrets.js';
import { DEFAULT_CRON } from '../../cron/default-cron.js';
import { backfillStatus, backfillStatusOn, basisLines } from '../../outputs/status/backfill-basis.js';
import type { Status } from '../../outputs/status/collect-status.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { OpsFlags, OpsSettings } from '../../config/ops-config.js';
import { checkMetricsFile } from '../../outputs/metrics/metrics-file.js';
import { createOpsHooks } from '../../outputs/alerts/ops-hooks.js';
import type { CliContext } from '../context.js';

export type SyncCommandFlags = SyncFlags & OpsFlags & { dryRun?: boolean };
/** The run's settings, resolved before this module loads (a bad flag or config costs no engine load). */
export interface SyncSettings { cfg: SyncConfig; ops: OpsSettings }

/** One `docs-etl sync`: the run, its lines, the lake after it, the backfill warning; sets the exit code. */
export async function runSyncCommand(ctx: CliContext, setExitCode: (code: number) => void, flags: SyncCommandFlags, settings: SyncSettings): Promise<void> {
  const { cfg, ops } = settings;
  if (ops.metricsFile) checkMetricsFile(ops.metricsFile);
  const hooks = createOpsHooks({ clock: systemClock, logger: ctx.logger }, cfg, ops);
  for (const w of cfg.warnings) ctx.stderr.write(`docs-etl: warning: ${w}\n`);
  cfg.warnings = [];
  const progress = createProgressLine(ctx.stderr);
  const started = systemClock.now().getTime();
  // The backfill status (the slow-backfill warning below), read on the run's own connection.
  let backfill = null as Status | null;
  const afterPublish = async (conn: DuckDBConnection) => {
    backfill = await backfillStatusOn(conn, cfg, ctx.env, systemClock, DEFAULT_CRON).catch(() => null);
  };
  const result = await runSync(
    {
      clock: systemClock, logger: ctx.logger, signal: ctx.signal, dryRun: flags.dryRun, ...hooks.syncDeps, afterPublish,
      onPage: (s, budget) => {
        const u = budget.usage();
        progress.update({ project: s.projectId, pages: s.pages, turns: s.upserted, requests: s.requests, budget: `${u.limit - u.used}/${u.limit}` });
      },
    },
    cfg,
    PIPELINES,
  );
  progress.stop();
  if (flags.dryRun) {
    ctx.stdout.write(`${formatPlan(result.plans, cfg.rate)}\n`);
    const st = await backfillStatus(cfg, ctx.env, systemClock, DEFAULT_CRON);
    for (const line of st ? basisLines(st) : []) ctx.stdout.write(`${line}\n`);
    setExitCode(result.exitCode);
    return;
  }
  for (const r of result.runs) if (!(r.cause instanceof NotReadError)) ctx.stdout.write(`${formatRunLine(r)}\n`);
  // Streams not read because another's answer stopped them: listed once per reason, one line.
  for (const line of formatNotRead(result.runs.filter((r) => r.cause instanceof NotReadError))) ctx.stdout.write(`${line}\n`);
  // Errors may quote a server: one clean line, no key (serverText), whatever the run stored.
  const secrets = [...cfg.projects.map((p) => p.apiKey), ...secretsOf(ctx.env)];
  // Fail fast, say it once: streams not read because another one's answer stopped their
  // organization or project (401, unknown project) have no error line of their own.
  for (const r of result.runs) {
    if (r.status === 'failed' && !(r.cause instanceof NotReadError)) {
      ctx.stderr.write(`docs-etl: error: ${r.projectId}: ${serverText(r.error ?? 'failed', secrets, 2000)}\n`);
    }
  }
  if (result.published) ctx.stdout.write(`read snapshot published: ${result.published.path}\n`);
  let exitCode = result.exitCode;
  // Opt-in: the lake follows the snapshot after a run that got data in (0, or 3: budget stop).
  if (cfg.lake && exitCode !== 1 && !ctx.signal.aborted) {
    try {
      const summary = await exportLakeAfterRun({ logger: ctx.logger, clock: systemClock, env: ctx.env, signal: ctx.signal }, { ...cfg, lake: cfg.lake });
      ctx.stdout.write(`${formatExportSummary(summary)}\n`);
    } catch (err) {
      if (err instanceof StoppedError) ctx.stderr.write(`docs-etl: ${messageOf(err)}\n`);
      else {
        ctx.stderr.write(`docs-etl: error: lake: ${serverText(messageOf(err), secrets, 2000)}\n`);
        exitCode = 1;
      }
    }
  }
  // A first backfill that takes more than a few days says so, with how to go faster (issue 34).
  if (exitCode !== 1) {
    const st = backfill;
    for (const b of st?.backfill ?? []) if (b.warning) ctx.stderr.write(`docs-etl: warning: ${b.warning}\n`);
  }
  await hooks.afterRun();
  ctx.stdout.write(`sync finished in ${formatDuration(systemClock.now().getTime() - started)}: exit ${exitCode}\n`);
  setExitCode(exitCode);
}
