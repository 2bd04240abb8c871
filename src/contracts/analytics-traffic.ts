// Traffic, search and caller endpoints of the Analytics Export API (docs/api/analytics.openapi.json:
// ViewsByPageResponse, VisitorsByPageResponse, SearchesResponse, AssistantCallerStatsResponse,
// AssistantThreadResponse; docs/api/contract.md §4–§8). All counts are over the requested range.
import { z } from 'zod';
import { timestampSchema } from './analytics.js';

const count = z.number().min(0);

/** Site-wide totals of `views` and `visitors` (visitors' `total` is deduplicated: ≤ human + ai). */
export const trafficTotalsSchema = z.looseObject({ human: count, ai: count, total: count });

/** One path of `views` or `visitors`. */
export const pageTrafficRecordSchema = z.looseObject({ path: z.string(), human: count, ai: count, total: count });

/** The page-level fields of `views` and `visitors` besides the per-page list. */
export const trafficPageSchema = z.object({ totals: trafficTotalsSchema });

/** One search term of `searches` (ordered by hits, descending). */
export const searchRecordSchema = z.looseObject({
  searchQuery: z.string(),
  hits: count,
  ctr: z.number().min(0),
  topClickedPage: z.string().nullable(),
  lastSearchedAt: timestampSchema,
});

/** The page-level field of `searches`: the sum of all hits in the range (not distinct terms). */
export const searchesPageSchema = z.object({ totalSearches: z.number().int().min(0) });

/** `assistant/caller-stats`: the whole body is one record. */
export const callerStatsSchema = z.looseObject({ web: count, api: count, other: count, total: count });
