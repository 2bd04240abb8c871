// The `status` command's work, loaded only once its options have parsed (src/cli/commands/status.ts):
// a usage error or `--help` never loads DuckDB, the status collector or the budget stores.
import { existsSync } from 'node:fs';
import { systemClock } from '../../core/clock.js';
import { chooseBudgetDir } from '../../config/budget-dir.js';
import { formatDuration } from '../../core/duration.js';
import { EXIT } from '../../core/errors.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { explainReadError } from '../../warehouse/warehouse.js';
import { writerLockHolder } from '../../warehouse/writer-lock.js';
import { openReader, throwIfDamaged } from '../../sync/publish/open-reader.js';
import { parseRedisUrl } from '../../budget/redis-url.js';
import { collectStatus, type OrgBackfill, type Status, type StreamStatus } from '../../outputs/status/collect-status.js';
import { checkVerdict } from '../../outputs/status/check-verdict.js';
import { freshnessFromConfig } from '../../config/ops-config.js';
import { NO_SNAPSHOT_LINE, renderUnpublished, unpublishedStatus } from '../../outputs/status/unpublished-status.js';
import { formatTable } from '../format.js';
import { cronCadenceS, estimatePhrase } from '../../outputs/status/backfill-estimate.js';
import { DEFAULT_CRON } from '../../cron/default-cron.js';
import type { CliContext } from '../context.js';
import type { StatusFlags } from './status.js';

