// `docs-etl status`: per project and pipeline, how fresh and how complete the data is (head lag,
// unsettled span, backfill left, volume, what re-reads find late), the budget, the last runs, and
// where readers should look (`read_path`). Reads the published snapshot: never waits for a sync.
// Its options are checked with light modules; the work (DuckDB, the status collector) is loaded
// only once they parsed (status-action.ts), so a usage error or `--help` costs no engine load.
import { Command, Option } from 'commander';
import type { RateLimit } from '../../core/duration.js';
import { warehousePath } from '../../core/paths.js';
import { readPathFor } from '../../sync/publish/snapshot.js';
import { durationArg, intArg, rateLimitArg, rereadsArg } from '../options.js';
import type { RereadStage } from '../../sync/plan/reread-schedule.js';
import type { CommandFactory } from './index.js';

export interface StatusFlags {
  warehouse?: string;
  check?: boolean;
  maxAge: number;
  rateLimit?: RateLimit;
  runs: number;
  json?: boolean;
  rereads?: RereadStage[];
  /** --config (grammar.ts): its freshness SLAs join the check. */
  config?: string;
}

export const statusCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('status')
    .description('per project and pipeline: freshness (head lag, unsettled span), backfill left, volume, late arrivals, budget, last runs')
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--check', "health check: exit 0 when every stream's last run succeeded recently, no 429 block holds and no stream is older than its freshness SLA (config freshness), else 1")
    .addOption(new Option('--max-age <duration>', 'with --check: how recent the last run must be').argParser(durationArg).default(26 * 3_600_000, '26h'))
    .option('--rate-limit <n/window>', 'the budget to report against (default 100/1h)', rateLimitArg)
    .option('--runs <n>', 'how many recent runs to list', intArg(0, 1000), 5)
    .addOption(new Option('--rereads <schedule>', 'with --check: the re-read schedule sync uses, when not the default (config rereads)').argParser(rereadsArg))
    .option('--json', 'print one JSON object (read_path, streams, budget) instead of text')
    .action(async (flags: StatusFlags) => {
      const path = warehousePath(flags.warehouse, ctx.env);
      const readPath = readPathFor(path, ctx.env);
      const { runStatusCommand } = await import('./status-action.js');
      await runStatusCommand(ctx, setExitCode, flags, path, readPath);
    });
