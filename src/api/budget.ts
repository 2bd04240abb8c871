// The rate budget of one organization (design: Rate budget). A slot is taken in the persisted log
// before each request and closed when its response ends. A slot counts against the window until
// `end + window` (in-flight slots count as ending now), so the server, which counts arrivals
// (always before `end`), never sees more than `limit` requests in any window, whatever the latency.
// Every wait is bounded: a 429's block lasts at least MIN_RETRY_AFTER_MS and at most one window
// (also when read back from a log an older version wrote), and an in-flight slot whose request's
// deadline has passed is closed, whoever left it.
import { join } from 'node:path';
import Bottleneck from 'bottleneck';
import { ulid } from 'ulid';
import type { Clock } from '../core/clock.js';
import type { RateLimit } from '../core/duration.js';
import { formatDuration } from '../core/duration.js';
import { BudgetExhaustedError, StoppedError } from '../core/errors.js';
import { DEFAULT_TIMEOUT_MS, MIN_RETRY_AFTER_MS } from './http.js';
import { INSTANCE, ownerAlive } from '../core/instance.js';
import { readLogFile, type LogEntry, type LogState, type RequestLog } from './request-log.js';

/** Clock granularity and scheduling slack between processes. */
const MARGIN_MS = 50;
/** Slack after a request's deadline before its open slot counts as abandoned (release, lock waits). */
const SLOT_EXPIRY_MARGIN_MS = 30_000;

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
  /** The request deadline (--request-timeout): an open slot older than it plus a margin is abandoned. */
  requestTimeoutMs?: number;
}

export function createBudget(deps: BudgetDeps): RequestBudget {
  const { log, rate, clock } = deps;
  // In-process pacing: one acquisition at a time per organization, in arrival order.
  const limiter = new Bottleneck({ maxConcurrent: 1 });
  const slotTtl = (deps.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS) + SLOT_EXPIRY_MARGIN_MS;

  const tryTake = (now: number) =>
    log.update((state) => {
      prune(state, now, rate.windowMs);
      const live = state.entries;
      if (state.blockedUntil <= now && live.length < rate.limit) {
        const entry: LogEntry = { id: ulid(now), start: now, end: null, pid: process.pid, instance: INSTANCE, expires: now + slotTtl };
        live.push(entry);
        return { entry, waitMs: 0, used: live.length, byOthers: false };
      }
      const freeAt = live.length < rate.limit ? now : nthFreeAt(live, live.length - rate.limit, now, rate.windowMs);
      // A 429 while this log shows room: someone else (another machine user, another host) spent it.
      return { entry: null, waitMs: Math.max(state.blockedUntil, freeAt) - now + MARGIN_MS, used: live.length, byOthers: state.blockedUntil > freeAt };
    });

  const acquireOnce = async (signal?: AbortSignal): Promise<Slot> => {
    let waited = 0;
    for (;;) {
      if (signal?.aborted) throw new StoppedError('stopped while waiting for rate budget');
      const now = clock.now().getTime();
      const { entry, waitMs, used, byOthers } = await tryTake(now);
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
        throw new BudgetExhaustedError(byOthers
          ? `the API answered 429 while this machine's request log shows ${used} of ${rate.limit} used: another client of this organization spent the budget; ` +
            `the block ends in ${formatDuration(waitMs)}, longer than --max-wait ${formatDuration(deps.maxWaitMs)}`
          : `rate budget of ${rate.limit} requests per ${formatDuration(rate.windowMs)} used up; ` +
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
        const now = clock.now().getTime();
        prune(state, now, rate.windowMs);
        state.blockedUntil = Math.max(state.blockedUntil, boundBlock(until, now, rate.windowMs));
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

/** Default in-flight lifetime of slots written by older versions (no `expires`). */
const LEGACY_SLOT_TTL_MS = DEFAULT_TIMEOUT_MS + SLOT_EXPIRY_MARGIN_MS;

/**
 * Drops slots that no longer count. An open slot is closed when its request's deadline has passed
 * (at that deadline: the request reached the server before it, if at all), or when its process is
 * seen dead (at that moment). A block longer than one window is cut to one window from now.
 */
function prune(state: LogState, now: number, windowMs: number): void {
  for (const e of state.entries) {
    if (e.end !== null) continue;
    const expires = e.expires ?? e.start + LEGACY_SLOT_TTL_MS;
    if (expires <= now) e.end = Math.max(e.start, expires);
    else if (!ownerAlive(e)) e.end = now;
  }
  state.entries = state.entries.filter((e) => endOf(e, now) + windowMs + MARGIN_MS > now);
  state.blockedUntil = Math.min(state.blockedUntil, now + windowMs);
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

/** The time at which the (k+1)-th earliest-expiring slot frees, i.e. when one more request may go. */
function nthFreeAt(entries: LogEntry[], k: number, now: number, windowMs: number): number {
  const frees = entries.map((e) => endOf(e, now) + windowMs).sort((a, b) => a - b);
  return frees[Math.min(k, frees.length - 1)] ?? now;
}
