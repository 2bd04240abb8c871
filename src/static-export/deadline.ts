// The run's `--timeout`, measured on the injected clock. Waiting stops at the deadline with a
// message naming the job to resume.
import type { Clock } from '../core/clock.js';
import type { StaticExportApi } from './client.js';

/** What every wait of a run shares: the API, the clock, the stop signal, the pace and the deadline. */
export interface WaitOptions {
  api: StaticExportApi;
  clock: Clock;
  signal?: AbortSignal;
  intervalMs: number;
  deadline: Deadline;
  /** The `--timeout` the deadline came from, for the message. */
  timeoutMs: number;
}

export interface Deadline {
  readonly at: Date;
  remainingMs(): number;
  passed(): boolean;
}

export function deadlineAfter(clock: Clock, ms: number): Deadline {
  const at = new Date(clock.now().getTime() + ms);
  return {
    at,
    remainingMs: () => Math.max(0, at.getTime() - clock.now().getTime()),
    passed: () => clock.now().getTime() >= at.getTime(),
  };
}
