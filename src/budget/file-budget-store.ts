// The budget store of one machine: the request log file (request-log.ts), shared by the processes
// that use one budget folder. A slot is taken, closed or blocked under the file's lock; an open
// slot whose process is seen dead is closed at once (its PID is checked on this machine).
import { ulid } from 'ulid';
import type { Clock } from '../core/clock.js';
import { DEFAULT_TIMEOUT_MS } from '../contracts/api-defaults.js';
import { INSTANCE, ownerAlive } from '../core/owner-lock.js';
import type { BudgetStore, BudgetView, Reserved, SlotPolicy } from './budget-store.js';
import type { LogEntry, LogState, RequestLog } from './request-log.js';

/** Slack after a request's deadline before its open slot counts as abandoned (release, lock waits). */
export const SLOT_EXPIRY_MARGIN_MS = 30_000;
/** Default in-flight lifetime of slots written by older versions (no `expires`). */
const LEGACY_SLOT_TTL_MS = DEFAULT_TIMEOUT_MS + SLOT_EXPIRY_MARGIN_MS;

export class FileBudgetStore implements BudgetStore {
  readonly where: string;

  constructor(private readonly log: RequestLog, private readonly clock: Clock) {
    this.where = log.file;
  }

  reserve(p: SlotPolicy): Promise<Reserved> {
    return this.log.update((state) => {
      const now = this.clock.now().getTime();
      prune(state, now, p);
      const live = state.entries;
      if (state.blockedUntil <= now && live.length < p.limit) {
        const entry: LogEntry = { id: ulid(now), start: now, end: null, pid: process.pid, instance: INSTANCE, expires: now + p.slotTtlMs };
        live.push(entry);
        return { slot: entry.id, waitMs: 0, used: live.length, byOthers: false };
      }
      const freeAt = live.length < p.limit ? now : nthFreeAt(live, live.length - p.limit, now, p.windowMs);
      return { slot: null, waitMs: Math.max(state.blockedUntil, freeAt) - now + p.marginMs, used: live.length, byOthers: state.blockedUntil > freeAt };
    });
  }

  release(slot: string): Promise<void> {
    return this.log.update((state) => {
      const e = state.entries.find((x) => x.id === slot);
      if (e) e.end = Math.max(this.clock.now().getTime(), e.start);
    });
  }

  block(forMs: number, p: SlotPolicy): Promise<void> {
    return this.log.update((state) => {
      const now = this.clock.now().getTime();
      prune(state, now, p);
      state.blockedUntil = Math.max(state.blockedUntil, now + forMs);
    });
  }

  view(p: SlotPolicy): BudgetView {
    const state = this.log.readUnlocked();
    prune(state, this.clock.now().getTime(), p);
    return {
      slots: state.entries.map((e) => ({ end: e.end, expires: e.expires ?? e.start + LEGACY_SLOT_TTL_MS })),
      blockedUntil: state.blockedUntil,
    };
  }

  async refresh(): Promise<void> {}
}

/** When a slot stops counting: its response's end; in flight counts as ending now. */
function endOf(e: LogEntry, now: number): number {
  return e.end ?? now;
}

/**
 * Drops slots that no longer count. An open slot is closed when its request's deadline has passed
 * (at that deadline: the request reached the server before it, if at all), or when its process is
 * seen dead (at that moment). A block longer than one window is cut to one window from now.
 */
function prune(state: LogState, now: number, p: SlotPolicy): void {
  for (const e of state.entries) {
    if (e.end !== null) continue;
    const expires = e.expires ?? e.start + LEGACY_SLOT_TTL_MS;
    if (expires <= now) e.end = Math.max(e.start, expires);
    else if (!ownerAlive(e)) e.end = now;
  }
  state.entries = state.entries.filter((e) => endOf(e, now) + p.windowMs + p.marginMs > now);
  state.blockedUntil = Math.min(state.blockedUntil, now + p.windowMs);
}

/** The time at which the (k+1)-th earliest-expiring slot frees, i.e. when one more request may go. */
function nthFreeAt(entries: LogEntry[], k: number, now: number, windowMs: number): number {
  const frees = entries.map((e) => endOf(e, now) + windowMs).sort((a, b) => a - b);
  return frees[Math.min(k, frees.length - 1)] ?? now;
}
