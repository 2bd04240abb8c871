// `schedule --catch-up` (DOCS_ETL_CATCH_UP=1): the sync job's cronNow, hourly while a backfill is
// left and the configured cron after (src/cron/catch-up.ts). "Left" is what `status` says: the
// same warehouse read and estimate (backfill-basis.ts, backfill-estimate.ts), no formula of its own.
import { systemClock } from '../../core/clock.js';
import { booleanEnv } from '../../core/env-boolean.js';
import type { SyncConfig } from '../../config/sync-config.js';
import { hourlyRuns } from '../../outputs/status/backfill-estimate.js';
import type { Status } from '../../outputs/status/collect-status.js';
import { catchUpCron, hourlyCron, type BackfillLeft } from '../../cron/catch-up.js';

/** --catch-up, else DOCS_ETL_CATCH_UP (booleanEnv's words; unset or blank: off; anything else is exit 2). */
export function catchUpWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return flag === true || booleanEnv(env.DOCS_ETL_CATCH_UP, 'DOCS_ETL_CATCH_UP') === true;
}

/** Backfill left by the status estimate; with no warehouse yet, left (the first run probes history). */
export function backfillLeftOf(st: Status | null, rate: SyncConfig['rate']): BackfillLeft {
  if (!st) return { left: true, runs: null };
  const open = st.backfill.filter((b) => b.runs !== 0);
  if (!open.length) return { left: false, runs: 0 };
  // Organizations run side by side on budgets of their own: the slowest one sets the end.
  const runs = open.map((b) => hourlyRuns(b, rate));
  return { left: true, runs: runs.some((r) => r === null) ? null : Math.max(...(runs as number[])) };
}

/**
 * The sync job's cronNow, or null with the reason when the configured cron already runs at least
 * hourly (nothing to catch up by).
 */
export function catchUpFor(cron: string, cfg: SyncConfig, env: NodeJS.ProcessEnv, say: (line: string) => void): (() => Promise<string>) | null {
  const hourly = hourlyCron(cron);
  if (hourly === null) {
    say(`catch-up: "${cron}" already runs at least hourly, nothing to change`);
    return null;
  }
  return catchUpCron({
    cron, hourly, say,
    // The estimate at the configured cron's cadence until runs show one (as status does). Its
    // warehouse read is loaded here, at the first tick: `schedule`'s checks stay light.
    backfillLeft: async () => {
      const { backfillStatus } = await import('../../outputs/status/backfill-basis.js');
      return backfillLeftOf(await backfillStatus(cfg, { ...env, DOCS_ETL_CRON: cron }, systemClock, cron), cfg.rate);
    },
  });
}
