// Injected faults (tests and `--fault-rate`): each analytics request independently gets a fault
// with probability `faultRate`, chosen uniformly among the enabled kinds. The draws come from
// their own seeded stream, separate from the data, so faults never change what the data is.
import type { FaultKind } from './options.js';
import { pick, rngFor, type Rng } from './prng.js';

export const FAULT_KINDS: readonly FaultKind[] = ['http5xx', 'reset', 'truncate', 'repeat', 'malformed'];

export class FaultPicker {
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = rngFor(seed, 'faults');
  }

  next(rate: number, kinds: readonly FaultKind[]): FaultKind | null {
    if (rate <= 0 || kinds.length === 0) return null;
    return this.rng() < rate ? pick(this.rng, kinds) : null;
  }

  /** Status of an `http5xx` fault. */
  serverErrorStatus(): 500 | 502 | 503 {
    return pick(this.rng, [500, 502, 503] as const);
  }
}
