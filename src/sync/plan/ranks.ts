// The order of purposes in an organization's plan, and which of them are optional (planned only
// while they fit the budget; see org-plan.ts).
import type { Purpose } from '../../core/window.js';

export const RANK: Readonly<Record<Purpose, number>> = { head: 1, catchup: 2, settle: 3, recheck: 4, backfill: 5, sweep: 6, keyed: 7 };
export const OPTIONAL: ReadonlySet<Purpose> = new Set<Purpose>(['recheck', 'backfill', 'sweep', 'keyed']);

/** Re-reads (settle, recheck): a deferred one holds back every optional window ranked after them. */
export const isReread = (p: Purpose): boolean => p === 'settle' || p === 'recheck';
/** Ranked after the re-reads: backfill, sweeps, keyed reads. */
export const isAfterRereads = (p: Purpose): boolean => RANK[p] > RANK.recheck;
