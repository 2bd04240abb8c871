// The `schedule` command's jobs and scheduler, loaded only once every setting has been checked
// (src/cli/commands/schedule.ts): a usage error never loads the sync run, DuckDB, the report, the
// static export or the metrics server.
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock } from '../../core/clock.js';
import { exitCodeFor, messageOf } from '../../core/errors.js';
import { exportLakeAfterRun } from '../lake-after-run.js';
import { formatExportSummary } from '../../outputs/lake/export-summary.js';
import { openReader } from '../../sync/publish/open-reader.js';
import { reportSummary, writeReport } from '../../outputs/report/write-report.js';
import { writeProjectReports } from '../../outputs/report/project-reports.js';
import { runSync } from '../../sync/run/sync.js';
import { runStaticExport } from '../../static-export/run.js';
import { summary as staticExportSummary } from './static-export-action.js';
import { runScheduler, type PlannedJob, type RunEvent, type ScheduledJob } from '../../cron/scheduler.js';
import { formatDuration } from '../../core/duration.js';
import { formatRunNotes } from '../format.js';
import { createOpsHooks } from '../../outputs/alerts/ops-hooks.js';
import { serveMetrics } from '../serve-metrics.js';
import type { CliContext } from '../context.js';
import type { ScheduleFlags, ScheduleSettings } from './schedule.js';

/** `docs-etl schedule` once its settings are checked: the jobs, the metrics server, the scheduler until a signal. */
export async function runScheduleCommand(ctx: CliContext, setExitCode: (code: number) => void, flags: ScheduleFlags, settings: ScheduleSettings): Promise<void> {
  const { cron, cfg, ops, cronNow } = settings;
  const hooks = createOpsHooks({ clock: systemClock, logger: ctx.logger }, cfg, ops);
  // What the run in flight has to say for its line (runs never overlap, so one list).
  let notes: string[] = [];
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
  // Both or neither (checked in schedule.ts).
  if (flags.staticExportCron && flags.staticExportDomain) {
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
}

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
