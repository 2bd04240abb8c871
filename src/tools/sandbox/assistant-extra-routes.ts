// GET …/assistant/caller-stats (caller-stats.ts) and GET …/assistant/threads/{threadId}
// (assistant-thread.ts): both read the same turns as GET …/assistant.
import { sendJson } from './http-io.js';
import { ParamReader } from './query-params.js';
import { sendBody } from './reply.js';
import { INVALID_QUERY, type RouteContext } from './route-context.js';
import { THREAD_ID } from './assistant-thread.js';

/** dateFrom/dateTo only (other parameters are ignored). */
export function serveCallerStats({ twin, res, projectId, params, fault, now }: RouteContext): void {
  const r = new ParamReader(params);
  const { fromMs, toMs } = r.dates();
  if (!r.ok) return sendJson(res, 400, { error: INVALID_QUERY, details: r.details });
  sendBody(res, { ...twin.callerStats(projectId, fromMs, toMs, now) }, fault, null);
}

/** 400 "Invalid thread ID" unless a ULID; 404 "Thread not found" for a thread of no conversation of the project. */
export function serveThread({ twin, res, projectId, fault, now }: RouteContext, threadId: string): void {
  if (!THREAD_ID.test(threadId)) {
    return sendJson(res, 400, { error: 'Invalid thread ID', details: [{ message: 'threadId must be a ULID (26 characters of Crockford base32)' }] });
  }
  const thread = twin.thread(projectId, threadId, now);
  if (!thread) return sendJson(res, 404, { error: 'Thread not found' });
  sendBody(res, { ...thread }, fault, null);
}
