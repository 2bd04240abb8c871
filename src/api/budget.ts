// The rate budget of one organization (design: Rate budget). A slot is taken in the persisted log
// before each request and closed when its response ends. A slot counts against the window until
// `end + window` (in-flight slots count as ending now), so the server, which counts arrivals
// (always before `end`), never sees more than `limit` requests in any window, whatever the latency.
import Bottleneck from 'bottleneck';
import { ulid } from 'ulid';
import type { Clock } from '../core/clock.js';
import type { RateLimit } from '../core/duration.js';
import { formatDuration } from '../core/duration.js';
import { BudgetExhaustedError, StoppedError } from '../core/errors.js';
import { pidAlive, type LogEntry, type LogState, type RequestLog } from './request-log.js';

/** Clock granularity and scheduling slack between processes. */
const MARGIN_MS = 50;

export interface Slot {
  release(): Promise<void>;
}

export interface BudgetUsage {
  used: number;
  limit: number;
  windowMs: number;
  blockedUntil: number;
}

export interface RequestBudget {
  /** Waits for a free slot; throws BudgetExhaustedError when the wait would exceed maxWaitMs. */
  acquire(signal?: AbortSignal): Promise<Slot>;
  /** The server answered 429: nobody of this organization sends before `until`. */
  block(until: number): Promise<void>;
  usage(): BudgetUsage;
  /** Requests that can be sent without waiting longer than `withinMs` (what a run may plan on). */
  available(withinMs: number): number;
}

export interface BudgetDeps {
  log: RequestLog;
  rate: RateLimit;
  clock: Clock;
  maxWaitMs: number;
  onWait?: (ms: number) => void;
}

export function createBudget(deps: BudgetDeps): RequestBudget {
  const { log, rate, clock } = deps;
  // In-process pacing: one acquisition at a time per organization, in arrival order.
  const limiter = new Bottleneck({ maxConcurrent: 1 });

  const tryTake = (now: number) =>
    log.update((state) => {
      prune(state, now, rate.windowMs);
      const live = state.entries;
      if (state.blockedUntil <= now && live.length < rate.limit) {
        const entry: LogEntry = { id: ulid(now), start: now, end: null, pid: process.pid };
        live.push(entry);
        return { entry, waitMs: 0 };
      }
      const freeAt = live.length < rate.limit ? now : nthFreeAt(live, live.length - rate.limit, now, rate.windowMs);
      return { entry: null, waitMs: Math.max(state.blockedUntil, freeAt) - now + MARGIN_MS };
    });

  const acquireOnce = async (signal?: AbortSignal): Promise<Slot> => {
    let waited = 0;
    for (;;) {
      if (signal?.aborted) throw new StoppedError('stopped while waiting for rate budget');
      const now = clock.now().getTime();
      const { entry, waitMs } = await tryTake(now);
      if (entry) {
        return {
          release: () =>
            log.update((state) => {
              const e = state.entries.find((x) => x.id === entry.id);
              if (e) e.end = Math.max(clock.now().getTime(), e.start);
            }),
        };
      }
      if (waited + waitMs > deps.maxWaitMs) {
        throw new BudgetExhaustedError(
          `rate budget of ${rate.limit} requests per ${formatDuration(rate.windowMs)} used up; ` +
            `the next slot frees in ${formatDuration(waitMs)}, longer than --max-wait ${formatDuration(deps.maxWaitMs)}`,
          new Date(now + waitMs),
        );
      }
      deps.onWait?.(waitMs);
      await clock.sleep(waitMs, signal);
      waited += waitMs;
    }
  };

  return {
    acquire: (signal) => limiter.schedule(() => acquireOnce(signal)),
    block: (until) =>
      log.update((state) => {
        state.blockedUntil = Math.max(state.blockedUntil, until);
      }),
    available: (withinMs) => {
      const state = log.readUnlocked();
      const now = clock.now().getTime();
      prune(state, now, rate.windowMs);
      if (state.blockedUntil > now + withinMs) return 0;
      const freeing = state.entries.filter((e) => endOf(e, now) + rate.windowMs + MARGIN_MS <= now + withinMs).length;
      return Math.max(0, rate.limit - state.entries.length + freeing);
    },
    usage: () => {
      const state = log.readUnlocked();
      const now = clock.now().getTime();
      prune(state, now, rate.windowMs);
      return { used: state.entries.length, limit: rate.limit, windowMs: rate.windowMs, blockedUntil: state.blockedUntil };
    },
  };
}

/** When a slot stops counting: its response's end; in flight counts as ending now. */
function endOf(e: LogEntry, now: number): number {
  return e.end ?? now;
}

/**
 * Drops slots that no longer count. A slot left open by a process that died (SIGKILL) is closed
 * at the moment its death is first seen: its request reached the server before then, if at all.
 */
function prune(state: LogState, now: number, windowMs: number): void {
  for (const e of state.entries) if (e.end === null && !pidAlive(e.pid)) e.end = now;
  state.entries = state.entries.filter((e) => endOf(e, now) + windowMs + MARGIN_MS > now);
}

/** The time at which the (k+1)-th earliest-expiring slot frees, i.e. when one more request may go. */
function nthFreeAt(entries: LogEntry[], k: number, now: number, windowMs: number): number {
  const frees = entries.map((e) => endOf(e, now) + windowMs).sort((a, b) => a - b);
  return frees[Math.min(k, frees.length - 1)] ?? now;
}
