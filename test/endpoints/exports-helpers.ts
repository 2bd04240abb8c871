// What the tests of test/endpoints/ share: every pipeline's table as the warehouse holds it and as the
// sandbox's ground truth says it must be, both as plain sorted rows so one toEqual compares them.
// The expected rows are built here from the sandbox's truth helpers (feedbackTruth, aggregateTruth,
// truth), never from the warehouse or the code that loads it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PIPELINES } from '../../pipelines/index.js';
import { normalizeOffset } from '../../src/contracts/analytics.js';
import type { Clock } from '../../src/core/clock.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import {
  FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackByPageItem, type FeedbackRecord, type Sandbox,
} from '../../src/tools/sandbox/index.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';

export const DAY_MS = 86_400_000;
/** The seven pipelines a sync runs by default (assistant_threads is opt-in, and not about exports). */
type DefaultPipeline = Exclude<(typeof PIPELINES)[number], { optIn: true }>;
export type PipelineName = DefaultPipeline['name'];
export const PIPELINE_NAMES = PIPELINES.filter((p): p is DefaultPipeline => !('optIn' in p && p.optIn)).map((p) => p.name);
export type Row = Record<string, unknown>;

/** A site small enough that every day fits one page of each endpoint (no truncation, no split). */
export { SMALL_SITE } from '../helpers/small-sandbox.js';

/** UTC midnight of the day holding `ms`. */
export const utcMidnight = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The complete UTC days [fromMs, toMs) a day pipeline reads: whole days starting at or after fromMs, ending by toMs. */
export function completeDays(fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let d = Math.ceil(fromMs / DAY_MS) * DAY_MS; d + DAY_MS <= toMs; d += DAY_MS) out.push(d);
  return out;
}

/** Rows of a query, with BIGINTs as numbers and timestamps as ISO strings, in a stable order. */
export async function query(warehouse: string, sql: string, params: Record<string, string> = {}): Promise<Row[]> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return (await wh.conn.runAndReadAll(sql, params)).getRowObjectsJS().map(plain);
  } finally {
    wh.close();
  }
}

function plain(r: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(r)) out[k] = typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.toISOString() : v;
  return out;
}

const byJson = (rows: Row[]) => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
const iso = (s: string | null): string | null => (s === null ? null : new Date(Date.parse(normalizeOffset(s))).toISOString());

/** The feedback table's rows as the truth has them. */
export function expectedFeedback(entries: FeedbackRecord[]): Row[] {
  return byJson(entries.map((e) => {
    const x = e as FeedbackRecord & Partial<Record<'helpful' | 'contact' | 'code' | 'filename' | 'lang', unknown>>;
    return {
      id: e.id, created_at: iso(e.createdAt), path: e.path, comment: e.comment, source: e.source, status: e.status,
      helpful: x.helpful ?? null, contact: x.contact ?? null, code: x.code ?? null, filename: x.filename ?? null, lang: x.lang ?? null,
    };
  }));
}

/**
 * A day pipeline's rows as the truth has them: aggregateTruth of each day, turned into the table's
 * columns (its key, its counts; searches: the first page of 100 terms, ranked in served order).
 */
export function expectedDaily(sb: Sandbox, pipeline: PipelineName, projectId: string, days: number[]): Row[] {
  const rows: Row[] = [];
  for (const d of days) {
    const day = isoDay(d);
    const [from, to] = [d, d + DAY_MS];
    switch (pipeline) {
      case 'page_views':
        for (const v of sb.aggregateTruth(projectId, 'views', from, to).views) rows.push({ day, path: v.path, human: v.human, ai: v.ai, total: v.total });
        break;
      case 'page_visitors':
        for (const v of sb.aggregateTruth(projectId, 'visitors', from, to).visitors) rows.push({ day, path: v.path, human: v.human, ai: v.ai, total: v.total });
        break;
      case 'searches':
        sb.aggregateTruth(projectId, 'searches', from, to).searches.slice(0, 100).forEach((s, i) => rows.push({
          day, search_query: s.searchQuery, hits: s.hits, ctr: s.ctr, top_clicked_page: s.topClickedPage,
          last_searched_at: iso(s.lastSearchedAt), rank: i + 1,
        }));
        break;
      case 'assistant_callers': {
        const c = sb.aggregateTruth(projectId, 'assistant/caller-stats', from, to);
        rows.push({ day, web: c.web, api: c.api, other: c.other, total: c.total });
        break;
      }
      case 'feedback_by_page': {
        const { items, truncated } = byPageAsSplit(sb, projectId, from, to);
        for (const f of items) rows.push({ day, path: f.path, thumbs_up: f.thumbsUp, thumbs_down: f.thumbsDown, code: f.code, total: f.total, truncated });
        break;
      }
      default:
        throw new Error(`${pipeline} is not a day pipeline`);
    }
  }
  return byJson(rows);
}

/**
 * What GET …/feedback/by-page lets a client know of a day, by the contract (at most 100 paths an
 * answer, no paging: a full answer is asked again per source, then per source and status, the
 * parts adding up per path; a part still full keeps its first 100 paths and the day is truncated):
 * the per-path sums of the parts, computed from the full unpaged truth of each part.
 */
