// The verdict of `status --check`, as one function: the CLI's exit code and line, the metrics
// server's /readyz, the docs_etl_healthy gauge and the alerts all read it, so they never disagree.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Clock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import type { RereadStage } from '../../sync/plan/reread-schedule.js';
import type { Status } from './collect-status.js';
import type { FreshnessSla } from './freshness.js';
import { collectHealthFacts, healthProblems, type HealthFacts } from './health-check.js';

export interface CheckOptions {
  maxAgeMs: number;
  rereads?: readonly RereadStage[];
  freshness?: FreshnessSla;
}

export interface Verdict {
  healthy: boolean;
  /** The one line `status --check` prints: `healthy: …` or `unhealthy: problem; problem`. */
  line: string;
  problems: string[];
  facts: HealthFacts;
}

/** Default of `status --check --max-age`. */
export const DEFAULT_MAX_AGE_MS = 26 * 3_600_000;

export async function checkVerdict(conn: DuckDBConnection, clock: Clock, status: Status, opts: CheckOptions): Promise<Verdict> {
  const facts = await collectHealthFacts(conn, clock, { rereads: opts.rereads });
  const problems = healthProblems(status, { maxAgeMs: opts.maxAgeMs, facts, freshness: opts.freshness });
  const line = problems.length
    ? `unhealthy: ${problems.join('; ')}`
    : `healthy: ${status.streams.length} stream(s) synced within ${formatDuration(opts.maxAgeMs)}`;
  return { healthy: !problems.length, line, problems, facts };
}
