// GET requests to the analytics endpoints (/v1/analytics/{projectId}/…): budgeted, bounded (a total
// deadline and a body cap per request), retried, and every failure named by what the runner does
// with it. Paging is the extractor's business; this returns one response's body as received (the
// key scrubbed if a server echoed it) and parsed. The key travels only in the Authorization header.
import { isUtf8 } from 'node:buffer';
import type { Dispatcher } from 'undici';
import { analyticsErrorSchema } from '../../contracts/analytics.js';
import type { Clock } from '../../core/clock.js';
import { ApiUnreachableError, ConnectionFailedError, CursorRejectedError, FatalError, messageOf, RequestDeadlineError, RetriableError, RetriesExhaustedError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { scrub } from '../../core/secrets.js';
import { serverText } from '../../core/server-text.js';
import { replaceLoneSurrogates } from '../../core/well-formed.js';
import { USER_AGENT } from '../../core/version.js';
import type { AnalyticsClient, FetchedJson } from '../pipeline/page-fetch.js';
import type { RequestBudget } from '../../budget/budget.js';
import { httpText, retryAfterMs, throwIfRetriable, type HttpResponse } from './http.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.js';

export const PAGE_LIMIT = 1000;

/** After this many 429s in a row for one request, it gives up (the stream fails; the next run continues). */
export const MAX_CONSECUTIVE_429 = 4;
/** The first wait after a 429 is at least this; each further 429 in a row doubles it. */
export const RATE_LIMIT_BACKOFF_MS = 2_000;

/** A 504 means "this window is too large" more often than "try again": give up early. */
const WINDOW_FAILURE_ATTEMPTS = 2;

export interface AnalyticsClientDeps {
  baseUrl: string;
  apiKey: string;
  /** Where the key came from (e.g. DOCS_API_KEY), for the 401 message. */
  keySource: string;
  budget: RequestBudget;
  clock: Clock;
  logger: Logger;
  retry?: RetryPolicy;
  /** Total deadline of one request (--request-timeout). */
  timeoutMs?: number;
  /** Cap on one page's body (DOCS_ETL_MAX_PAGE_BYTES). */
  maxBodyBytes?: number;
  /** What sets maxBodyBytes, named in the error of a page over it (default DOCS_ETL_MAX_PAGE_BYTES). */
  maxBodyName?: string;
  dispatcher?: Dispatcher;
  /** Hears every request's outcome: the HTTP status, or 'error' (no answer); for the request metrics (src/outputs/metrics). */
  onResponse?: (endpoint: string, code: string) => void;
}

export function createAnalyticsClient(deps: AnalyticsClientDeps): AnalyticsClient {
  const retry = deps.retry ?? DEFAULT_RETRY;
  const secrets = [deps.apiKey];
  return {
    async get(endpoint, projectId, params, o = {}) {
      const url = new URL(endpoint.replace('{projectId}', encodeURIComponent(projectId)), deps.baseUrl);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      const hadCursor = 'cursor' in params;
      let requests = 0;
      let gatewayTimeouts = 0;
      const send = async (): Promise<HttpResponse> => {
        const slot = await deps.budget.acquire(o.signal);
        requests++;
        o.onRequest?.();
        try {
          const res = await httpText(url.href, {
            headers: { authorization: `Bearer ${deps.apiKey}`, accept: 'application/json', 'user-agent': USER_AGENT },
            timeoutMs: deps.timeoutMs,
            maxBodyBytes: deps.maxBodyBytes,
            capName: deps.maxBodyName ?? 'DOCS_ETL_MAX_PAGE_BYTES',
            dispatcher: deps.dispatcher,
            skimRecords: o.skimRecords,
            // A stop request does not cancel at once: a request that left is paid for in budget,
            // so it may finish and land within a grace period; the deadline bounds it anyway.
            stopSignal: o.signal,
          });
          deps.onResponse?.(endpoint, String(res.status));
          return res;
        } catch (err) {
          deps.onResponse?.(endpoint, 'error');
          // No response at all within the deadline: for a window read, the sign of a window too
          // large for the API (the caller bisects). A body that started and then stalled is not
          // that: it stays fatal.
          if (err instanceof RequestDeadlineError && err.status === undefined) {
            throw new RetriesExhaustedError(`the API did not answer within the request deadline: ${err.message}`, undefined, true);
          }
          throw err;
        } finally {
          // A release that fails (Redis gone mid-request) must not replace the answer already paid
          // for, nor the request's own error: the slot expires by itself after the window.
          await slot.release().catch((err: unknown) => deps.logger.warn({ err: messageOf(err) }, 'could not release the request slot; it expires by itself'));
        }
      };
      const once = async (): Promise<FetchedJson> => {
        let limited = 0;
        for (;;) {
          const res = await send();
          if (res.status === 429) {
            // Not a failure: the server's window is full. Everyone of this organization waits
            // (the budget clamps the wait to its window; acquire stops the run cleanly if that
            // is longer than --max-wait). The waits grow exponentially with each 429 in a row
            // (whatever Retry-After says), and after MAX_CONSECUTIVE_429 the request gives up: a
            // server that keeps refusing is not hammered, and this stream's failure is reported.
            if (++limited >= MAX_CONSECUTIVE_429) {
              throw new FatalError(`the API answered 429 (rate limited) ${limited} times in a row: this stream stopped at its checkpoint; the next run continues`, 429);
            }
            const wait = Math.max(retryAfterMs(res.headers, deps.clock.now()) ?? 60_000, RATE_LIMIT_BACKOFF_MS * 2 ** (limited - 1));
            deps.logger.warn({ projectId, waitMs: wait, consecutive: limited }, 'rate limited (429), waiting for the window');
            await deps.budget.block(deps.clock.now().getTime() + wait);
            continue;
          }
          if (res.status === 504 && ++gatewayTimeouts >= WINDOW_FAILURE_ATTEMPTS) {
            throw new RetriesExhaustedError(`the API timed out (504) ${gatewayTimeouts} times: ${serverText(res.text, secrets, 120)}`, 504, true);
          }
          return parse(res);
        }
      };
      const parse = (res: HttpResponse): FetchedJson => {
        throwIfRetriable(res, deps.clock.now(), secrets);
        if (res.status !== 200) throw statusError(res, projectId, deps.keySource, hadCursor, deps.apiKey);
        const body = landableBody(res, deps.apiKey, deps.logger, projectId);
        let json: unknown;
        try {
          // The page's text lives only for this call (see HttpResponse.text).
          json = JSON.parse(body.toString('utf8')) as unknown;
        } catch {
          throw new RetriableError(`unreadable response body (${body.length} bytes, truncated or not JSON)`, 200);
        }
        o.check?.(json, body);
        return { json, body, requests };
      };
      return withRetries(once, {
        policy: retry,
        clock: deps.clock,
        signal: o.signal,
        onRetry: (err, delayMs, attempt) =>
          deps.logger.warn({ projectId, attempt, delayMs, reason: err.message }, 'request failed, retrying'),
      }).catch((err: unknown) => {
        if (err instanceof ConnectionFailedError) {
          throw new ApiUnreachableError(`the API could not be reached after ${retry.attempts} attempts: ${err.message}`);
        }
        if (err instanceof RetriableError) {
          throw new RetriesExhaustedError(`the API kept failing after ${retry.attempts} attempts: ${err.message}`, err.status, false);
        }
        throw err;
      });
    },
  };
}

/**
 * The body to parse and land. Usually the bytes as received: well-formed UTF-8 with neither the key
 * nor a surrogate escape in it. Otherwise the text, repaired: a server that echoes the key into the
 * data must not get it stored (landing, warehouse, lake); lone surrogates (text cut inside an
 * emoji) become U+FFFD, as do bytes that are not UTF-8 (DuckDB refuses a file holding either).
 */
function landableBody(res: HttpResponse, apiKey: string, logger: Logger, projectId: string): Buffer {
  const b = res.bytes;
  if (isUtf8(b) && !b.includes(apiKey) && !b.includes('\\ud') && !b.includes('\\uD')) return b;
  const scrubbed = res.text.includes(apiKey) ? scrub(res.text, [apiKey]) : res.text;
  if (scrubbed !== res.text) logger.warn({ projectId }, 'the response contained the API key: replaced by [redacted] before storing');
  const { text, replaced } = replaceLoneSurrogates(scrubbed);
  if (replaced) logger.warn({ projectId, count: replaced }, 'the response held lone UTF-16 surrogates: replaced by U+FFFD before storing');
  return Buffer.from(text, 'utf8');
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
