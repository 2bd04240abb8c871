// TEST-ONLY control routes under /__sandbox/, for subprocess tests that cannot call the Sandbox
// object. No auth, so they answer loopback clients only (others get 404). Never expose a
// sandbox beyond loopback with these on a shared network.
//   GET  /__sandbox/truth?projectId=X   → {turns, malformed}
//   GET  /__sandbox/truth?projectId=X&compact=1[&from=MS][&to=MS]
//        → {count, id[], timestampMs[], visibleAt[], queryCategory[], resolutionStatus[]} (truthKeys)
//   GET  /__sandbox/visible-count?projectId=X[&at=MS] → {count}  (valid turns visible at MS, default now)
//   GET  /__sandbox/feedback-truth?projectId=X[&from=MS][&to=MS] → {feedback, malformed}  (feedbackTruth)
//   GET  /__sandbox/aggregate?projectId=X&endpoint=E[&from=MS][&to=MS][&source=S][&status=A,B]
//        → the full unpaged answer (aggregateTruth; E = feedback/by-page, searches, views, visitors,
//          assistant/caller-stats)
//   GET  /__sandbox/thread?projectId=X&threadId=T → the thread, or 404 (threadTruth)
//   GET  /__sandbox/requests?key=K      → {requests: [{at, status, path}]}  (K is not logged)
//   POST /__sandbox/expire-cursors      → {ok: true}
//   POST /__sandbox/configure  {faultRate?, faults?, latencyMs?, rateLimit?, malformedRate?, cursorTtlMs?, live?, hugeRecordBytes?, endlessCursor?}
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { aggregateTruth, AGGREGATE_ENDPOINTS, feedbackTruth, type AggregateEndpoint } from './aggregate-truth.js';
import type { AnalyticsTwin } from './analytics-twin.js';
import { SOURCES, STATUSES, type FeedbackSource, type FeedbackStatus } from './feedback-day.js';
import { FAULT_KINDS } from './faults.js';
import { BadRequest, isLoopback, readJsonBody, sendError, sendJson } from './http-io.js';

const configurePatchSchema = z.strictObject({
  faultRate: z.number().min(0).max(1).optional(),
  faults: z.array(z.enum(FAULT_KINDS as [string, ...string[]])).optional(),
  latencyMs: z.number().int().min(0).optional(),
  rateLimit: z.object({ limit: z.number().int().min(1), windowMs: z.number().int().min(1) }).nullable().optional(),
  malformedRate: z.number().min(0).max(1).optional(),
  cursorTtlMs: z.number().int().min(0).nullable().optional(),
  live: z.boolean().optional(),
  hugeRecordBytes: z.number().int().min(0).optional(),
  endlessCursor: z.boolean().optional(),
});

export async function handleTestRoute(twin: AnalyticsTwin, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress)) return sendError(res, 404, 'Not found');
  const route = `${req.method} ${url.pathname}`;
  switch (route) {
    case 'GET /__sandbox/truth': {
      const projectId = url.searchParams.get('projectId') ?? '';
      if (!twin.hasProject(projectId)) return sendError(res, 404, 'Project not found');
      if (url.searchParams.get('compact') !== '1') {
        return sendJson(res, 200, { turns: twin.truth(projectId), malformed: twin.malformed(projectId) });
      }
      const [fromMs, toMs] = [msParam(url, 'from'), msParam(url, 'to')];
      if (fromMs === undefined || toMs === undefined) return sendError(res, 400, 'from and to must be integers (ms since epoch)');
      const k = twin.truthKeys(projectId, { fromMs, toMs });
      return sendJson(res, 200, { ...k, timestampMs: Array.from(k.timestampMs), visibleAt: Array.from(k.visibleAt) });
    }
    case 'GET /__sandbox/visible-count': {
      const projectId = url.searchParams.get('projectId') ?? '';
      if (!twin.hasProject(projectId)) return sendError(res, 404, 'Project not found');
      const at = msParam(url, 'at');
      if (at === undefined) return sendError(res, 400, 'at must be an integer (ms since epoch)');
      return sendJson(res, 200, { count: twin.visibleCount(projectId, at ?? twin.now()) });
    }
    case 'GET /__sandbox/feedback-truth':
    case 'GET /__sandbox/aggregate':
    case 'GET /__sandbox/thread':
      return siteTruth(twin, res, url);
    case 'GET /__sandbox/requests':
      return sendJson(res, 200, { requests: twin.log.list(url.searchParams.get('key') ?? '') });
    case 'POST /__sandbox/expire-cursors':
      twin.cursors.expireAll();
      return sendJson(res, 200, { ok: true });
    case 'POST /__sandbox/configure': {
      let body: unknown;
      try {
        body = await readJsonBody(req);
      } catch (err) {
        if (err instanceof BadRequest) return sendError(res, 400, err.message);
        throw err;
      }
      const parsed = configurePatchSchema.safeParse(body);
      if (!parsed.success) {
        return sendJson(res, 400, {
          error: 'Invalid configuration patch',
          details: parsed.error.issues.map((i) => ({ message: `${i.path.join('.') || '(body)'}: ${i.message}` })),
        });
      }
      twin.configure(parsed.data as Parameters<AnalyticsTwin['configure']>[0]);
      return sendJson(res, 200, { ok: true });
    }
    default:
      return sendError(res, 404, 'Not found');
  }
}

/** The truth routes of the other endpoints (feedback, aggregates, threads). */
function siteTruth(twin: AnalyticsTwin, res: ServerResponse, url: URL): void {
  const q = url.searchParams;
  const projectId = q.get('projectId') ?? '';
  if (!twin.hasProject(projectId)) return sendError(res, 404, 'Project not found');
  if (url.pathname === '/__sandbox/thread') {
    const thread = twin.thread(projectId, q.get('threadId') ?? '');
    return thread ? sendJson(res, 200, thread) : sendError(res, 404, 'Thread not found');
  }
  const [fromMs, toMs] = [msParam(url, 'from'), msParam(url, 'to')];
  if (fromMs === undefined || toMs === undefined) return sendError(res, 400, 'from and to must be integers (ms since epoch)');
  if (url.pathname === '/__sandbox/feedback-truth') {
    const range = { fromMs, toMs };
    return sendJson(res, 200, { feedback: feedbackTruth(twin, projectId, range), malformed: feedbackTruth(twin, projectId, range, true) });
  }
  const endpoint = q.get('endpoint') as AggregateEndpoint;
  if (!AGGREGATE_ENDPOINTS.includes(endpoint)) return sendError(res, 400, `endpoint must be one of ${AGGREGATE_ENDPOINTS.join(', ')}`);
  const source = q.get('source');
  const status = q.get('status')?.split(',');
  if ((source !== null && !(SOURCES as readonly string[]).includes(source)) || status?.some((s) => !(STATUSES as readonly string[]).includes(s))) {
    return sendError(res, 400, 'source or status is not a value of the feedback enums');
  }
  return sendJson(res, 200, aggregateTruth(twin, projectId, endpoint, fromMs, toMs, {
    ...(source !== null ? { source: source as FeedbackSource } : {}), ...(status ? { status: status as FeedbackStatus[] } : {}),
  }));
}

/** An optional integer parameter: null when absent, undefined when not an integer. */
function msParam(url: URL, name: string): number | null | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return null;
  return /^-?\d+$/.test(v) ? Number(v) : undefined;
}
