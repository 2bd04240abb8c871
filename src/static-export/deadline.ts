// The run's `--timeout`, measured on the injected clock. Waiting stops at the deadline with a
// message naming the job to resume.
import type { Clock } from '../core/clock.js';

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
