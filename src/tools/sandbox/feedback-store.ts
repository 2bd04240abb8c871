// A project's feedback entries: days generated lazily (feedback-day.ts), and the reads the
// endpoints and the ground truth make over them. Nothing but the compact days is kept.
//
// Served order (GET …/feedback): newest first. Entries with a `createdAt` come first, by
// sequence number descending (= creation instant descending, ties broken the same way every
// time); then the entries whose `createdAt` is null, also by sequence descending, as a database
// sorting a nullable column descending with nulls last would.
// Date bounds filter on `createdAt`, so an entry whose `createdAt` is null matches no bounded
// range (a comparison with null is never true): it is served only when neither dateFrom nor
// dateTo is given. `status` filters on the status at the instant of the request.
import {
  CODE_SNIPPET, CONTEXTUAL, feedbackDay, HELPFUL, indexOfGen, NULL_CREATED, SEQ_PER_DAY, seqOf, sourceOf, statusAt,
  type FeedbackDay, type FeedbackDayParams,
} from './feedback-day.js';
import { isMalformedFeedback, servedFeedback, type FeedbackRenderContext } from './feedback-render.js';
import { dayOf } from './site-calendar.js';

export interface FeedbackFilter {
  /** Source code (index in SOURCES), or null for all. */
  source: number | null;
  /** Status codes (indexes in STATUSES), or null for all. */
  statuses: readonly number[] | null;
}

export interface FeedbackRange {
  fromMs: number | null;
  toMs: number | null;
}

/** A place in the served order: group 0 = dated entries, 1 = entries with a null createdAt. */
export interface FeedbackPosition {
  group: 0 | 1;
  seq: number;
}

export interface FeedbackPage {
  records: Record<string, unknown>[];
  /** Position of the page's last entry (the next page starts after it), null on an empty page. */
  last: FeedbackPosition | null;
  hasMore: boolean;
}

/** Per-page counts of GET …/feedback/by-page: total desc, then path. */
export interface FeedbackByPageItem {
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  code: number;
  total: number;
}

const NO_FILTER: FeedbackFilter = { source: null, statuses: null };

export class FeedbackStore {
  private readonly days = new Map<number, FeedbackDay>();

  constructor(private readonly p: FeedbackDayParams, private readonly render: FeedbackRenderContext) {}

  private day(d: number): FeedbackDay {
    let fd = this.days.get(d);
    if (!fd) this.days.set(d, (fd = feedbackDay(this.p, d)));
    return fd;
  }

  /**
   * Calls `fn` for each entry visible at `now` that matches, in served order, starting after
   * `after`; stops when `fn` returns false.
   */
  scan(
    now: number, range: FeedbackRange, filter: FeedbackFilter, after: FeedbackPosition | null,
    fn: (d: FeedbackDay, i: number, at: FeedbackPosition) => boolean,
  ): void {
    const bounded = range.fromMs !== null || range.toMs !== null;
    const firstDay = dayOf(Math.max(this.p.origin, range.fromMs ?? -Infinity));
    const lastDay = dayOf(Math.min(now, this.p.horizon - 1, (range.toMs ?? Infinity) - 1));
    const groups: (0 | 1)[] = bounded ? [0] : [0, 1];
    for (const group of groups) {
      if (after && group < after.group) continue;
      const resume = after && after.group === group ? after.seq : null;
      const startDay = resume === null ? lastDay : Math.min(lastDay, Math.floor(resume / SEQ_PER_DAY));
      for (let day = startDay; day >= firstDay; day--) {
        const d = this.day(day);
        let i = d.length - 1;
        if (resume !== null && day === Math.floor(resume / SEQ_PER_DAY)) i = indexOfGen(d, resume % SEQ_PER_DAY) - 1;
        for (; i >= 0; i--) {
          if (((d.flags[i]! & NULL_CREATED) !== 0) !== (group === 1)) continue;
          if (d.ts[i]! + d.delay[i]! > now) continue;
          if (!this.matches(d, i, now, range, filter)) continue;
          if (!fn(d, i, { group, seq: seqOf(d, i) })) return;
        }
      }
    }
  }

  private matches(d: FeedbackDay, i: number, now: number, range: FeedbackRange, filter: FeedbackFilter): boolean {
    const ts = d.ts[i]!;
    if ((range.fromMs !== null && ts < range.fromMs) || (range.toMs !== null && ts >= range.toMs)) return false;
    if (filter.source !== null && sourceOf(d, i) !== filter.source) return false;
    return filter.statuses === null || filter.statuses.includes(statusAt(d, i, now));
  }

  /** One page of GET …/feedback: up to `limit` entries after `after`, rendered as served at `now`. */
  page(
    now: number, range: FeedbackRange, filter: FeedbackFilter, after: FeedbackPosition | null, limit: number, malformedRate: number,
  ): FeedbackPage {
    const records: Record<string, unknown>[] = [];
    let last: FeedbackPosition | null = null;
    let hasMore = false;
    this.scan(now, range, filter, after, (d, i, at) => {
      if (records.length === limit) {
        hasMore = true;
        return false;
      }
      records.push(servedFeedback(this.render, d, i, now, malformedRate));
      last = at;
      return true;
    });
    return { records, last, hasMore };
  }

  /** The valid (or, with `malformed`, the malformed) entries visible at `now` in the range, served order. */
  entries(now: number, range: FeedbackRange, malformedRate: number, malformed = false): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    this.scan(now, range, NO_FILTER, null, (d, i) => {
      if (isMalformedFeedback(this.render, d, i, malformedRate) === malformed) out.push(servedFeedback(this.render, d, i, now, malformedRate));
      return true;
    });
    return out;
  }

  /**
   * GET …/feedback/by-page, unpaged: per page with at least one matching entry, thumbsUp/thumbsDown
   * (contextual entries, helpful or not), code (code_snippet entries) and total (every matching
   * entry, whatever its source), ordered by total desc then path. Counts every matching entry,
   * malformed ones included (the aggregate comes from the store, not from the export's rendering).
   */
  byPage(now: number, range: FeedbackRange, filter: FeedbackFilter): FeedbackByPageItem[] {
    const n = this.render.site.paths.length;
    const [up, down, code, total] = [new Uint32Array(n), new Uint32Array(n), new Uint32Array(n), new Uint32Array(n)];
    this.scan(now, range, filter, null, (d, i) => {
      const page = d.page[i]!;
      const source = sourceOf(d, i);
      if (source === CONTEXTUAL) ((d.flags[i]! & HELPFUL) !== 0 ? up : down)[page]!++;
      else if (source === CODE_SNIPPET) code[page]!++;
      total[page]!++;
      return true;
    });
    const items: FeedbackByPageItem[] = [];
    for (let k = 0; k < n; k++) {
      if (total[k]! > 0) items.push({ path: this.render.site.paths[k]!, thumbsUp: up[k]!, thumbsDown: down[k]!, code: code[k]!, total: total[k]! });
    }
    return items.sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
