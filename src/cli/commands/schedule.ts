import { Command } from 'commander';
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock } from '../../core/clock.js';
import { UsageError, exitCodeFor } from '../../core/errors.js';
import { resolveSyncConfig, type SyncFlags } from '../../config/sync-config.js';
import { exportLake } from '../../export/export-lake.js';
import { formatExportSummary } from '../../export/export-summary.js';
import { openWarehouse } from '../../load/warehouse.js';
import { runSync } from '../../run/sync.js';
import { runStaticExport } from '../../static-export/run.js';
import { DEFAULT_EXPORTS_DIR, summary as staticExportSummary } from './static-export.js';
import { checkCron, checkTimezone, runScheduler, type ScheduledJob } from '../../schedule/scheduler.js';
import { formatRunLine } from '../format.js';
import { addSyncOptions } from './sync.js';
import type { CommandFactory } from './index.js';

interface ScheduleFlags extends SyncFlags {
  cron: string;
  timezone?: string;
  runNow?: boolean;
  lake?: string;
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
    .option('--lake <dir>', 'after each sync, export the Parquet lake (incremental) into DIR')
    .option('--static-export-cron <expr>', 'also run a static export on this cron (needs --static-export-domain)')
    .option('--static-export-domain <host>', 'domain of the scheduled static export')
    .option('--static-export-values <file>', 'Helm values file refreshed by each scheduled static export')
    .option('--static-export-out <dir>', 'where scheduled static exports are kept', DEFAULT_EXPORTS_DIR)
    .addHelpText('after', '\nA tick that comes while a run is still going is skipped and logged. Exit code 3 (budget) is a normal tick outcome.')
    .action(async (flags: ScheduleFlags) => {
      const cron = flags.cron ?? ctx.env.DOCS_ETL_CRON ?? '0 2 * * *';
      checkCron(cron);
      if (flags.timezone !== undefined) checkTimezone(flags.timezone);
      const cfg = resolveSyncConfig(flags, ctx.env, (m) => ctx.logger.warn(m));
      const jobs: ScheduledJob[] = [{
        name: 'sync',
        cron,
        run: async (signal) => {
          const r = await runSync({ clock: systemClock, logger: ctx.logger, signal }, cfg, PIPELINES);
          for (const run of r.runs) ctx.stdout.write(`${new Date().toISOString()} ${formatRunLine(run)}\n`);
          // The lake follows the warehouse after every tick that got data in (budget stops included).
          if (flags.lake && r.exitCode !== 1 && !signal.aborted) {
            const wh = await openWarehouse(cfg.warehouse, { readOnly: true });
            try {
              const summary = await exportLake({ conn: wh.conn, logger: ctx.logger, clock: systemClock, signal }, { outDir: flags.lake });
              ctx.stdout.write(`${new Date().toISOString()} ${formatExportSummary(summary)}\n`);
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
            try {
              const r = await runStaticExport(
                { domain: flags.staticExportDomain, outDir: flags.staticExportOut, warehousePath: cfg.warehouse, valuesFile: flags.staticExportValues,
                  timeoutMs: 60 * 60_000, pollIntervalMs: 5_000, keep: 5, requestTimeoutMs: cfg.requestTimeoutMs },
                { baseUrl: project.baseUrl, apiKey: project.apiKey, clock: systemClock, logger: ctx.logger, signal },
              );
              ctx.stdout.write(staticExportSummary(r));
              return 0;
            } catch (err) {
              ctx.logger.error({ job: 'static-export', err: (err as Error).message }, 'static export failed');
              return exitCodeFor(err);
            }
          },
        });
      }
      await runScheduler({ jobs, timezone: flags.timezone, runNow: flags.runNow, logger: ctx.logger, signal: ctx.signal });
      setExitCode(0);
    });
