// What an analytics endpoint handler gets once the gateway has authenticated, counted, delayed
// and (maybe) faulted the request and found its project.
import type { ServerResponse } from 'node:http';
import type { AnalyticsTwin } from './analytics-twin.js';
import type { FaultKind } from './options.js';

export interface RouteContext {
  twin: AnalyticsTwin;
  res: ServerResponse;
  projectId: string;
  params: URLSearchParams;
  /** The body-level fault for a 200 (repeat, truncate, malformed), or null. */
  fault: FaultKind | null;
  /** The instant the answer is computed for. */
  now: number;
}

/** A 400 with one detail per problem (AnalyticsErrorResponse). */
export const INVALID_QUERY = 'Invalid query parameters';
