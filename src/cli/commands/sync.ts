import { Command } from 'commander';
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { resolveSyncConfig, type SyncFlags } from '../../config/sync-config.js';
import { createProgressLine } from '../../run/progress.js';
import { runSync } from '../../run/sync.js';
import { formatRunLine } from '../format.js';
import { serverText } from '../../core/server-text.js';
import { secretsOf } from '../../core/secrets.js';
import { dateArg, durationArg, rateLimitArg, requestTimeoutArg } from '../options.js';
import type { CommandFactory } from './index.js';

export function addSyncOptions(cmd: Command): Command {
  return cmd
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--project <id>', 'project to sync (default DOCS_PROJECT_ID; with --config, only this one)')
    .option('--lookback <duration>', 're-read this much before the high-water mark (late analytics)', durationArg)
    .option('--from <date>', 'backfill start of the first run (YYYY-MM-DD or ISO 8601)', dateArg)
    .option('--rate-limit <n/window>', 'requests per organization per window (default 100/1h)', rateLimitArg)
    .option('--max-wait <duration>', 'longest wait for budget before stopping at a checkpoint (default 15m)', durationArg)
    .option('--request-timeout <duration>',
      'longest time one API request may take, connect, headers and body together (default 60s, at most 24h); '
      + 'a request past it is not retried: the run stops at its checkpoint (exit 1) and the next run continues', requestTimeoutArg)
    .option('--config <file>', 'JSON config listing several projects / organizations');
}

export const syncCommand: CommandFactory = (ctx, setExitCode) =>
  addSyncOptions(new Command('sync'))
    .description('one incremental, exactly-once run for each configured project')
    .addHelpText('after', `
Environment: DOCS_API_KEY (admin key), DOCS_PROJECT_ID, DOCS_API_BASE_URL (default https://api.mintlify.com),
DOCS_ETL_BUDGET_DIR (shared request log; default <warehouse dir>/budget), LOG_LEVEL,
DOCS_ETL_MAX_PAGE_BYTES (cap on one response body, default 64 MiB: a larger page stops the run, not retried).
A 429's Retry-After is honored for at least 1s and at most one --rate-limit window.
Exit codes: 0 done, 1 failed, 2 bad usage, 3 stopped on rate budget (the next run continues).`)
    .action(async (flags: SyncFlags) => {
      const cfg = resolveSyncConfig(flags, ctx.env, (m) => ctx.logger.warn(m));
      const progress = createProgressLine(ctx.stderr);
      const started = Date.now();
      const result = await runSync(
        {
          clock: systemClock, logger: ctx.logger, signal: ctx.signal,
          onPage: (s, budget) => {
            const u = budget.usage();
            progress.update({ project: s.projectId, pages: s.pages, turns: s.upserted, requests: s.requests, budget: `${u.limit - u.used}/${u.limit}` });
          },
        },
        cfg,
        PIPELINES,
      );
      progress.stop();
      for (const r of result.runs) ctx.stdout.write(`${formatRunLine(r)}\n`);
      // Errors may quote a server: one clean line, no key (serverText), whatever the run stored.
      const secrets = [...cfg.projects.map((p) => p.apiKey), ...secretsOf(ctx.env)];
      for (const r of result.runs) {
        if (r.status === 'failed') ctx.stderr.write(`docs-etl: error: ${r.projectId}: ${serverText(r.error ?? 'failed', secrets, 2000)}\n`);
      }
      ctx.stdout.write(`sync finished in ${formatDuration(Date.now() - started)}: exit ${result.exitCode}\n`);
      setExitCode(result.exitCode);
    });
