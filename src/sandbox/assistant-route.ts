// GET /v1/analytics/{projectId}/assistant: keyset pages over the project's visible rows.
// A page is the visible rows matching dateFrom/dateTo with rowId > cursor, in rowId order,
// `limit` of them; the cursor returned is the rowId of the page's last row.
import type { ServerResponse } from 'node:http';
import { ULID } from '../contracts/analytics.js';
import type { AnalyticsTwin } from './analytics-twin.js';
import type { IssuedCursor } from './cursors.js';
import { sendJson } from './http-io.js';
import type { FaultKind } from './options.js';
import { parseAssistantQuery } from './query-params.js';

/** Serves one page; `fault` applies the body-level faults (repeat, truncate, malformed) to a 200. */
export function serveAssistant(
  twin: AnalyticsTwin, res: ServerResponse, projectId: string, params: URLSearchParams, fault: FaultKind | null,
): void {
  const now = twin.now();
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

  if (fault === 'malformed') {
    // A 200 whose body is JSON but not a page: the client must treat it as a failed request.
    sendJson(res, 200, { conversations: null, nextCursor: 0, hasMore: 'maybe' });
    return;
  }
  if (fault === 'repeat') {
    // A record already served again: the last one of the previous page of this cursor chain,
    // or (on a first page) one of this page's own records.
    if (issued) conversations.unshift(structuredClone(issued.lastRecord) as Record<string, unknown>);
    else if (conversations.length > 0) conversations.push(structuredClone(conversations[0]!));
  }
  const body = { conversations, nextCursor, hasMore };
  if (fault === 'truncate') {
    const buf = Buffer.from(JSON.stringify(body), 'utf8');
    const cut = buf.subarray(0, Math.max(1, Math.floor(buf.length / 2)));
    // The length header tells the truth about what is sent: the body itself is cut short.
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': cut.length });
    res.end(cut);
    return;
  }
  sendJson(res, 200, body);
}
