// Ground truth of the endpoints other than GET …/assistant, for tests and harnesses: what a
// complete, correct client ends up with, computed by the same code that serves the endpoints.
// - feedbackTruth: the valid entries visible now, current version (status as of now), served
//   order; with a range, only those GET …/feedback would serve for it (createdAt in [from, to);
//   a null createdAt matches no bounded range).
// - aggregateTruth: the full, unpaged answer of an aggregated endpoint for a range, as it would
//   be served now: the body without its paging fields (hasMore, nextCursor), every item in order.
import type { AnalyticsTwin } from './analytics-twin.js';
import type { CallerStats } from './caller-stats.js';
import { SOURCES, STATUSES, type FeedbackSource, type FeedbackStatus } from './feedback-day.js';
import type { FeedbackByPageItem } from './feedback-store.js';
import type { PageTrafficItem, TrafficTotals } from './page-traffic.js';
import type { SearchItem } from './search-rollup.js';
import type { TruthRange } from './truth-keys.js';

interface FeedbackBase {
  id: string;
  path: string;
  comment: string | null;
  createdAt: string | null;
  status: FeedbackStatus;
}

/** A feedback entry as served: one of the contract's three variants. */
export type FeedbackRecord =
  | (FeedbackBase & { source: 'contextual'; helpful: boolean; contact: string | null })
  | (FeedbackBase & { source: 'code_snippet'; code: string; filename: string | null; lang: string | null })
  | (FeedbackBase & { source: 'agent' | 'thumbs_only' });

export type AggregateEndpoint = 'feedback/by-page' | 'searches' | 'views' | 'visitors' | 'assistant/caller-stats';

export interface AggregateAnswers {
  'feedback/by-page': { feedback: FeedbackByPageItem[] };
  searches: { searches: SearchItem[]; totalSearches: number };
  views: { totals: TrafficTotals; views: PageTrafficItem[] };
  visitors: { totals: TrafficTotals; visitors: PageTrafficItem[] };
  'assistant/caller-stats': CallerStats;
}

export const AGGREGATE_ENDPOINTS: readonly AggregateEndpoint[] = ['feedback/by-page', 'searches', 'views', 'visitors', 'assistant/caller-stats'];

/** The `source` and `status` parameters of GET …/feedback/by-page (status: any of the listed). */
export interface FeedbackFilterSpec {
  source?: FeedbackSource;
  status?: FeedbackStatus[];
}

export function feedbackTruth(twin: AnalyticsTwin, projectId: string, range: TruthRange = {}, malformed = false): FeedbackRecord[] {
  const now = twin.now();
  const r = { fromMs: range.fromMs ?? null, toMs: range.toMs ?? null };
  return twin.site(projectId).feedback.entries(now, r, twin.opts.malformedRate, malformed) as unknown as FeedbackRecord[];
}

export function aggregateTruth<E extends AggregateEndpoint>(
  twin: AnalyticsTwin, projectId: string, endpoint: E, fromMs: number | null, toMs: number | null, filter: FeedbackFilterSpec = {},
): AggregateAnswers[E] {
  const now = twin.now();
  const site = () => twin.site(projectId);
  const answers: { [K in AggregateEndpoint]: () => AggregateAnswers[K] } = {
    'feedback/by-page': () => ({
      feedback: site().feedback.byPage(now, { fromMs, toMs }, {
        source: filter.source === undefined ? null : SOURCES.indexOf(filter.source),
        statuses: filter.status === undefined ? null : filter.status.map((s) => STATUSES.indexOf(s)),
      }),
    }),
    searches: () => site().searches.answer(fromMs, toMs, now),
    views: () => {
      const a = site().traffic.views(fromMs, toMs, now);
      return { totals: a.totals, views: a.items };
    },
    visitors: () => {
      const a = site().traffic.visitors(fromMs, toMs, now);
      return { totals: a.totals, visitors: a.items };
    },
    'assistant/caller-stats': () => twin.callerStats(projectId, fromMs, toMs, now),
  };
  const answer = answers[endpoint];
  if (!answer) throw new Error(`unknown aggregated endpoint "${String(endpoint)}": one of ${AGGREGATE_ENDPOINTS.join(', ')}`);
  return answer() as AggregateAnswers[E];
}
