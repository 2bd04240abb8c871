import { Command, InvalidArgumentError, Option } from 'commander';
import { PIPELINES } from '../../../pipelines/index.js';
import { UsageError } from '../../core/errors.js';
import { systemClock } from '../../core/clock.js';
import { MEMORY, parseKeepRaw } from '../../config/config-file.js';
import { formatRereads, parseRereads, DEFAULT_REREADS } from '../../sync/plan/reread-schedule.js';
import type { PipelineDefinition } from '../../sync/pipeline/definition.js';
import { dateArg, durationArg, intArg, rateLimitArg, requestTimeoutArg } from '../options.js';
import type { CommandFactory } from './index.js';
import type { SyncCommandFlags } from './sync-action.js';
const wrap = <T>(fn: (v: string) => T) => (v: string): T => {
  try {
    return fn(v);
  } catch (err) {
    if (err instanceof UsageError) throw new InvalidArgumentError(err.message);
    throw err;
  }
};

export function addSyncOptions(cmd: Command): Command {
  return cmd
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--project <id>', 'project to sync (default DOCS_PROJECT_ID; with --config, only this one)')
    .option('--from <date>', 'backfill down to this date (YYYY-MM-DD or ISO 8601, UTC when no offset); earlier than what is covered extends the backfill', dateArg)
    .option('--pipelines <names>', `pipelines to run, comma-separated (default all but opt-in ones: ${(PIPELINES as readonly PipelineDefinition[]).filter((p) => !p.optIn).map((p) => p.name).join(',')})`, (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('--rate-limit <n/window>', 'requests per organization per window (default 100/1h)', rateLimitArg)
    .option('--max-wait <duration>', 'longest wait for budget before stopping at a checkpoint (default 15m)', durationArg)
    .option('--max-window <duration>', 'longest window of one read (default 7d; a window the API times out on is bisected)', durationArg)
    .addOption(new Option('--rereads <schedule>', `when recent data is read again: ages after an interval ends, each +slack (default ${formatRereads(DEFAULT_REREADS)}; "none")`).argParser(wrap(parseRereads)))
    .addOption(new Option('--keep-raw <duration>', 'keep merged raw pages (compressed) this long, for `docs-etl rebuild`; none: delete them once merged').argParser(wrap(parseKeepRaw)).default(undefined, 'none'))
    .option('--memory-limit <size>', 'DuckDB memory limit (default 128MB)', (v: string) => {
      if (!MEMORY.test(v.trim())) throw new InvalidArgumentError(`expected a size such as 256MB or 1GB, got "${v}"`);
      return v.trim();
    })
    .option('--threads <n>', 'DuckDB threads (default 2)', intArg(1, 256))
    .option('--topic-period <duration>', 'gap topics group the unanswered questions of this period (default 90d; config topicPeriod)', durationArg)
    .addOption(new Option('--read-surface <kind>', 'how the read path is published: catalog (views over immutable Parquet files; cost of what changed) or copy (the whole warehouse file; native speed, cost grows with it) (default catalog)').choices(['catalog', 'copy']))
    .option('--read-grace <duration>', 'keep Parquet files a newer read catalog no longer names this long, for readers holding an older one (default 24h)', durationArg)
    .option('--lookback <duration>', 'deprecated: also re-read this span before the head on every run (the planner re-reads on a schedule instead)', durationArg)

    .option('--request-timeout <duration>',
      'longest time one API request may take, connect, headers and body together (default 60s, at most 24h); '
      + 'no answer within it counts as a window too large for the API (the window is read as two halves, as after a 504); '
      + 'a body that stalls past it stops the run at its checkpoint (exit 1) and the next run continues', requestTimeoutArg)
    .option('--lake <dir|s3://bucket/prefix>', 'after the run, export the Parquet lake (incremental) there; default DOCS_ETL_LAKE or config `lake` (none: no lake)')
    .option('--metrics-file <path>', 'after each run, write the metrics there in node_exporter textfile format, atomically (default DOCS_ETL_METRICS_FILE or config metricsFile)')
    .option('--config <file>', 'JSON config listing several projects / organizations');
}

export const syncCommand: CommandFactory = (ctx, setExitCode) =>
  addSyncOptions(new Command('sync'))
    .description('one incremental, exactly-once run for each configured project: the fresh head, due re-reads, then backfill, within the budget')
    .option('--dry-run', 'print the windows the next run would read, by purpose, with estimated requests; call no analytics endpoint')
    .addHelpText('after', `
Environment: DOCS_API_KEY (admin key), DOCS_PROJECT_ID, DOCS_API_BASE_URL (default https://api.mintlify.com),
DOCS_ETL_BUDGET_DIR (shared request log; default $XDG_STATE_HOME/docs-etl/budget or ~/.local/state/docs-etl/budget), LOG_LEVEL,
DOCS_ETL_BUDGET_URL (redis://[:password@]host:port/db: the request log in Redis, one budget across hosts),
DOCS_ETL_MAX_PAGE_BYTES (cap on one response body, default 64 MiB, at most what the merge loads at --memory-limit: 24 MiB at 128MB; a larger page stops the run, not retried).
A 429's Retry-After is honored for at least 1s and at most one --rate-limit window.
Exit codes: 0 done, 1 failed, 2 bad usage, 3 stopped on rate budget (the next run continues).`)
    .action(async (flags: SyncCommandFlags) => {
      // Settings first (light modules: a bad config is one line), then the run's modules, loaded only
      // here (sync-action.ts says why). Operations (docs/operations.md): request counts, alerts, the
      // metrics textfile.
      const [{ resolveSyncConfig }, { resolveOpsSettings }] = await Promise.all([import('../../config/sync-config.js'), import('../../config/ops-config.js')]);
      const cfg = resolveSyncConfig(flags, ctx.env, systemClock.now(), (m) => ctx.logger.warn(m));
      const ops = resolveOpsSettings(flags, ctx.env);
      const { runSyncCommand } = await import('./sync-action.js');
      await runSyncCommand(ctx, setExitCode, flags, { cfg, ops });
    });
