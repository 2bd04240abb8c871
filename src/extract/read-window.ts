// Reads one window as an async generator of pages, paging the way the pipeline declares. Order is
// not guaranteed by the API, so nothing here depends on it. A rejected stored cursor restarts the
// window from its start (the merge absorbs the re-read rows); a cursor the server already gave in
// this window ends it with an error instead of looping until the budget is gone.
import type { AnalyticsClient } from '../api/analytics-client.js';
import { CursorRejectedError, FatalError, RetriableError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Window } from '../core/window.js';
import type { PipelineDefinition } from '../pipeline/definition.js';

/** Where a window continues: the cursor or offset of its next page (both null: its first page). */
export interface Position {
  cursor: string | null;
  offset: number | null;
}

export interface ExtractedPage {
  /** The body as received. */
  body: string;
  records: unknown[];
  /** What was sent for this page. */
  request: Position;
  /** Where the window continues; `complete`: this page was its last. */
  next: Position & { complete: boolean };
  requests: number;
  /** True for the first page after the window was restarted (rejected cursor). */
  restarted: boolean;
}

export interface ReadOptions {
  logger: Logger;
  signal?: AbortSignal;
  onRequest?: () => void;
}

/** How many times one run restarts a window on rejected cursors before giving up. */
const MAX_RESTARTS = 3;
export const START: Position = { cursor: null, offset: null };

export async function* readWindow(
  client: AnalyticsClient, pipeline: PipelineDefinition, projectId: string, window: Window, start: Position, opts: ReadOptions,
): AsyncGenerator<ExtractedPage> {
  let at = start;
  let restarts = 0;
  let restarted = false;
  const seen = new Set<string>();
  for (;;) {
    let fetched;
    try {
      fetched = await client.get(pipeline.endpoint, projectId, params(pipeline, window, at), { signal: opts.signal, onRequest: opts.onRequest });
    } catch (err) {
      if (!(err instanceof CursorRejectedError)) throw err;
      if (++restarts > MAX_RESTARTS) throw new FatalError(`${err.message}; the window was restarted ${MAX_RESTARTS} times`);
      opts.logger.warn({ projectId, pipeline: pipeline.name, reason: err.message }, 'stored cursor rejected: restarting the window from its start');
      at = START;
      restarted = true;
      seen.clear();
      continue;
    }
    const page = envelope(pipeline, fetched.json);
    const next = following(pipeline, at, page);
    if (next.cursor !== null) {
      if (seen.has(next.cursor) || next.cursor === at.cursor) {
        throw new FatalError(`the API returned the same cursor twice in window ${window.from.toISOString()} → ${window.to.toISOString()} (a paging loop): the window was ended, no further requests`);
      }
      seen.add(next.cursor);
    }
    yield { body: fetched.body, records: page.records, request: at, next, requests: fetched.requests, restarted };
    restarted = false;
    if (next.complete) return;
    at = { cursor: next.cursor, offset: next.offset };
  }
}

function params(p: PipelineDefinition, w: Window, at: Position): Record<string, string> {
  const q: Record<string, string> = { dateFrom: w.from.toISOString(), dateTo: w.to.toISOString() };
  if (p.paging.style !== 'single') q.limit = String(p.paging.limit);
  if (p.paging.style === 'cursor' && at.cursor) q.cursor = at.cursor;
  if (p.paging.style === 'offset') q.offset = String(at.offset ?? 0);
  return q;
}

interface Envelope {
  records: unknown[];
  nextCursor: string | null;
  hasMore: boolean | null;
}

/** The paging fields of a page; a body without them is a broken response (retried like a 5xx). */
function envelope(p: PipelineDefinition, json: unknown): Envelope {
  const o = json as Record<string, unknown> | null;
  const records = o?.[p.recordsField];
  const broken = (why: string) => new RetriableError(`response does not match the ${p.name} page contract: ${why}`, 200);
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw broken('not a JSON object');
  if (!Array.isArray(records)) throw broken(`"${p.recordsField}" is not an array`);
  let nextCursor: string | null = null;
  let hasMore: boolean | null = null;
  if (p.paging.style === 'cursor') {
    if (o.nextCursor !== null && typeof o.nextCursor !== 'string') throw broken('"nextCursor" is not a string or null');
    nextCursor = o.nextCursor as string | null;
  }
  if (p.paging.style === 'offset' || (p.paging.style === 'cursor' && p.paging.hasMore)) {
    if (typeof o.hasMore !== 'boolean') throw broken('"hasMore" is not a boolean');
    hasMore = o.hasMore;
  }
  return { records, nextCursor, hasMore };
}

function following(p: PipelineDefinition, at: Position, page: Envelope): ExtractedPage['next'] {
  switch (p.paging.style) {
    case 'cursor': {
      // hasMore without a cursor cannot be followed: the window ends there.
      const more = Boolean(page.nextCursor) && (page.hasMore ?? true);
      return { cursor: more ? page.nextCursor : null, offset: null, complete: !more };
    }
    case 'offset': {
      const more = page.hasMore === true && page.records.length > 0;
      return { cursor: null, offset: more ? (at.offset ?? 0) + p.paging.limit : null, complete: !more };
    }
    case 'single':
      return { cursor: null, offset: null, complete: true };
  }
}