export function byPageAsSplit(sb: Sandbox, projectId: string, from: number, to: number): { items: FeedbackByPageItem[]; truncated: boolean } {
  const LIMIT = 100;
  const parts: FeedbackByPageItem[][] = [];
  let truncated = false;
  const all = sb.aggregateTruth(projectId, 'feedback/by-page', from, to).feedback;
  if (all.length <= LIMIT) parts.push(all);
  else {
    for (const source of FEEDBACK_SOURCES) {
      const bySource = sb.aggregateTruth(projectId, 'feedback/by-page', from, to, { source }).feedback;
      if (bySource.length <= LIMIT) parts.push(bySource);
      else {
        for (const status of FEEDBACK_STATUSES) {
          const part = sb.aggregateTruth(projectId, 'feedback/by-page', from, to, { source, status: [status] }).feedback;
          if (part.length > LIMIT) truncated = true;
          parts.push(part.slice(0, LIMIT));
        }
      }
    }
  }
  const sum = new Map<string, FeedbackByPageItem>();
  for (const f of parts.flat()) {
    const s = sum.get(f.path) ?? { path: f.path, thumbsUp: 0, thumbsDown: 0, code: 0, total: 0 };
    sum.set(f.path, { path: f.path, thumbsUp: s.thumbsUp + f.thumbsUp, thumbsDown: s.thumbsDown + f.thumbsDown, code: s.code + f.code, total: s.total + f.total });
  }
  return { items: [...sum.values()], truncated };
}

const DAILY_SQL: Record<string, string> = {
  page_views: 'SELECT strftime(day, \'%Y-%m-%d\') AS day, path, human, ai, total FROM page_views_daily',
  page_visitors: 'SELECT strftime(day, \'%Y-%m-%d\') AS day, path, human, ai, total FROM page_visitors_daily',
  searches: `SELECT strftime(day, '%Y-%m-%d') AS day, search_query, hits, ctr, top_clicked_page, last_searched_at, rank
             FROM searches_daily`,
  assistant_callers: 'SELECT strftime(day, \'%Y-%m-%d\') AS day, web, api, other, total FROM assistant_callers_daily',
  feedback_by_page: `SELECT strftime(day, '%Y-%m-%d') AS day, path, thumbs_up, thumbs_down, code, total, truncated
                     FROM feedback_by_page_daily`,
};

/** A day pipeline's rows in the warehouse (every row, duplicates kept: a duplicate must fail the comparison). */
export async function warehouseDaily(warehouse: string, pipeline: PipelineName, projectId: string): Promise<Row[]> {
  const sql = DAILY_SQL[pipeline];
  if (!sql) throw new Error(`${pipeline} is not a day pipeline`);
  return byJson(await query(warehouse, `${sql} WHERE project_id = $p`, { p: projectId }));
}

export async function warehouseFeedback(warehouse: string, projectId: string): Promise<Row[]> {
  return byJson(await query(warehouse,
    `SELECT id, created_at, path, comment, source, status, helpful, contact, code, filename, lang FROM feedback WHERE project_id = $p`,
    { p: projectId }));
}

/**
 * The pipeline's table in the warehouse and in the truth, as comparable rows. `days`: the complete
 * days the day pipelines had to read. Feedback: every valid entry, undated ones included (the
 * caller makes sure a sweep ran); conversations: every valid turn.
 */
export async function actualAndExpected(
  sb: Sandbox, warehouse: string, pipeline: PipelineName, projectId: string, days: number[],
): Promise<{ actual: unknown[]; expected: unknown[] }> {
  switch (pipeline) {
    case 'assistant_conversations':
      return { actual: await warehouseRows(warehouse, projectId), expected: expectedRows(sb.truth(projectId)) };
    case 'feedback':
      return { actual: await warehouseFeedback(warehouse, projectId), expected: expectedFeedback(sb.feedbackTruth(projectId)) };
    default:
      return { actual: await warehouseDaily(warehouse, pipeline, projectId), expected: expectedDaily(sb, pipeline, projectId, days) };
  }
}

/**
 * A clock whose time stands still (the sandbox's data is a function of its clock, so the truth
 * cannot move while real processes read it) but whose sleeps are real (the sandbox's latency).
 */
export function frozenClock(ms: number): Clock {
  return { now: () => new Date(ms), sleep: (d) => new Promise((r) => setTimeout(r, Math.max(0, d))) };
}

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of the sandbox that changes analytics answers the way a test needs
 * (records the sandbox would not serve): `rewrite` gets the endpoint (the path after
 * /v1/analytics/{projectId}), the query parameters and the parsed body of each 200, and edits it
 * in place. Everything else passes through unchanged.
 */
export async function rewritingProxy(
  target: string, rewrite: (endpoint: string, params: URLSearchParams, body: Record<string, unknown>) => void,
): Promise<Proxy> {
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', target);
      const upstream = await fetch(url, { headers: { authorization: req.headers.authorization ?? '' } });
      let body = await upstream.text();
      if (upstream.status === 200 && url.pathname.startsWith('/v1/analytics/')) {
        const json = JSON.parse(body) as Record<string, unknown>;
        rewrite(url.pathname.replace(/^\/v1\/analytics\/[^/]+/, ''), url.searchParams, json);
        body = JSON.stringify(json);
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(body);
    })().catch((err: unknown) => res.writeHead(502).end(String(err)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
