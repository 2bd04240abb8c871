// The OpsView of the published read snapshot, as `status` reads it (the metrics server on each
// scrape, the textfile after each run): null before the first publish.
import { existsSync } from 'node:fs';
import type { Clock } from '../../core/clock.js';
import type { SyncConfig } from '../../config/sync-config.js';
import { openReader } from '../../sync/publish/open-reader.js';
import type { StatusInput } from '../status/collect-status.js';
import type { CheckOptions } from '../status/check-verdict.js';
import { readOpsView, type OpsView } from './ops-view.js';

/** What collectStatus needs from the sync's configuration (the same budget and rate as `status --config`). */
export function statusInputOf(cfg: SyncConfig, conn: StatusInput['conn'], clock: Clock): StatusInput {
  return {
    conn, clock, warehouse: cfg.warehouse, readPath: cfg.readPath, lake: null, budgetDir: cfg.budgetDir, legacyBudgetDir: null,
    budgetUrl: cfg.budgetUrl ?? null, rate: cfg.rate, maxWaitMs: cfg.maxWaitMs,
  };
}

export async function snapshotView(cfg: SyncConfig, clock: Clock, check: CheckOptions): Promise<OpsView | null> {
  if (!existsSync(cfg.readPath)) return null;
  const wh = await openReader({ warehouse: cfg.warehouse, readPath: cfg.readPath });
  try {
    return await readOpsView(statusInputOf(cfg, wh.conn, clock), check);
  } finally {
    wh.close();
  }
}