/** One `docs-etl status` of the warehouse at `path` (read at `readPath`); sets the exit code. */
export async function runStatusCommand(ctx: CliContext, setExitCode: (code: number) => void, flags: StatusFlags, path: string, readPath: string): Promise<void> {
  if (!existsSync(readPath) && (existsSync(path) || writerLockHolder(path))) {
    // Before the first publish: what can be said without opening the writer's file.
    throwIfDamaged(path);
    const u = unpublishedStatus(path, readPath);
    ctx.stdout.write(flags.check ? `unhealthy: ${NO_SNAPSHOT_LINE}\n` : flags.json ? `${JSON.stringify(u)}\n` : `${renderUnpublished(u)}\n`);
    setExitCode(flags.check ? EXIT.failed : EXIT.ok);
    return;
  }
  const wh = await openReader({ warehouse: path, readPath });
  // The same folder as sync (config budgetDir arrives as DOCS_ETL_BUDGET_DIR, grammar.ts).
  const budget = chooseBudgetDir(ctx.env, undefined, path);
  try {
    const status = await collectStatus({
      conn: wh.conn, clock: systemClock, warehouse: path, readPath, lake: null,
      budgetDir: budget.dir, legacyBudgetDir: budget.legacyDir, onWarning: (m) => ctx.stderr.write(`docs-etl: warning: ${m}\n`),
      budgetUrl: budgetUrlFromEnv(ctx.env),
      rate: flags.rateLimit ?? { limit: 100, windowMs: 3_600_000 }, maxWaitMs: 15 * 60_000,
      // Before two runs show the cadence: the schedule's (DOCS_ETL_CRON, else its nightly default).
      scheduleCadenceS: cronCadenceS(ctx.env.DOCS_ETL_CRON ?? DEFAULT_CRON),
    });
    if (flags.check) {
      // The same verdict as the metrics server's /readyz and docs_etl_healthy (check-verdict.ts).
      const v = await checkVerdict(wh.conn, systemClock, status, { maxAgeMs: flags.maxAge, rereads: flags.rereads, freshness: freshnessFromConfig(flags.config) });
      ctx.stdout.write(`${v.line}\n`);
      // A slow first backfill is a warning, not a failure: the exit code stays the verdict's.
      for (const b of status.backfill) if (b.warning) ctx.stdout.write(`warning: ${b.warning}\n`);
      setExitCode(v.healthy ? EXIT.ok : EXIT.failed);
      return;
    }
    if (flags.json) {
      ctx.stdout.write(`${JSON.stringify(status)}\n`);
      setExitCode(EXIT.ok);
      return;
    }
    ctx.stdout.write(`${render(status)}\n`);
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
}

/** DOCS_ETL_BUDGET_URL, checked (a malformed URL is exit 2); unset or blank: the local budget folder. */
function budgetUrlFromEnv(env: NodeJS.ProcessEnv): string | null {
  const url = env.DOCS_ETL_BUDGET_URL?.trim();
  if (!url) return null;
  parseRedisUrl(url, 'DOCS_ETL_BUDGET_URL');
  return url;
}

const dur = (s: number | null) => (s === null ? '' : formatDuration(s * 1000));
const num = (n: number | null) => (n === null ? 'unknown' : n.toLocaleString('en-US'));

function backfillText(x: StreamStatus): string {
  if (x.backfill.complete) return 'done';
  if (x.backfill.remaining_requests === null) return 'in progress (all history: until an empty week)';
  return `${num(x.backfill.remaining_requests)} requests (~${x.backfill.remaining_hours!.toFixed(1)} h)`;
}

/** The organization's history, all pipelines together, at the observed cadence of its runs. */
function backfillLine(b: OrgBackfill): string {
  const head = `backfill ${b.organization}: `;
  if (b.runs === 0) return `${head}history complete`;
  const left = `${num(b.remaining_requests)} requests left over all pipelines${b.unknown_streams ? ` and ${b.unknown_streams} stream(s) reading all history` : ''}`;
  return b.runs === null
    ? `${head}${left}; no estimate yet${b.per_run === 0 ? ' (runs have no budget left for backfill)' : ''}`
    : `${head}${left}: ${estimatePhrase(b)} (about ${num(b.per_run)} requests a run go to backfill, ${num(b.per_run_fresh)} to heads and re-reads)`;
}

function render(s: Status): string {
  const rows = s.streams.map((x) => ({
    project: x.project_id,
    pipeline: x.pipeline,
    head: x.head_at ? `${x.head_at} (lag ${dur(x.head_lag_s)})` : 'nothing read yet',
    settled_to: x.settled_to ? `${x.settled_to} (${dur(x.unsettled_s)} unsettled)` : '',
    open_window: x.open_window ? `${x.open_window.purpose ?? ''} ${x.open_window.from} → ${x.open_window.to} (${x.open_window.pages} pages)` : '',
    backfill: backfillText(x),
    turns_per_day: num(x.turns_per_day),
    last_run: x.last_run ? `${x.last_run.status} at ${x.last_run.started_at}` : '',
    quarantined: x.quarantined,
  }));
  const lines = [
    `warehouse  ${s.warehouse}`,
    `read_path  ${s.read_path}  (open this one from BI tools, notebooks and the DuckDB CLI)`,
    ...(s.lake ? [`lake       ${s.lake}`] : []),
    `budget     ${s.budget_store}`,
    '',
    formatTable(rows),
    '',
    ...s.budget.map((b) => `budget ${b.organization}: ${b.used}/${b.limit} per ${b.window}${b.blocked_until ? `, BLOCKED by a 429 until ${b.blocked_until}` : ''}`),
    ...s.backfill.map(backfillLine),
  ];
  const lag = s.streams.filter((x) => x.lag_profile.length);
  if (lag.length) {
    lines.push('', 'late arrivals found by re-reads (last 7 days): share of rows new / changed');
    for (const x of lag) {
      lines.push(`  ${x.project_id}/${x.pipeline}: ${x.lag_profile.map((l) =>
        `${l.purpose} ${l.age}: ${(100 * l.new_share).toFixed(1)}% / ${(100 * l.changed_share).toFixed(1)}% of ${num(l.rows)}`).join('; ')}`);
    }
  }
  for (const x of s.streams) for (const w of x.warnings) lines.push(`warning: ${x.project_id}/${x.pipeline}: ${w}`);
  for (const b of s.backfill) if (b.warning) lines.push(`warning: ${b.warning}`);
  return lines.join('\n');
}
