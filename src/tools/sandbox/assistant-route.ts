// GET /v1/analytics/{projectId}/assistant: keyset pages over the project's visible rows.
// A page is the visible rows matching dateFrom/dateTo with rowId > cursor, in rowId order,
// `limit` of them; the cursor returned is the rowId of the page's last row.
import { ULID } from '../../contracts/analytics.js';
import type { IssuedCursor } from './cursors.js';
import { parseAssistantQuery } from './query-params.js';
import { sendBody } from './reply.js';
import type { RouteContext } from './route-context.js';
import { sendJson } from './http-io.js';
import { withHugeRecord } from './limit-faults.js';

/** Serves one page; body-level faults (repeat, truncate, malformed) apply to a 200 (reply.ts). */
export function serveAssistant({ twin, res, projectId, params, fault, now }: RouteContext): void {
  const parsed = parseAssistantQuery(params);
  const details = parsed.ok ? [] : [...parsed.details];
  const cursorText = params.get('cursor');
  let issued: IssuedCursor | undefined;
  if (cursorText !== null && ULID.test(cursorText)) {
    issued = twin.cursors.lookup(projectId, cursorText, now, twin.opts.cursorTtlMs);
    if (!issued) details.push({ message: 'cursor is unknown or expired: restart from the first page' });
  }
  if (!parsed.ok || details.length > 0) {
    sendJson(res, 400, { error: 'Invalid query parameters', details });
    return;
  }

  const { conversations, nextCursor, hasMore } = twin.page(projectId, parsed.query, now);
  if (nextCursor !== null) twin.cursors.issue(projectId, nextCursor, now, conversations[conversations.length - 1]);
  sendBody(res, { conversations: withHugeRecord(twin, projectId, conversations), nextCursor, hasMore }, fault, { key: 'conversations', previous: issued?.lastRecord });
}
