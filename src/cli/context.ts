// What every command gets: its streams and environment, passed in so tests can run commands
// in-process without touching the real process.
import type { Logger } from '../core/logger.js';

export interface CliContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGTERM/SIGINT: long-running commands stop at their next checkpoint. */
  signal: AbortSignal;
  logger: Logger;
}

