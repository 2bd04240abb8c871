// The scenario's one clock (a copy of test/helpers/fake-clock.ts, which src cannot import): it drives
// the sandbox and the sync alike. Sleeping advances it, so a budget wait costs virtual time and no
// real time; the harness moves it by hand between runs. Sleeps yield once so other I/O can run.
import type { Clock } from '../core/clock.js';

export class VirtualClock implements Clock {
  constructor(public ms: number) {}

  now(): Date {
    return new Date(this.ms);
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (!signal?.aborted) this.ms += Math.max(0, ms);
    await new Promise((r) => setImmediate(r));
  }

  /** Moves the clock forward to `at` (never back). */
  advanceTo(at: number): void {
    this.ms = Math.max(this.ms, at);
  }
}
