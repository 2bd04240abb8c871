import type { Clock } from '../../src/core/clock.js';

/** A clock tests move by hand; sleeping advances it instead of waiting. */
export class FakeClock implements Clock {
  constructor(private t: number) {}
  now(): Date {
    return new Date(this.t);
  }
  async sleep(ms: number): Promise<void> {
    this.t += Math.max(0, ms);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
