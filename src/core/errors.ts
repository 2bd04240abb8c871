// Errors are named by what the runner does with them (design: Errors).

/** Exit codes of every command (README: Exit codes). */
export const EXIT = { ok: 0, failed: 1, usage: 2, budget: 3 } as const;

/** Stop the run: one clear line, non-zero exit; the checkpoint stays. 401/403/404/400 from the API. */
export class FatalError extends Error {
  override name = 'FatalError';
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/**
 * A request did not complete (connect, headers and the whole body) within its total deadline. Not
 * retried: a server that trickles would hold every attempt to the deadline. The run stops at its
 * checkpoint; the next run continues.
 */
export class RequestDeadlineError extends FatalError {
  override name = 'RequestDeadlineError';
}

/** A response body larger than its cap: not retried (the server would send it again). */
export class ResponseTooLargeError extends FatalError {
  override name = 'ResponseTooLargeError';
}

/** Try again after backoff: 429, 5xx, resets, timeouts, truncated bodies. */
export class RetriableError extends Error {
  override name = 'RetriableError';
  constructor(message: string, readonly status?: number, readonly retryAfterMs?: number) {
    super(message);
  }
}

/**
 * No connection to the API at all (refused, unknown host, no route): retried like any network
 * error, but once the retries are spent it is not a window too large (nothing to bisect; halving
 * would only multiply the attempts): the organization's run stops at its checkpoints.
 */
export class ConnectionFailedError extends RetriableError {
  override name = 'ConnectionFailedError';
}

/** The API could not be reached after every retry: the organization stops (see ConnectionFailedError). */
export class ApiUnreachableError extends FatalError {
  override name = 'ApiUnreachableError';
}

/**
 * A request kept failing with a server error or a timeout (the retries are spent). For a window
 * read this is what a too-large window looks like (504, timeouts): the runner bisects the window.
 */
export class RetriesExhaustedError extends FatalError {
  override name = 'RetriesExhaustedError';
  constructor(message: string, status: number | undefined, readonly timeout: boolean) {
    super(message, status);
  }
}

/** A stored cursor the API refused (400 on cursor): the window restarts from its start. */
export class CursorRejectedError extends Error {
  override name = 'CursorRejectedError';
}

/**
 * A landed page (state/landing) whose format version this docs-etl does not read: landed by a newer
 * version, or not a landed page. The run stops with this line instead of merging it wrongly or
 * dropping pages a newer version still needs.
 */
export class UnknownLandedVersionError extends FatalError {
  override name = 'UnknownLandedVersionError';
  constructor(readonly path: string, readonly version: unknown, readonly supported: number) {
    super(`landed page ${path} has format version ${JSON.stringify(version) ?? 'none'}; this docs-etl reads version ${supported}: `
      + 'run the docs-etl that landed it, or delete the landing folder to read those pages again');
  }
}

/** Bad flags, config or environment: exit 2 with one line naming the field. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The rate budget would need a wait longer than the run allows: stop at the checkpoint, exit 3. */
export class BudgetExhaustedError extends Error {
  override name = 'BudgetExhaustedError';
  constructor(message: string, readonly resumeAt: Date) {
    super(message);
  }
}

/** The run was asked to stop (SIGTERM/SIGINT) and did so at a checkpoint. */
export class StoppedError extends Error {
  override name = 'StoppedError';
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof BudgetExhaustedError) return EXIT.budget;
  if (err instanceof StoppedError) return EXIT.ok;
  return EXIT.failed;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
