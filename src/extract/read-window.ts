// Reads one window as an async generator of pages, following nextCursor while hasMore. Order is
// not guaranteed by the API, so nothing here depends on it. A rejected stored cursor restarts the
// window from its start (the loader's upsert absorbs the re-read rows).
import type { AnalyticsClient } from '../api/analytics-client.js';
import { CursorRejectedError, FatalError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Window } from '../load/sync-state.js';

export interface ExtractedPage {
  records: unknown[];
  body: string;
  nextCursor: string | null;
  hasMore: boolean;
  requests: number;
  /** True for the first page after the window was restarted. */
  restarted: boolean;
}

/** How many times one run restarts a window on rejected cursors before giving up. */
const MAX_RESTARTS = 3;

export async function* readWindow(
  client: AnalyticsClient,
  source: { endpoint: string; projectId: string; pageSize: number },
  window: Window,
  startCursor: string | null,
  opts: { logger: Logger; signal?: AbortSignal },
): AsyncGenerator<ExtractedPage> {
  let cursor = startCursor;
  let restarts = 0;
  let restarted = false;
  for (;;) {
    let fetched;
    try {
      fetched = await client.fetchPage(
        source.endpoint,
        source.projectId,
        { dateFrom: window.from ?? undefined, dateTo: window.to, cursor, limit: source.pageSize },
        opts.signal,
      );
    } catch (err) {
      if (!(err instanceof CursorRejectedError)) throw err;
      if (++restarts > MAX_RESTARTS) throw new FatalError(`${err.message}; the window was restarted ${MAX_RESTARTS} times`);
      opts.logger.warn({ projectId: source.projectId, reason: err.message }, 'stored cursor rejected: restarting the window from its start');
      cursor = null;
      restarted = true;
      continue;
    }
    const { page } = fetched;
    // hasMore without a cursor cannot be followed: treat as the end rather than loop forever.
    const hasMore = page.hasMore && Boolean(page.nextCursor);
    yield { records: page.conversations, body: fetched.body, nextCursor: page.nextCursor, hasMore, requests: fetched.requests, restarted };
    restarted = false;
    if (!hasMore) return;
    cursor = page.nextCursor;
  }
}
