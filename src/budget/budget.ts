// The rate budget of one organization (design: Rate budget). A slot is taken in the persisted log
// before each request and closed when its response ends. A slot counts against the window until
// `end + window` (in-flight slots count as ending now), so the server, which counts arrivals
// (always before `end`), never sees more than `limit` requests in any window, whatever the latency.
// Every wait is bounded: a 429's block lasts at least MIN_RETRY_AFTER_MS and at most one window
// (also when read back from a log an older version wrote), and an in-flight slot whose request's
// deadline has passed is closed, whoever left it.
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { Clock } from '../core/clock.js';
import type { RateLimit } from '../core/duration.js';
import { formatDuration } from '../core/duration.js';
import { BudgetExhaustedError, StoppedError } from '../core/errors.js';
import { DEFAULT_TIMEOUT_MS, MIN_RETRY_AFTER_MS } from '../contracts/api-defaults.js';
import { counting, slotEnd, type BudgetStore, type SlotPolicy } from './budget-store.js';
import { FileBudgetStore, SLOT_EXPIRY_MARGIN_MS } from './file-budget-store.js';
import { readLogFile, type RequestLog } from './request-log.js';

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
  /**
   * Reads the shared log again, for usage() and available() (a Redis store answers those from its
   * last answer; the file store reads the file each time).
   */
  refresh(): Promise<void>;
}

export interface BudgetDeps {
  /** The organization's log: a store (file or Redis), or (as before stores) a RequestLog file. */
  store?: BudgetStore;
  log?: RequestLog;
  rate: RateLimit;
  clock: Clock;
  maxWaitMs: number;
  onWait?: (ms: number) => void;
  /** The request deadline (--request-timeout): an open slot older than it plus a margin is abandoned. */
  requestTimeoutMs?: number;
}

export function createBudget(deps: BudgetDeps): RequestBudget {
  const { rate, clock } = deps;
  const store = deps.store ?? (deps.log ? new FileBudgetStore(deps.log, clock) : undefined);
  if (!store) throw new Error('createBudget: a store or a log is required');
  // In-process pacing: one acquisition at a time per organization, in arrival order.
  const limiter = pLimit(1);
  const policy: SlotPolicy = {
    limit: rate.limit, windowMs: rate.windowMs, marginMs: MARGIN_MS,
    slotTtlMs: (deps.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS) + SLOT_EXPIRY_MARGIN_MS,
  };

  const acquireOnce = async (signal?: AbortSignal): Promise<Slot> => {
    let waited = 0;
    for (;;) {
      // A stop request (SIGTERM/SIGINT) says so; a wait it cut short is named too.
      if (signal?.aborted) throw new StoppedError(waited > 0 ? 'stopped on request while waiting for rate budget' : 'stopped on request');
      const { slot, waitMs, used, byOthers } = await store.reserve(policy);
      if (slot !== null) return { release: () => store.release(slot, policy) };
      if (waited + waitMs > deps.maxWaitMs) {
        throw new BudgetExhaustedError(byOthers
          // A 429 while this log shows room: someone else (another machine user, another host) spent it.
          ? `the API answered 429 while this machine's request log shows ${used} of ${rate.limit} used: another client of this organization spent the budget; ` +
            `the block ends in ${formatDuration(waitMs)}, longer than --max-wait ${formatDuration(deps.maxWaitMs)}`
          : `rate budget of ${rate.limit} requests per ${formatDuration(rate.windowMs)} used up; ` +
            `the next slot frees in ${formatDuration(waitMs)}, longer than --max-wait ${formatDuration(deps.maxWaitMs)}`,
          new Date(clock.now().getTime() + waitMs),
        );
      }
      deps.onWait?.(waitMs);
      await clock.sleep(waitMs, signal);
      waited += waitMs;
    }
  };

  return {
    acquire: (signal) => limiter(() => acquireOnce(signal)),
    block: (until) => {
      const now = clock.now().getTime();
      return store.block(boundBlock(until, now, rate.windowMs) - now, policy);
    },
    available: (withinMs) => {
      const view = store.view(policy);
      const now = clock.now().getTime();
      if (Math.min(view.blockedUntil, now + rate.windowMs) > now + withinMs) return 0;
      const live = counting(view, now, policy);
      const freeing = live.filter((s) => slotEnd(s, now) + rate.windowMs + MARGIN_MS <= now + withinMs).length;
      return Math.max(0, rate.limit - live.length + freeing);
    },
    usage: () => {
      const view = store.view(policy);
      const now = clock.now().getTime();
      const blockedUntil = view.blockedUntil > now ? Math.min(view.blockedUntil, now + rate.windowMs) : view.blockedUntil;
      return { used: counting(view, now, policy).length, limit: rate.limit, windowMs: rate.windowMs, blockedUntil };
    },
    refresh: () => store.refresh(policy),
  };
}

/** A 429's `until` within [now + MIN_RETRY_AFTER_MS, now + window]: never 0, never years. */
export function boundBlock(until: number, now: number, windowMs: number): number {
  const atLeast = Math.max(Number.isNaN(until) ? 0 : until, now + MIN_RETRY_AFTER_MS);
  return Math.min(atLeast, now + windowMs);
}

/**
 * The block a 429 left on an organization's budget, if one holds now (for `status` and
 * `status --check`); null otherwise. Read-only: creates nothing. A block longer than one window
 * (written by an older version) is reported as ending one window from now.
 */
export function currentBlock(budgetDir: string, organization: string, clock: Clock, windowMs = 3_600_000): Date | null {
  const { blockedUntil } = readLogFile(join(budgetDir, `${organization}.json`));
  const now = clock.now().getTime();
  return blockedUntil > now ? new Date(Math.min(blockedUntil, now + windowMs)) : null;
}
