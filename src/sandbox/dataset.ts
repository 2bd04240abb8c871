// All rows of one project and the keyset reads over them. A read sees the rows visible at `now`
// (history, plus live rows when live mode is on), in rowId order, after an optional cursor.
import { docsSiteUrl } from './corpus.js';
import { buildHistory, type DatasetParams } from './history.js';
import { LiveTimeline } from './live-timeline.js';
import { projectTag } from './row-ids.js';
import type { Row } from './row.js';

export interface DatasetConfig {
  seed: number;
  projectId: string;
  startMs: number;
  conversations: number;
  historyDays: number;
  liveTurnsPerMinute: number;
}

export interface ReadFilter {
  now: number;
  live: boolean;
  /** Inclusive lower bound on the turn's instant (ms), or null. */
  fromMs: number | null;
  /** Exclusive upper bound on the turn's instant (ms), or null. */
  toMs: number | null;
  /** Only rows with rowId > after (null = from the beginning). */
  after: string | null;
}

export class ProjectDataset {
  private readonly history: Row[];
  private readonly live: LiveTimeline;

  constructor(c: DatasetConfig) {
    const p: DatasetParams = {
      seed: c.seed, projectId: c.projectId, siteUrl: docsSiteUrl(c.projectId),
      tag: projectTag(c.seed, c.projectId), startMs: c.startMs,
    };
    this.history = buildHistory(p, c.conversations, c.historyDays);
    this.live = new LiveTimeline(p, c.liveTurnsPerMinute);
  }

  /** Visible rows matching the filter, in rowId order (lazy: callers stop when they have enough). */
  *rows(f: ReadFilter): Generator<Row> {
    const lists: readonly (readonly Row[])[] = f.live ? [this.history, this.live.rowsUpTo(f.now)] : [this.history];
    for (const list of lists) {
      for (let i = f.after === null ? 0 : firstAfter(list, f.after); i < list.length; i++) {
        const row = list[i]!;
        if (row.visibleAt > f.now) {
          // Live rows are sorted by visibleAt, so nothing later is visible either.
          if (list !== this.history) break;
          continue;
        }
        if (f.fromMs !== null && row.timestampMs < f.fromMs) continue;
        if (f.toMs !== null && row.timestampMs >= f.toMs) continue;
        yield row;
      }
    }
  }
}

/** Index of the first row whose rowId is greater than `after` (binary search). */
function firstAfter(list: readonly Row[], after: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.rowId <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
