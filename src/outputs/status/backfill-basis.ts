// What `sync` says of the first backfill after a run (the slow-backfill warning) and what
// `sync --dry-run` shows as the estimate's basis: turns a day seen, requests a week of history
// expected, the budget a run gives to backfill (issue 34, item 2). From the warehouse, read-only.
import { existsSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Clock } from '../../core/clock.js';
import type { SyncConfig } from '../../config/sync-config.js';
import { openWarehouse } from '../../warehouse/warehouse.js';
import { collectStatus, type Status } from './collect-status.js';
import { cronCadenceS, estimatePhrase } from './backfill-estimate.js';

export async function backfillStatus(cfg: SyncConfig, env: NodeJS.ProcessEnv, clock: Clock, defaultCron: string): Promise<Status | null> {
  if (!existsSync(cfg.warehouse)) return null;
  const wh = await openWarehouse(cfg.warehouse, { readOnly: true });
  try {
    return await backfillStatusOn(wh.conn, cfg, env, clock, defaultCron);
  } finally {
    wh.close();
  }
}

/**
 * The same from an open connection to the warehouse: a sync reads it on its writer's connection
 * once the run is published (SyncDeps.afterPublish) instead of opening the warehouse a second time.
 */
export function backfillStatusOn(conn: DuckDBConnection, cfg: SyncConfig, env: NodeJS.ProcessEnv, clock: Clock, defaultCron: string): Promise<Status> {
  return collectStatus({
    conn, clock, warehouse: cfg.warehouse, readPath: cfg.readPath, lake: null, budgetDir: cfg.budgetDir,
    legacyBudgetDir: cfg.legacyBudgetDir, budgetUrl: cfg.budgetUrl, rate: cfg.rate, maxWaitMs: cfg.maxWaitMs,
    scheduleCadenceS: cronCadenceS(env.DOCS_ETL_CRON ?? defaultCron),
  });
}

/** The estimate's basis, one line per organization with backfill left (dry run). */
export function basisLines(s: Status): string[] {
  const out: string[] = [];
  for (const b of s.backfill) {
    if (b.runs === 0) continue;
    const mine = s.streams.filter((x) => x.organization === b.organization);
    const turns = mine.reduce((n, x) => n + (x.turns_per_day ?? 0), 0);
    const perWeek = mine.find((x) => x.turns_per_day !== null) ? Math.ceil((turns * 7) / 1000) : null;
    out.push(`estimate basis ${b.organization}: ${turns ? `${turns.toLocaleString('en-US')} assistant turns/day seen (days with data)` : 'no turns/day seen yet'}` +
      `${perWeek === null ? '' : `, about ${perWeek} request(s) per week of history`}, ${b.per_run} request(s) a run go to backfill ` +
      `(${b.per_run_fresh} to heads and re-reads); ${b.remaining_requests} request(s) left` +
      `${b.runs === null ? '; no estimate yet (the first run probes where history starts)' : `: ${estimatePhrase(b)}`}`);
  }
  return out;
}
