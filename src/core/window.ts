// A window of event time [from, to) read from one endpoint (dateTo is exclusive). Fixed once
// started: it never moves across pages, retries or restarts. `purpose` says why the planner chose
// it, which decides its priority and how its read is counted (design: Incremental extraction).

/**
 * head: newest data; catchup: after a lag, the young span between the end of coverage and the
 * head; settle: the last scheduled re-read; recheck: an earlier re-read; backfill:
 * older gaps; sweep: the whole endpoint read without dates, for records whose time is null (a
 * date range never returns them), every `time.undated.sweepEveryMs`; keyed: one read of a keyed
 * pipeline's endpoint for one key (`key`), without dates.
 */
export type Purpose = 'head' | 'catchup' | 'settle' | 'recheck' | 'backfill' | 'sweep' | 'keyed';

export const PURPOSES: readonly Purpose[] = ['head', 'catchup', 'settle', 'recheck', 'backfill', 'sweep', 'keyed'];

export interface Window {
  from: Date;
  to: Date;
  purpose: Purpose;
  /** The key a 'keyed' read is for (substituted for `{key}` in the endpoint). */
  key?: string;
}

/**
 * Whether a read was of a date range (its [from, to) enters the coverage map, it can be bisected);
 * a sweep and a keyed read are not.
 */
export const isDated = (purpose: Purpose): boolean => purpose !== 'sweep' && purpose !== 'keyed';

/** The instant the API's history is taken to start at when no `--from` bounds it. */
export const BEGINNING = new Date(0);

export const spanMs = (w: { from: Date; to: Date }): number => w.to.getTime() - w.from.getTime();

export function formatWindow(w: { from: Date; to: Date; key?: string }): string {
  if (w.key !== undefined) return `key ${w.key}`;
  const from = w.from.getTime() === BEGINNING.getTime() ? 'beginning' : w.from.toISOString();
  return `${from} → ${w.to.toISOString()}`;
}
