// Every remote wait of a lake export has an end (docs/lake.md, "Deadlines"):
//   - each S3 call (with its retries) fails after DOCS_ETL_S3_TIMEOUT (default 5m); each
//     attempt after half of it, a connection after at most 10 s, a stalled socket (mid-body) after
//     at most 60 s of silence. Multipart uploads are bounded per part (each part is a call);
//   - the whole export fails after DOCS_ETL_LAKE_DEADLINE (default 2h): the file in flight is
//     abandoned, the lock released, and the next export continues from the last manifest checkpoint;
//   - a listing stops with one line on a repeated or missing continuation token or past
//     MAX_LIST_PAGES pages (10 million objects).
import { FatalError, UsageError } from '../../core/errors.js';
import { formatDuration, parseDuration } from '../../core/duration.js';

export interface LakeDeadlines {
  /** One S3 call, retries included. */
  callMs: number;
  /** The whole export, lock to release. */
  exportMs: number;
}

export const DEFAULT_S3_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_LAKE_DEADLINE_MS = 2 * 3600_000;
export const MAX_LIST_PAGES = 10_000;

export function lakeDeadlines(env: NodeJS.ProcessEnv): LakeDeadlines {
  return {
    callMs: durationOf(env, 'DOCS_ETL_S3_TIMEOUT', DEFAULT_S3_TIMEOUT_MS),
    exportMs: durationOf(env, 'DOCS_ETL_LAKE_DEADLINE', DEFAULT_LAKE_DEADLINE_MS),
  };
}

/** The AWS SDK's request handler for calls of at most `callMs`: every timeout throws (never only a warning). */
export function s3HandlerOptions(callMs: number) {
  const attemptMs = Math.max(1, Math.ceil(callMs / 2));
  return {
    requestTimeout: attemptMs,
    connectionTimeout: Math.min(10_000, attemptMs),
    socketTimeout: Math.min(60_000, attemptMs),
    throwOnRequestTimeout: true,
  };
}

/** The one line of an export stopped by its deadline. */
export function deadlineError(location: string, exportMs: number): FatalError {
  return new FatalError(`lake ${location}: the export passed its deadline of ${formatDuration(exportMs)} (DOCS_ETL_LAKE_DEADLINE); the next export continues from the last checkpoint`);
}

/** A duration with its unit ("30s", "5m", "2h"); a typo is a usage error (exit 2) naming the variable. */
function durationOf(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const ms = parseDuration(text, name);
  if (ms <= 0) throw new UsageError(`invalid ${name} "${text}": must be more than 0`);
  return ms;
}
