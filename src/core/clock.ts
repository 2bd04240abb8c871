// An injectable clock, so windows, budgets and expiries are testable without patching globals.
export interface Clock {
  now(): Date;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        signal?.removeEventListener('abort', done);
        clearTimeout(t);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};
