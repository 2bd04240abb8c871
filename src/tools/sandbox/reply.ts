// Sends a 200 analytics body, with the body-level fault drawn for the request (faults.ts):
// - malformed: JSON that is not the endpoint's shape (every field of the wrong type);
// - repeat: a record already served again: on a list endpoint, the last record of the previous
//   page of the cursor chain, or (without one) a copy of this page's first record;
// - truncate: the body cut in half, with a Content-Length that tells the truth about what is sent.
import type { ServerResponse } from 'node:http';
import { sendJson } from './http-io.js';
import type { FaultKind } from './options.js';

export interface ReplyList {
  /** The body's list field ("conversations", "feedback", …). */
  key: string;
  /** The last record of the previous page of this cursor chain, when there is one. */
  previous?: unknown;
}

export function sendBody(res: ServerResponse, body: Record<string, unknown>, fault: FaultKind | null, list: ReplyList | null): void {
  if (fault === 'malformed') {
    sendJson(res, 200, Object.fromEntries(Object.entries(body).map(([k, v]) => [k, wrongType(v)])));
    return;
  }
  if (fault === 'repeat' && list) {
    const items = body[list.key] as unknown[];
    if (list.previous !== undefined) items.unshift(structuredClone(list.previous));
    else if (items.length > 0) items.push(structuredClone(items[0]));
  }
  if (fault === 'truncate') {
    const buf = Buffer.from(JSON.stringify(body), 'utf8');
    const cut = buf.subarray(0, Math.max(1, Math.floor(buf.length / 2)));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': cut.length });
    res.end(cut);
    return;
  }
  sendJson(res, 200, body);
}

/** A value of another JSON type: lists and objects become null, null and strings 0, numbers a string, booleans "maybe". */
function wrongType(v: unknown): unknown {
  if (v === null || typeof v === 'string') return 0;
  if (typeof v === 'number') return 'many';
  if (typeof v === 'boolean') return 'maybe';
  return null;
}
