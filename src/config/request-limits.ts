// The request deadline (`--request-timeout`, config `requestTimeout`): the longest one API request
// may take, connect, headers and the whole body together. Bounded so that a timer can hold it.
import { formatDuration, parseDuration } from '../core/duration.js';
import { UsageError } from '../core/errors.js';

/** Longest request deadline: a day (Node timers hold at most ~24.8 days). */
export const MAX_REQUEST_TIMEOUT_MS = 24 * 3_600_000;

export function parseRequestTimeout(text: string): number {
  const ms = parseDuration(text, 'request timeout');
  if (ms < 1) throw new UsageError(`invalid request timeout "${text}": must be positive`);
  if (ms > MAX_REQUEST_TIMEOUT_MS) throw new UsageError(`invalid request timeout "${text}": at most ${formatDuration(MAX_REQUEST_TIMEOUT_MS)}`);
  return ms;
}
