// GET …/feedback (cursor pages, newest first; feedback-store.ts has the order and the date rule)
// and GET …/feedback/by-page (per-page counts, one page of `limit`, no cursor, no offset: a client
// that needs more must narrow the request, by source and by status, as the contract leaves it).
import type { IssuedCursor } from './cursors.js';
import type { FeedbackPosition } from './feedback-store.js';
import { sendJson } from './http-io.js';
import { ENDLESS_PREFIX, endlessCursor } from './limit-faults.js';
import { feedbackCursor, parseFeedbackCursor } from './opaque-cursors.js';
import { ParamReader } from './query-params.js';
import { sendBody } from './reply.js';
import { INVALID_QUERY, type RouteContext } from './route-context.js';

/** GET …/feedback: limit 1–100 (default 50), source, status, dateFrom/dateTo, cursor. */
export function serveFeedback({ twin, res, projectId, params, fault, now }: RouteContext): void {
  const r = new ParamReader(params);
  const limit = r.integer('limit', 1, 100, 50);
  const range = r.dates();
  const filter = { source: r.source(), statuses: r.statuses() };
  const cursorText = r.single('cursor');
  let after: FeedbackPosition | null = null;
  let issued: IssuedCursor | undefined;
  if (twin.opts.endlessCursor && cursorText?.startsWith(ENDLESS_PREFIX) && r.ok) {
    return sendBody(res, { feedback: [], nextCursor: endlessCursor(twin), hasMore: true }, fault, { key: 'feedback' });
  }
  if (cursorText !== null) {
    after = parseFeedbackCursor(cursorText);
    if (after === null) r.problem('cursor must be a nextCursor returned by this endpoint');
    else if (!(issued = twin.cursors.lookup(projectId, cursorText, now, twin.opts.cursorTtlMs))) {
      r.problem('cursor is unknown or expired: restart from the first page');
    }
  }
  if (!r.ok) return sendJson(res, 400, { error: INVALID_QUERY, details: r.details });

  const page = twin.site(projectId).feedback.page(now, range, filter, after, limit, twin.opts.malformedRate);
  const nextCursor = page.hasMore && page.last ? feedbackCursor(page.last) : twin.opts.endlessCursor ? endlessCursor(twin) : null;
  if (nextCursor !== null) twin.cursors.issue(projectId, nextCursor, now, page.records[page.records.length - 1]);
  sendBody(res, { feedback: page.records, nextCursor, hasMore: page.hasMore || nextCursor !== null }, fault, { key: 'feedback', previous: issued?.lastRecord });
}

/** GET …/feedback/by-page: limit 1–100 (default 10), source, status, dateFrom/dateTo. */
export function serveFeedbackByPage({ twin, res, projectId, params, fault, now }: RouteContext): void {
  const r = new ParamReader(params);
  const limit = r.integer('limit', 1, 100, 10);
  const range = r.dates();
  const filter = { source: r.source(), statuses: r.statuses() };
  if (!r.ok) return sendJson(res, 400, { error: INVALID_QUERY, details: r.details });

  const items = twin.site(projectId).feedback.byPage(now, range, filter);
  sendBody(res, { feedback: items.slice(0, limit), hasMore: items.length > limit }, fault, { key: 'feedback' });
}
