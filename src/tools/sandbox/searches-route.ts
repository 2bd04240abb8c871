// GET …/searches: the range's search terms by hits desc (then searchQuery), `limit` at a time; the
// opaque cursor holds the (hits, searchQuery) of the page's last term and the next page starts
// after it in the ranking as computed at ITS request (counts still growing can shift a term
// across pages: fetch settled days). No `hasMore`: the last page has nextCursor null.
import type { IssuedCursor } from './cursors.js';
import { sendJson } from './http-io.js';
import { parseSearchesCursor, searchesCursor, type SearchPosition } from './opaque-cursors.js';
import { ParamReader } from './query-params.js';
import { sendBody } from './reply.js';
import type { RouteContext } from './route-context.js';
import { compareSearches } from './search-rollup.js';

/** GET …/searches: limit 1–100 (default 50), dateFrom/dateTo, cursor. */
export function serveSearches({ twin, res, projectId, params, fault, now }: RouteContext): void {
  const r = new ParamReader(params);
  const limit = r.integer('limit', 1, 100, 50);
  const { fromMs, toMs } = r.dates();
  const cursorText = r.single('cursor');
  let after: SearchPosition | null = null;
  let issued: IssuedCursor | undefined;
  if (cursorText !== null) {
    after = parseSearchesCursor(cursorText);
    if (after === null) r.problem('cursor must be a nextCursor returned by this endpoint');
    else if (!(issued = twin.cursors.lookup(projectId, cursorText, now, twin.opts.cursorTtlMs))) {
      r.problem('cursor is unknown or expired: restart from the first page');
    }
  }
  if (!r.ok) return sendJson(res, 400, { error: 'Invalid query parameters or cursor', details: r.details });

  const { searches, totalSearches } = twin.site(projectId).searches.answer(fromMs, toMs, now);
  const start = after === null ? 0 : firstAfter(searches, after);
  const page = searches.slice(start, start + limit);
  const last = page[page.length - 1];
  const nextCursor = start + limit < searches.length && last ? searchesCursor(last) : null;
  if (nextCursor !== null) twin.cursors.issue(projectId, nextCursor, now, last);
  sendBody(res, { searches: page, totalSearches, nextCursor }, fault, { key: 'searches', previous: issued?.lastRecord });
}

/** Index of the first term that sorts after `p` (binary search in the served order). */
function firstAfter(items: readonly SearchPosition[], p: SearchPosition): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareSearches(items[mid]!, p) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
