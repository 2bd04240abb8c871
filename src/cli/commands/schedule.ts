// `docs-etl schedule`: the built-in scheduler. stdout gets one line per run: when it started, its
// result (with each project's outcome), and the job's next run; the details are in the JSON logs.
import { Command } from 'commander';
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock } from '../../core/clock.js';
import { UsageError, exitCodeFor, messageOf } from '../../core/errors.js';
import { resolveSyncConfig, type SyncFlags } from '../../config/sync-config.js';
import { exportLakeAfterRun } from '../lake-after-run.js';
import { formatExportSummary } from '../../outputs/lake/export-summary.js';
import { openReader } from '../../sync/publish/open-reader.js';
import { checkReportPath, reportSummary, writeReport } from '../../outputs/report/write-report.js';
import { checkOneZone, writeProjectReports } from '../../outputs/report/project-reports.js';
import { runSync } from '../../sync/run/sync.js';
import { runStaticExport } from '../../static-export/run.js';
import { DEFAULT_EXPORTS_DIR, summary as staticExportSummary } from './static-export.js';
import { checkCron, checkTimezone, runScheduler, type PlannedJob, type RunEvent, type ScheduledJob } from '../../cron/scheduler.js';
import { formatDuration } from '../../core/duration.js';
import { formatRunNotes } from '../format.js';
import type { Logger } from '../../core/logger.js';
import { addSyncOptions } from './sync.js';
import { catchUpFor, catchUpWanted } from './schedule-catch-up.js';
import type { CommandFactory } from './index.js';

import { DEFAULT_CRON } from '../../cron/default-cron.js';
import { resolveOpsSettings, type OpsFlags } from '../../config/ops-config.js';
import { checkMetricsFile } from '../../outputs/metrics/metrics-file.js';
import { createOpsHooks } from '../../outputs/alerts/ops-hooks.js';
import { serveMetrics } from '../serve-metrics.js';

interface ScheduleFlags extends SyncFlags, OpsFlags {
  cron: string;
  timezone?: string;
  runNow?: boolean;
  catchUp?: boolean;
  report?: string;
  reportDir?: string;
  staticExportCron?: string;
  staticExportDomain?: string;
  staticExportValues?: string;
  staticExportOut: string;
}

