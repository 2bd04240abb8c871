// DuckDB's "Out of Memory Error" says nothing about the records or the data: the statement needed
// more than the writer's memory_limit (and could not spill it to temp_directory). It is neither a
// bad record (no repair, no quarantine) nor worth retrying at the same limit, so the run stops with
// one line naming the setting to raise; what was merged stays committed, the pages that were not
// stay landed, and the next run (with a larger limit) continues from there (docs/performance.md).
import { FatalError, messageOf } from '../core/errors.js';

const OUT_OF_MEMORY = /Out of Memory Error/i;

export function isOutOfMemory(err: unknown): boolean {
  return OUT_OF_MEMORY.test(messageOf(err));
}

/**
 * The one line for an out-of-memory while `step` ran (e.g. "merging landed pages"): DuckDB's own
 * first line (what it could not allocate, and how much of the limit was used), then the setting.
 */
export function outOfMemoryLine(step: string, err: unknown, memoryLimit?: string): string {
  const first = messageOf(err).split('\n')[0]!.trim();
  const limit = memoryLimit ? ` (now ${memoryLimit})` : '';
  return `DuckDB ran out of memory while ${step}: ${first}; raise --memory-limit or memoryLimit in the config${limit}; ` +
    'nothing is lost: the next run continues from its checkpoint';
}

/** Runs `fn`; an out-of-memory becomes a FatalError with that one line, any other error passes through. */
export async function namingMemoryLimit<T>(step: string, memoryLimit: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isOutOfMemory(err)) throw new FatalError(outOfMemoryLine(step, err, memoryLimit));
    throw err;
  }
}
