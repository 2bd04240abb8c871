// `docs-etl schedule`: the built-in scheduler. stdout gets one line per run: when it started, its
// result (with each project's outcome), and the job's next run; the details are in the JSON logs.
// Every setting is checked here, in the order a user meets them, with light modules; the scheduler's
// jobs (the sync run, DuckDB, the report, the static export, the metrics server) are loaded only
// after (schedule-action.ts), so a usage error or `--help` costs no engine load.
import { Command } from 'commander';
import { systemClock } from '../../core/clock.js';
import { UsageError } from '../../core/errors.js';
import type { SyncConfig, SyncFlags } from '../../config/sync-config.js';
import type { OpsFlags, OpsSettings } from '../../config/ops-config.js';
import { DEFAULT_EXPORTS_DIR } from './static-export.js';
import { checkCron, checkTimezone } from '../../cron/scheduler.js';
import type { Logger } from '../../core/logger.js';
import type { CliContext } from '../context.js';
import { addSyncOptions } from './sync.js';
import { catchUpFor, catchUpWanted } from './schedule-catch-up.js';
import type { CommandFactory } from './index.js';
import { DEFAULT_CRON } from '../../cron/default-cron.js';

export interface ScheduleFlags extends SyncFlags, OpsFlags {
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

/** What `schedule` resolved before its jobs' modules load. */
export interface ScheduleSettings {
  cron: string;
  cfg: SyncConfig;
  ops: OpsSettings;
  /** The sync job's cron while a backfill is left (--catch-up), else none. */
  cronNow: (() => Promise<string>) | undefined;
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
      const settings = await scheduleSettings(ctx, flags);
      const { runScheduleCommand } = await import('./schedule-action.js');
      await runScheduleCommand(ctx, setExitCode, flags, settings);
    });

/** Every check of `schedule`, before any job: a bad flag, config or environment is one line, exit 2. */
async function scheduleSettings(ctx: CliContext, flags: ScheduleFlags): Promise<ScheduleSettings> {
  const cron = flags.cron ?? ctx.env.DOCS_ETL_CRON ?? DEFAULT_CRON;
  checkCron(cron);
  // The report's and the metrics file's modules load only when they are asked for.
  if (flags.report !== undefined) (await import('../../outputs/report/write-report.js')).checkReportPath(flags.report, '--report');
  if (flags.timezone !== undefined) checkTimezone(flags.timezone);
  else warnOnLocalZone(ctx.logger);
  const [{ resolveSyncConfig }, { resolveOpsSettings }] = await Promise.all([import('../../config/sync-config.js'), import('../../config/ops-config.js')]);
  const cfg = resolveSyncConfig(flags, ctx.env, systemClock.now(), (m) => ctx.logger.warn(m));
  const ops = resolveOpsSettings(flags, ctx.env);
  if (ops.metricsFile) (await import('../../outputs/metrics/metrics-file.js')).checkMetricsFile(ops.metricsFile);
  // Refused now, not at every tick: one report cannot sum days of different zones.
  if (flags.report !== undefined) {
    (await import('../../outputs/report/project-reports.js')).checkOneZone(cfg.projects.map((p) => ({ projectId: p.projectId, timezone: p.timezone ?? 'UTC' })));
  }
  if (flags.reportDir !== undefined && !flags.reportDir.trim()) throw new UsageError('--report-dir is empty: give a folder such as state/reports');
  const say = (line: string) => ctx.stdout.write(`${systemClock.now().toISOString()} ${line}\n`);
  const cronNow = catchUpWanted(flags.catchUp, ctx.env) ? catchUpFor(cron, cfg, ctx.env, say) ?? undefined : undefined;
  if (flags.staticExportCron || flags.staticExportDomain) {
    if (!flags.staticExportCron || !flags.staticExportDomain) {
      throw new UsageError('--static-export-cron and --static-export-domain go together');
    }
    checkCron(flags.staticExportCron, '--static-export-cron');
  }
  return { cron, cfg, ops, cronNow };
}

/** Cron times without --timezone follow the machine's zone (node-cron); say so when that is not UTC. */
function warnOnLocalZone(logger: Logger): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone !== 'UTC' && zone !== 'Etc/UTC') {
    logger.warn({ systemTimeZone: zone }, 'cron times are read in the system time zone: pass --timezone to state the zone');
  }
}
