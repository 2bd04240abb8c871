import type { Clock } from '../../src/core/clock.js';

/**
 * A clock tests move by hand. By default sleeping advances it (waits for budget, backoff and polls
 * take no real time); with `sleepAdvances: false` sleeps return at once and leave it alone (sandbox
 * latency must not move the sandbox's own time). Sleeps yield once so other I/O can run.
 * The bench's virtual-day scenario (test/bench/day-scenario.ts) drives the sandbox and the sync with one.
 */
export class FakeClock implements Clock {
  constructor(public ms: number, private readonly opts: { sleepAdvances?: boolean } = {}) {}
  now(): Date {
    return new Date(this.ms);
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.opts.sleepAdvances !== false && !signal?.aborted) this.ms += Math.max(0, ms);
    await new Promise((r) => setImmediate(r));
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  /** Moves the clock forward to `at` (never back). */
  advanceTo(at: number): void {
    this.ms = Math.max(this.ms, at);
  }
}
