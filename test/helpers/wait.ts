// Waiting in tests for what a real process or server does, never for a fixed time alone: a slow
// machine waits longer instead of failing.

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` every `everyMs` until it holds; throws after `timeoutMs`. */
export async function waitFor(cond: () => boolean, timeoutMs: number, everyMs = 5): Promise<void> {
  for (const end = Date.now() + timeoutMs; !cond(); await sleep(everyMs)) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting`);
  }
}
