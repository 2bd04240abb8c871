// Everything under /v1/analytics/: bearer auth, the request log, the per-organization rate
// limit (one window for all eight endpoints), latency and faults, then the endpoint
// (analytics-routes.ts). Order matters: a request is logged and counted
// at ARRIVAL (before latency); 401s and 429s are logged but never counted; faulted requests
// (5xx, reset, truncate) did arrive, so they count.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnalyticsTwin } from './analytics-twin.js';
import { analyticsRoute, safeDecode } from './analytics-routes.js';
import { bearerToken, sendError } from './http-io.js';
import { retryAfterSeconds } from './rate-limiter.js';

const SERVER_ERROR_TEXT: Record<number, string> = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

export async function handleAnalytics(twin: AnalyticsTwin, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const arrival = twin.now();
  const key = bearerToken(req);
  const entry = key !== null ? twin.log.record(key, arrival, url.pathname) : null;
  res.on('finish', () => {
    if (entry) entry.status = res.statusCode;
  });
  const delay = () => twin.opts.clock.sleep(twin.opts.latencyMs);

  if (key === null || !twin.isAcceptedKey(key)) {
    await delay();
    sendError(res, 401, key === null ? 'Missing API key: send Authorization: Bearer <admin key>' : 'Invalid or expired API key',
      { 'www-authenticate': 'Bearer' });
    return;
  }
  const admission = twin.limiter.admit(key, arrival, twin.opts.rateLimit);
  if (!admission.ok) {
    await delay();
    sendError(res, 429, 'Rate limit exceeded', { 'retry-after': String(retryAfterSeconds(admission.retryAfterMs)) });
    return;
  }
  await delay();

  const fault = twin.faults.next(twin.opts.faultRate, twin.opts.faults);
  if (fault === 'http5xx') {
    const status = twin.faults.serverErrorStatus();
    const text = SERVER_ERROR_TEXT[status]!;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>${status} ${text}</title></head><body><h1>${text}</h1></body></html>\n`);
    return;
  }
  if (fault === 'reset') {
    // No response at all; the log keeps status 0.
    req.socket.destroy();
    return;
  }

  const m = /^\/v1\/analytics\/([^/]+)(\/.*)?$/.exec(url.pathname);
  const projectId = m ? safeDecode(m[1]!) : null;
  if (projectId === null || !twin.hasProject(projectId)) {
    sendError(res, 404, 'Project not found');
    return;
  }
  const handler = analyticsRoute(m![2] ?? '');
  if (!handler || twin.opts.missingEndpoints?.[projectId]?.includes(m![2] ?? '')) {
    sendError(res, 404, 'Not found: no such analytics endpoint');
    return;
  }
  if (req.method !== 'GET') {
    sendError(res, 405, 'Method not allowed', { allow: 'GET' });
    return;
  }
  handler({ twin, res, projectId: projectId!, params: url.searchParams, fault, now: twin.now() });
}
