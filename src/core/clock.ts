// An injectable clock, so windows, budgets and expiries are testable without patching globals.
export interface Clock {
  now(): Date;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Node's timers hold at most 2^31-1 ms; a longer delay would fire at once, so it is slept in parts. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: async (ms, signal) => {
    for (let left = ms; left > 0 && !signal?.aborted; left -= MAX_TIMER_MS) await sleepOnce(Math.min(left, MAX_TIMER_MS), signal);
  },
};

function sleepOnce(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', done);
      clearTimeout(t);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