export const scheduleCommand: CommandFactory = (ctx, setExitCode) =>
  addSyncOptions(new Command('schedule'))
    .description('long-running: a sync per cron tick, never overlapping; SIGTERM/SIGINT stop at the checkpoint and exit 0')
    .option('--cron <expr>', 'cron expression (5 fields, or 6 with seconds); default DOCS_ETL_CRON or "0 2 * * *"')
    .option('--timezone <tz>', 'IANA time zone of the cron expression (default the system zone)')
    .option('--run-now', 'also run once at start')
    .option('--catch-up', 'while a backfill is left, sync hourly (at the cron\'s minute), then back to --cron; default DOCS_ETL_CATCH_UP=1, else off')
    .option('--report <file>', 'after each sync, rewrite this HTML report (last 30 days, every project; atomically)')
    .option('--report-dir <dir>', 'after each sync, rewrite one HTML report per project in this folder (<project id>.html, last 30 days in its zone)')
    .option('--static-export-cron <expr>', 'also run a static export on this cron (needs --static-export-domain)')
    .option('--static-export-domain <host>', 'domain of the scheduled static export')
    .option('--static-export-values <file>', 'Helm values file refreshed by each scheduled static export')
    .option('--static-export-out <dir>', 'where scheduled static exports are kept', DEFAULT_EXPORTS_DIR)
    .option('--metrics-listen <host:port>', 'serve /metrics, /healthz and /readyz there (port 0 picks one; loopback when no host; default config metricsListen, else none)')
    .addHelpText('after', '\nA tick that comes while a run is still going is skipped and logged. Exit code 3 (budget) is a normal tick outcome.')
    .action(async (flags: ScheduleFlags) => {
      const cron = flags.cron ?? ctx.env.DOCS_ETL_CRON ?? DEFAULT_CRON;
      checkCron(cron);
      if (flags.report !== undefined) checkReportPath(flags.report, '--report');
      if (flags.timezone !== undefined) checkTimezone(flags.timezone);
      else warnOnLocalZone(ctx.logger);
      const cfg = resolveSyncConfig(flags, ctx.env, systemClock.now(), (m) => ctx.logger.warn(m));
      const ops = resolveOpsSettings(flags, ctx.env);
      if (ops.metricsFile) checkMetricsFile(ops.metricsFile);
      const hooks = createOpsHooks({ clock: systemClock, logger: ctx.logger }, cfg, ops);
      // Refused now, not at every tick: one report cannot sum days of different zones.
      if (flags.report !== undefined) checkOneZone(cfg.projects.map((p) => ({ projectId: p.projectId, timezone: p.timezone ?? 'UTC' })));
      if (flags.reportDir !== undefined && !flags.reportDir.trim()) throw new UsageError('--report-dir is empty: give a folder such as state/reports');
      // What the run in flight has to say for its line (runs never overlap, so one list).
      let notes: string[] = [];
      const say = (line: string) => ctx.stdout.write(`${systemClock.now().toISOString()} ${line}\n`);
      const cronNow = catchUpWanted(flags.catchUp, ctx.env) ? catchUpFor(cron, cfg, ctx.env, say) ?? undefined : undefined;
      const jobs: ScheduledJob[] = [{
        name: 'sync',
        cron,
        cronNow,
        run: async (signal) => {
          notes = [];
          const r = await runSync({ clock: systemClock, logger: ctx.logger, signal, ...hooks.syncDeps }, cfg, PIPELINES).catch((err: unknown) => {
            notes.push(messageOf(err));
            throw err;
          });
          notes.push(...formatRunNotes(r.runs));
          // The lake follows the warehouse after every tick that got data in (budget stops included).
          if (cfg.lake && r.exitCode !== 1 && !signal.aborted) {
            const summary = await exportLakeAfterRun({ logger: ctx.logger, clock: systemClock, env: ctx.env, signal }, { ...cfg, lake: cfg.lake }).catch((err: unknown) => {
              notes.push(messageOf(err)); // the run's line says why its lake export failed (the next tick runs as usual)
              throw err;
            });
            notes.push(formatExportSummary(summary));
          }
          // So does the report, replaced atomically: readers of the old file never see half a page.
          if (flags.report && r.exitCode !== 1 && !signal.aborted) {
            const wh = await openReader({ warehouse: cfg.warehouse, readPath: cfg.readPath });
            try {
              const written = await writeReport(wh.conn, flags.report, { sinceMs: 30 * 86_400_000, now: systemClock.now(), generator: 'docs-etl schedule' });
              ctx.stdout.write(`${systemClock.now().toISOString()} ${reportSummary(written)}\n`);
            } finally {
              wh.close();
            }
          }
          await hooks.afterRun();
          if (flags.reportDir && r.exitCode !== 1 && !signal.aborted) {
            const wh = await openReader({ warehouse: cfg.warehouse, readPath: cfg.readPath });
            try {
              const projects = cfg.projects.map((p) => ({ projectId: p.projectId, timezone: p.timezone ?? 'UTC' }));
              const now = systemClock.now();
              for (const o of await writeProjectReports(wh.conn, flags.reportDir, projects, { sinceMs: 30 * 86_400_000, now, generator: 'docs-etl schedule' })) {
                ctx.stdout.write(`${now.toISOString()} ${'written' in o ? reportSummary(o.written) : `report of ${o.projectId} not written: ${o.error}`}\n`);
              }
            } finally {
              wh.close();
            }
          }
          return r.exitCode;
        },
      }];
      if (flags.staticExportCron || flags.staticExportDomain) {
        if (!flags.staticExportCron || !flags.staticExportDomain) {
          throw new UsageError('--static-export-cron and --static-export-domain go together');
        }
        checkCron(flags.staticExportCron, '--static-export-cron');
        const project = cfg.projects[0]!;
        jobs.push({
          name: 'static-export',
          cron: flags.staticExportCron,
          run: async (signal) => {
            notes = [];
            try {
              const r = await runStaticExport(
                { domain: flags.staticExportDomain, outDir: flags.staticExportOut, warehousePath: cfg.warehouse, valuesFile: flags.staticExportValues,
                  timeoutMs: 60 * 60_000, pollIntervalMs: 5_000, keep: 5, requestTimeoutMs: cfg.requestTimeoutMs },
                { baseUrl: project.baseUrl, apiKey: project.apiKey, clock: systemClock, logger: ctx.logger, signal },
              );
              notes.push(staticExportSummary(r).trim().split('\n')[0]!);
              return 0;
            } catch (err) {
              ctx.logger.error({ job: 'static-export', err: (err as Error).message }, 'static export failed');
              notes.push((err as Error).message);
              return exitCodeFor(err);
            }
          },
        });
      }
      const metrics = ops.metricsListen ? await serveMetrics(ops.metricsListen, cfg, hooks.check, ctx) : null;
      try {
        await runScheduler({
          jobs, timezone: flags.timezone, runNow: flags.runNow, logger: ctx.logger, signal: ctx.signal,
          onStart: (planned) => ctx.stdout.write(`${startLine(systemClock.now(), planned, flags.timezone, flags.runNow === true)}\n`),
          onRun: (e) => ctx.stdout.write(`${runLine(e, notes)}\n`),
        });
      } finally {
        await metrics?.close();
      }
      setExitCode(0);
    });

/** `2026-11-05T02:00:00.000Z sync finished in 2s (demo succeeded, 3 pages, 3,000 turns); next run 2026-11-06T02:00:00.000Z` */
export function runLine(e: RunEvent, notes: readonly string[]): string {
  const result = e.code === 0 ? 'finished' : e.code === 3 ? 'stopped on the rate budget (exit 3)' : `failed (exit ${e.code})`;
  const detail = notes.length ? ` (${notes.join('; ')})` : '';
  const next = e.nextRun ? e.nextRun.toISOString() : 'none';
  return `${e.startedAt.toISOString()} ${e.job} ${result} in ${formatDuration(e.finishedAt.getTime() - e.startedAt.getTime())}${detail}; next run ${next}`;
}

/** `2026-11-05T01:00:00.000Z schedule started: sync on "0 2 * * *" (UTC), next run 2026-11-05T02:00:00.000Z`: said at once, before any run ends. */
export function startLine(now: Date, planned: readonly PlannedJob[], timezone: string | undefined, runNow: boolean): string {
  const zone = timezone ?? `${Intl.DateTimeFormat().resolvedOptions().timeZone}, the system zone`;
  const jobs = planned.map((j) => `${j.job} on "${j.cron}" (${zone}), next run ${j.nextRun ? j.nextRun.toISOString() : 'none'}`);
  return `${now.toISOString()} schedule started: ${jobs.join('; ')}${runNow && planned[0] ? `; running ${planned[0].job} now` : ''}`;
}

/** Cron times without --timezone follow the machine's zone (node-cron); say so when that is not UTC. */
function warnOnLocalZone(logger: Logger): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone !== 'UTC' && zone !== 'Etc/UTC') {
    logger.warn({ systemTimeZone: zone }, 'cron times are read in the system time zone: pass --timezone to state the zone');
  }
}
