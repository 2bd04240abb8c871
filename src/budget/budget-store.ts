// Where an organization's sliding-window request log lives (design: Rate budget). The budget
// (budget.ts) owns the policy: waiting, --max-wait, exit 3, 429 blocks and their bounds. A store
// owns the log: it takes a slot atomically (the file log under its lock, Redis in one Lua script),
// closes it, records a block, and shows what counts. Implemented by the local file log
// (file-budget-store.ts) and by Redis (redis-budget-store.ts), selected in open-budget-store.ts.

/** What every store call needs to know of the policy. */
export interface SlotPolicy {
  limit: number;
  windowMs: number;
  /** Clock granularity and scheduling slack. */
  marginMs: number;
  /** An open slot older than this is abandoned: its request's deadline (plus a margin) has passed. */
  slotTtlMs: number;
}

/** One slot that may still count; times on this process's clock. */
export interface SlotView {
  /** When its response ended; null while in flight (counts as ending now). */
  end: number | null;
  /** When an open slot is abandoned (it then ended at this time). */
  expires: number;
}

export interface BudgetView {
  slots: SlotView[];
  /** A 429 told us the server's window is full until then (0: no block). */
  blockedUntil: number;
}

export interface Reserved {
  /** The slot taken, or null when none is free; then `waitMs` says when to ask again. */
  slot: string | null;
  waitMs: number;
  /** Slots that count now. */
  used: number;
  /** A 429 block holds past the moment this log would have a free slot: another client spent the budget. */
  byOthers: boolean;
}

export interface BudgetStore {
  /** Where the log lives, safe to show (a file path, or the Redis URL without its password). */
  readonly where: string;
  /** Atomically: drop what no longer counts, then take a slot if no block holds and one is free. */
  reserve(p: SlotPolicy): Promise<Reserved>;
  /** The slot's response ended: it counts one more window from now. */
  release(slot: string, p: SlotPolicy): Promise<void>;
  /** Nobody of this organization sends for `forMs` (already bounded by the budget); a longer block stays. */
  block(forMs: number, p: SlotPolicy): Promise<void>;
  /** What counts, without waiting: the file read now; for Redis, as of its last answer (see refresh). */
  view(p: SlotPolicy): BudgetView;
  /** Reads the shared log again (Redis); nothing to do for the file. */
  refresh(p: SlotPolicy): Promise<void>;
}

/** When a slot stops counting, seen at `now`: its end; in flight counts as ending now; abandoned at its expiry. */
export function slotEnd(s: SlotView, now: number): number {
  if (s.end !== null) return s.end;
  return s.expires <= now ? s.expires : now;
}

/** The slots of a view that still count at `now`. */
export function counting(view: BudgetView, now: number, p: SlotPolicy): SlotView[] {
  return view.slots.filter((s) => slotEnd(s, now) + p.windowMs + p.marginMs > now);
}
