// Paged analytics endpoints (GET /v1/analytics/{projectId}/assistant): budgeted, retried, and every failure named by what the
// runner does with it. The key travels only in the Authorization header.
import type { Dispatcher } from 'undici';
import { analyticsErrorSchema, conversationsPageSchema, type ConversationsPage } from '../contracts/analytics.js';
import type { Clock } from '../core/clock.js';
import { CursorRejectedError, FatalError, RetriableError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { scrub } from '../core/secrets.js';
import { serverText } from '../core/server-text.js';
import type { RequestBudget } from './budget.js';
import { httpText, retryAfterMs, throwIfRetriable, type HttpResponse } from './http.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.js';

export const DEFAULT_BASE_URL = 'https://api.mintlify.com';
export const PAGE_LIMIT = 1000;

export interface AnalyticsClientDeps {
  baseUrl: string;
  apiKey: string;
  /** Where the key came from, for the 401 message (e.g. DOCS_API_KEY). */
  keySource: string;
  budget: RequestBudget;
  clock: Clock;
  logger: Logger;
  retry?: RetryPolicy;
  /** Total deadline of one request (--request-timeout). */
  timeoutMs?: number;
  /** Cap on one page's body (DOCS_ETL_MAX_PAGE_BYTES). */
  maxBodyBytes?: number;
  dispatcher?: Dispatcher;
}

export interface PageQuery {
  dateFrom?: Date;
  dateTo?: Date;
  cursor?: string | null;
  limit?: number;
}

export interface FetchedPage {
  page: ConversationsPage;
  /** The body as received, for loaders that let DuckDB parse it. */
  body: string;
  /** Requests this page cost (retries and 429s included). */
  requests: number;
}

export interface AnalyticsClient {
  /** One page of a list endpoint such as `/v1/analytics/{projectId}/assistant`. */
  fetchPage(endpoint: string, projectId: string, q: PageQuery, signal?: AbortSignal): Promise<FetchedPage>;
}

export function createAnalyticsClient(deps: AnalyticsClientDeps): AnalyticsClient {
  const retry = deps.retry ?? DEFAULT_RETRY;
  return {
    async fetchPage(endpoint, projectId, q, signal) {
      const url = new URL(endpoint.replace('{projectId}', encodeURIComponent(projectId)), deps.baseUrl);
      url.searchParams.set('limit', String(q.limit ?? PAGE_LIMIT));
      if (q.dateFrom) url.searchParams.set('dateFrom', q.dateFrom.toISOString());
      if (q.dateTo) url.searchParams.set('dateTo', q.dateTo.toISOString());
      if (q.cursor) url.searchParams.set('cursor', q.cursor);
      let requests = 0;
      const once = async (): Promise<FetchedPage> => {
        for (;;) {
          const res = await send();
          if (res.status === 429) {
            // Not a failure: the server's window is full. Everyone of this organization waits
            // (budget.acquire stops the run cleanly if that wait is longer than --max-wait).
            const wait = retryAfterMs(res.headers, deps.clock.now()) ?? 60_000;
            deps.logger.warn({ projectId, waitMs: wait }, 'rate limited (429), waiting for the window');
            await deps.budget.block(deps.clock.now().getTime() + wait);
            continue;
          }
          return parse(res);
        }
      };
      const send = async (): Promise<HttpResponse> => {
        const slot = await deps.budget.acquire(signal);
        requests++;
        let res: HttpResponse;
        try {
          res = await httpText(url.href, {
            headers: { authorization: `Bearer ${deps.apiKey}`, accept: 'application/json' },
            timeoutMs: deps.timeoutMs,
            maxBodyBytes: deps.maxBodyBytes,
            capName: 'DOCS_ETL_MAX_PAGE_BYTES',
            dispatcher: deps.dispatcher,
            // A stop request does not cancel at once: a request that left is paid for in budget,
            // so it may finish and commit within a grace period; the deadline bounds it anyway.
            stopSignal: signal,
          });
        } finally {
          await slot.release();
        }
        return res;
      };
      const parse = (res: HttpResponse): FetchedPage => {
        throwIfRetriable(res, deps.clock.now(), [deps.apiKey]);
        if (res.status !== 200) throw statusError(res, projectId, deps.keySource, Boolean(q.cursor), deps.apiKey);
        // A server that echoes the key into the data must not get it stored (landing, warehouse, lake).
        const body = res.text.includes(deps.apiKey) ? scrub(res.text, [deps.apiKey]) : res.text;
        if (body !== res.text) deps.logger.warn({ projectId }, 'the response contained the API key: replaced by [redacted] before storing');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          throw new RetriableError(`unreadable response body (${body.length} bytes, truncated or not JSON)`, 200);
        }
        const parsed = conversationsPageSchema.safeParse(json);
        if (!parsed.success) {
          const why = serverText(parsed.error.issues[0]?.message ?? 'invalid', [deps.apiKey]);
          throw new RetriableError(`response does not match the list contract: ${why}`, 200);
        }
        return { page: parsed.data, body, requests };
      };
      return withRetries(once, {
        policy: retry,
        clock: deps.clock,
        signal,
        onRetry: (err, delayMs, attempt) =>
          deps.logger.warn({ projectId, attempt, delayMs, reason: err.message }, 'request failed, retrying'),
      }).catch((err: unknown) => {
        if (err instanceof RetriableError) {
          throw new FatalError(`the API kept failing after ${retry.attempts} attempts: ${err.message}`, err.status);
        }
        throw err;
      });
    },
  };
}

function statusError(res: HttpResponse, projectId: string, keySource: string, hadCursor: boolean, apiKey: string): Error {
  const body = analyticsErrorSchema.safeParse(safeJson(res.text));
  // Server text: the key scrubbed, escape sequences stripped, one line, bounded.
  const apiMsg = serverText(body.success ? body.data.error : res.text, [apiKey], 200) || '(empty body)';
  const details = body.success && body.data.details?.length
    ? `: ${serverText(body.data.details.slice(0, 5).map((d) => d.message).join('; '), [apiKey])}` : '';
  switch (res.status) {
    case 400:
      if (hadCursor) return new CursorRejectedError(`the API rejected the stored cursor (400): ${apiMsg}${details}`);
      return new FatalError(`the API rejected the request (400): ${apiMsg}${details}`, 400);
    case 401:
      return new FatalError(`the API key was rejected (401): check ${keySource}`, 401);
    case 403:
      return new FatalError(
        `access denied (403): ${apiMsg}; the key may lack the read scope or this host may be outside the organization's IP allowlist`,
        403,
      );
    case 404:
      return new FatalError(`project "${projectId}" was not found (404): check the project id`, 404);
    default:
      return new FatalError(`unexpected response ${res.status}: ${apiMsg}`, res.status);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
