// The analytics endpoints the sandbox serves, by the path after /v1/analytics/{projectId}
// (a trailing slash is tolerated). All are GET and go through the gateway (analytics-gateway.ts).
import { serveCallerStats, serveThread } from './assistant-extra-routes.js';
import { serveAssistant } from './assistant-route.js';
import { serveFeedback, serveFeedbackByPage } from './feedback-routes.js';
import { servePageTraffic } from './page-traffic-route.js';
import type { RouteContext } from './route-context.js';
import { serveSearches } from './searches-route.js';

type Handler = (c: RouteContext) => void;

const ROUTES: Record<string, Handler> = {
  '/assistant': serveAssistant,
  '/assistant/caller-stats': serveCallerStats,
  '/feedback': serveFeedback,
  '/feedback/by-page': serveFeedbackByPage,
  '/searches': serveSearches,
  '/views': (c) => servePageTraffic('views', c),
  '/visitors': (c) => servePageTraffic('visitors', c),
};

const THREAD = /^\/assistant\/threads\/([^/]+)$/;

/** The handler of a sub-path (e.g. "/feedback/by-page"), or null when the sandbox serves no such endpoint. */
export function analyticsRoute(subPath: string): Handler | null {
  const path = subPath.length > 1 && subPath.endsWith('/') ? subPath.slice(0, -1) : subPath;
  const fixed = ROUTES[path];
  if (fixed) return fixed;
  const m = THREAD.exec(path);
  if (!m) return null;
  const threadId = safeDecode(m[1]!);
  return (c) => serveThread(c, threadId ?? m[1]!);
}

export function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
