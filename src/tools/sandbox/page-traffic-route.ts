// GET …/views and GET …/visitors: site totals plus per-page counts, offset pages of `limit`
// (page-traffic.ts has the counts and the order). `totals` cover the whole range whatever the page.
import { sendJson } from './http-io.js';
import { ParamReader } from './query-params.js';
import { sendBody } from './reply.js';
import { INVALID_QUERY, type RouteContext } from './route-context.js';

/** limit: integer 1–250 (default 50); offset: integer ≥ 0 (default 0); dateFrom/dateTo. */
export function servePageTraffic(kind: 'views' | 'visitors', { twin, res, projectId, params, fault, now }: RouteContext): void {
  const r = new ParamReader(params);
  const limit = r.integer('limit', 1, 250, 50);
  const offset = r.integer('offset', 0, null, 0);
  const { fromMs, toMs } = r.dates();
  if (!r.ok) return sendJson(res, 400, { error: INVALID_QUERY, details: r.details });

  const traffic = twin.site(projectId).traffic;
  const { totals, items } = kind === 'views' ? traffic.views(fromMs, toMs, now) : traffic.visitors(fromMs, toMs, now);
  sendBody(res, { totals, [kind]: items.slice(offset, offset + limit), hasMore: offset + limit < items.length }, fault, { key: kind });
}
