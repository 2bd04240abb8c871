// The catch-up mode of `docs-etl schedule` (issue 34, item 2): while a first backfill is left, runs
// come hourly, at the configured cron's minute (so they never pile up: one tick an hour, and the
// scheduler's one-run-at-a-time rule still skips a tick during a run); once the backfill is
// complete, the configured cron applies again. Opt-in (--catch-up): docs/scheduling.md says why.

/** What the warehouse says of the backfill left (the same estimate as `status`). */
export interface BackfillLeft {
  left: boolean;
  /** Hourly runs until complete; null: no estimate yet. */
  runs: number | null;
}

export interface CatchUpOptions {
  /** The configured cron: the one that applies once the backfill is complete. */
  cron: string;
  /** The hourly cron of the catch-up (hourlyCron). */
  hourly: string;
  backfillLeft: () => Promise<BackfillLeft>;
  /** Says when the mode starts and when it ends (one line each). */
  say: (line: string) => void;
}

/**
 * The hourly cron at the configured cron's second and minute ("0 2 * * *" -> "0 * * * *"), or null
 * when the configured cron already runs at least hourly (its minute is not one fixed number, or its
 * hour is every hour): catching up would then slow it down.
 */
export function hourlyCron(cron: string): string | null {
  const f = cron.trim().split(/\s+/);
  const six = f.length === 6;
  const [sec, min, hour] = six ? f : ['0', ...f];
  if (!/^\d+$/.test(min ?? '') || !/^\d+$/.test(sec ?? '') || hour === '*') return null;
  return six ? `${sec} ${min} * * * *` : `${min} * * * *`;
}

/** The scheduler's cronNow for the sync job: hourly while a backfill is left, the configured cron after. */
export function catchUpCron(o: CatchUpOptions): () => Promise<string> {
  let on = false;
  return async () => {
    const b = await o.backfillLeft();
    if (b.left && !on) {
      o.say(`backfill left: running hourly until complete (${b.runs === null ? 'no estimate yet' : `about ${b.runs} run${b.runs === 1 ? '' : 's'}`}), then "${o.cron}"`);
    }
    if (!b.left && on) o.say(`backfill complete: back to "${o.cron}"`);
    on = b.left;
    return on ? o.hourly : o.cron;
  };
}
