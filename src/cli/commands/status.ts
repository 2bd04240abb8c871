import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { createBudget } from '../../api/budget.js';
import { RequestLog } from '../../api/request-log.js';
import { systemClock } from '../../core/clock.js';
import { formatDuration, type RateLimit } from '../../core/duration.js';
import { EXIT, FatalError } from '../../core/errors.js';
import { warehousePath } from '../../core/paths.js';
import { sqlFile } from '../../load/sql-files.js';
import { explainReadError, openWarehouse } from '../../load/warehouse.js';
import { formatTable } from '../format.js';
import { durationArg, intArg, rateLimitArg } from '../options.js';
import type { CommandFactory } from './index.js';

interface StatusFlags {
  warehouse?: string;
  check?: boolean;
  maxAge: number;
  rateLimit?: RateLimit;
  runs: number;
}

/** A tick stopped by the rate budget is a normal outcome: the next run continues. */
const HEALTHY = new Set(['succeeded', 'budget_exhausted']);

export const statusCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('status')
    .description('per project: high-water mark, open window, last runs, budget used in the last window, quarantine count')
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--check', "health check: exit 0 when every project's last run succeeded recently, else 1")
    .option('--max-age <duration>', 'with --check: how recent the last run must be', durationArg, 26 * 3_600_000)
    .option('--rate-limit <n/window>', 'the budget to report against (default 100/1h)', rateLimitArg)
    .option('--runs <n>', 'how many recent runs to list', intArg(0, 1000), 5)
    .action(async (flags: StatusFlags) => {
      const path = warehousePath(flags.warehouse, ctx.env);
      let wh;
      try {
        wh = await openWarehouse(path, { readOnly: true });
      } catch (err) {
        // A writer holds the lock: a sync is running right now, which is healthy.
        if (err instanceof FatalError && /in use by another/.test(err.message)) {
          ctx.stdout.write(`${err.message.replace(/; only one writer at a time$/, '')}: a run is in progress\n`);
          setExitCode(EXIT.ok);
          return;
        }
        throw err;
      }
      try {
        const projects = (await wh.conn.runAndReadAll(sqlFile('status/projects.sql'))).getRowObjectsJS();
        const now = Date.now();
        if (flags.check) {
          const bad = projects.length === 0 ? ['no runs recorded yet'] : projects.flatMap((p) => {
            const finished = p.last_finished_at ? new Date(String(p.last_finished_at)).getTime() : NaN;
            if (!HEALTHY.has(String(p.last_status))) return [`${p.project_id}: last run ${p.last_status ?? 'missing'}${p.last_error ? ` (${p.last_error})` : ''}`];
            if (!(now - finished <= flags.maxAge)) return [`${p.project_id}: last run finished ${formatDuration(now - finished)} ago`];
            return [];
          });
          ctx.stdout.write(bad.length ? `unhealthy: ${bad.join('; ')}\n` : `healthy: ${projects.length} project(s) synced within ${formatDuration(flags.maxAge)}\n`);
          setExitCode(bad.length ? EXIT.failed : EXIT.ok);
          return;
        }
        const rate = flags.rateLimit ?? { limit: 100, windowMs: 3_600_000 };
        const budgetDir = ctx.env.DOCS_ETL_BUDGET_DIR ?? join(dirname(wh.path), 'budget');
        const rows = projects.map((p) => {
          const usage = createBudget({ log: new RequestLog(budgetDir, String(p.organization)), rate, clock: systemClock, maxWaitMs: 0 }).usage();
          return {
            project: p.project_id,
            turns: p.turns,
            high_water: p.high_water,
            open_window: p.window_to ? `${p.window_from ?? 'beginning'} → ${p.window_to} (${p.window_pages} pages)` : '',
            last_run: p.last_status ? `${p.last_status} at ${(p.last_started_at as Date).toISOString()}` : '',
            budget_used: `${usage.used}/${usage.limit} per ${formatDuration(usage.windowMs)}`,
            quarantined: p.quarantined,
          };
        });
        ctx.stdout.write(`warehouse ${wh.path}\n\n${formatTable(rows)}\n`);
        if (flags.runs > 0) {
          const runs = (await wh.conn.runAndReadAll(sqlFile('status/recent-runs.sql'), { limit: flags.runs })).getRowObjectsJS();
          ctx.stdout.write(`\nrecent runs\n${formatTable(runs)}\n`);
        }
        setExitCode(EXIT.ok);
      } catch (err) {
        throw explainReadError(path, err);
      } finally {
        wh.close();
      }
    });
