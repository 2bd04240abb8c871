// The Static Export API over undici: three calls, responses validated with the contract's zod
// schemas, statuses classified (401/403/404/400 fatal, 409 "not ready", 429/5xx/network retried).
// The key is sent only in the Authorization header and never appears in an error message.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { FatalError, RequestDeadlineError, ResponseTooLargeError, RetriableError } from '../core/errors.js';
import { serverText } from '../core/server-text.js';
import {
  bundleResponseSchema, staticExportErrorSchema, staticExportJobSchema,
  type BundleResponse, type StartJobRequest, type StaticExportJob,
} from '../contracts/static-export.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from '../sync/api/retry.js';
import { clampWait, httpText, parseRetryAfter } from '../sync/api/http.js';
import { MIN_RETRY_AFTER_MS } from '../contracts/api-defaults.js';

/** Job and bundle responses are small JSON objects; anything near this is not one. */
export const MAX_API_BODY_BYTES = 1024 * 1024;
/** The longest Retry-After honored (the run's --timeout usually ends a wait sooner). */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export interface ApiClientOptions {
  /** e.g. https://api.mintlify.com; the client appends /v1/static-export/... */
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  random?: () => number;
  dispatcher?: Dispatcher;
  /** Total deadline of one request (--request-timeout). */
  timeoutMs?: number;
  /** Time left for the run (--timeout): a retry that would wait past it gives up at once. */
  remainingMs?: () => number;
}

/** 409 from the bundle endpoint: the job has not finished (or failed); the API's message. */
export interface BundleNotReady {
  notReady: true;
  message: string;
}

export function isNotReady(r: BundleResponse | BundleNotReady): r is BundleNotReady {
  return (r as BundleNotReady).notReady === true;
}

export interface StaticExportApi {
  startJob(body: StartJobRequest): Promise<StaticExportJob>;
  getJob(jobId: string): Promise<StaticExportJob>;
  requestBundle(jobId: string): Promise<BundleResponse | BundleNotReady>;
}

interface Exchange {
  status: number;
  text: string;
  retryAfter?: string;
}

export const MSG = {
  unauthorized: 'the API key was rejected (401): check DOCS_API_KEY',
  notEnterprise: 'static export is not enabled for this organization (403): it requires an Enterprise plan; contact sales to enable it',
} as const;

export function createStaticExportApi(opts: ApiClientOptions): StaticExportApi {
  const base = normalizeBaseUrl(opts.baseUrl);
  const secrets = [opts.apiKey];

  /** One request: bounded by the deadline and the body cap; a stop cancels it at once. */
  async function exchange(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Exchange> {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await httpText(`${base}${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: opts.timeoutMs, maxBodyBytes: MAX_API_BODY_BYTES, dispatcher: opts.dispatcher, signal: opts.signal,
    }).catch((err: unknown) => {
      throw named(err, `${method} ${path}`);
    });
    const ra = res.headers['retry-after'];
    return { status: res.status, text: res.text, retryAfter: Array.isArray(ra) ? ra[0] : ra };
  }

  /**
   * One call with retries; `classify` names the endpoint-specific statuses. `retryNote` says what a
   * retry may cost (a start is not idempotent and the API has no idempotency key).
   */
  async function call<T>(
    method: 'GET' | 'POST', path: string, body: unknown, classify: (x: Exchange) => T | undefined, retryNote?: string,
  ): Promise<T> {
    return withRetries(async () => {
      const x = await exchange(method, path, body);
      const special = classify(x);
      if (special !== undefined) return special;
      throw commonError(x, `${method} ${path}`, opts.clock.now(), secrets);
    }, {
      policy: opts.retry ?? DEFAULT_RETRY, clock: opts.clock, signal: opts.signal, random: opts.random,
      maxDelayMs: MAX_RETRY_AFTER_MS, remainingMs: opts.remainingMs,
      onRetry: (err, delayMs, attempt) =>
        opts.logger.warn({ err: err.message, delayMs, attempt, path, ...(retryNote ? { note: retryNote } : {}) }, 'static export API call failed, retrying'),
    });
  }

  return {
    startJob: (body) => call('POST', '/v1/static-export/jobs', body, (x) => {
      if (x.status === 200 || x.status === 202) return cleanJob(parse(staticExportJobSchema, x, 'start job', secrets), secrets);
      if (x.status === 400) throw new FatalError(`the API rejected the export request (400): ${apiMessage(x, secrets)}`, 400);
      return undefined;
    }, 'if the failed attempt reached the API, it may have started a job that will finish unused'),
    getJob: (jobId) => call('GET', `/v1/static-export/jobs/${encodeURIComponent(jobId)}`, undefined, (x) => {
      if (x.status === 200) return sameJob(jobId, cleanJob(parse(staticExportJobSchema, x, 'job status', secrets), secrets), 'job status');
      if (x.status === 404) throw unknownJob(jobId);
      return undefined;
    }),
    requestBundle: (jobId) => call('POST', `/v1/static-export/jobs/${encodeURIComponent(jobId)}/bundle`, undefined, (x) => {
      if (x.status === 200) return sameJob(jobId, parse(bundleResponseSchema, x, 'bundle', secrets), 'bundle');
      if (x.status === 404) throw unknownJob(jobId);
      if (x.status === 409) return { notReady: true as const, message: apiMessage(x, secrets) };
      return undefined;
    }),
  };
}

/** Accepts the base with or without a trailing slash or `/v1` (the OpenAPI server URL includes it). */
export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A job's `error` is server text that is printed and stored: sanitized on the way in. */
function cleanJob(job: StaticExportJob, secrets: readonly string[]): StaticExportJob {
  return typeof job.error === 'string' ? { ...job, error: serverText(job.error, secrets, 1000) } : job;
}

/** Failures name the call they happened in. */
function named(err: unknown, call: string): unknown {
  if (err instanceof RetriableError) return new RetriableError(`${call}: ${err.message}`, err.status, err.retryAfterMs);
  if (err instanceof RequestDeadlineError) return new RequestDeadlineError(`${call}: ${err.message}`, err.status);
  if (err instanceof ResponseTooLargeError) return new ResponseTooLargeError(`${call}: ${err.message}`, err.status);
  return err;
}

/**
 * A response about another job than the one asked for is refused: its id would name a directory
 * (a resumed `--job` answered with `../../..` must not write outside --out).
 */
function sameJob<T extends { jobId: string }>(asked: string, r: T, what: string): T {
  if (r.jobId !== asked) {
    throw new FatalError(`the ${what} response is about job ${JSON.stringify(serverText(r.jobId, [], 60))}, not the job asked for (${asked}); refused`);
  }
  return r;
}

function unknownJob(jobId: string): FatalError {
  return new FatalError(`unknown job id ${jobId} (404): no static export job with this id exists for this organization`, 404);
}

/** Statuses every endpoint treats alike. */
function commonError(x: Exchange, what: string, now: Date, secrets: string[]): Error {
  if (x.status === 401) return new FatalError(MSG.unauthorized, 401);
  if (x.status === 403) return new FatalError(MSG.notEnterprise, 403);
  if (x.status === 429) {
    // At least a second (Retry-After: 0 must not hammer), at most an hour (a timer cannot hold years).
    return new RetriableError(`rate limited (429) on ${what}`, 429, clampWait(parseRetryAfter(x.retryAfter, now), MIN_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS));
  }
  if (x.status >= 500) return new RetriableError(`server error (${x.status}) on ${what}: ${apiMessage(x, secrets)}`, x.status);
  return new FatalError(`unexpected response ${x.status} on ${what}: ${apiMessage(x, secrets)}`, x.status);
}

function parse<S extends z.ZodType>(schema: S, x: Exchange, what: string, secrets: readonly string[]): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(x.text);
  } catch {
    throw new RetriableError(`the ${what} response is not JSON (cut off?)`, x.status);
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const why = serverText(r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), secrets);
    throw new FatalError(`the ${what} response does not match the API contract: ${why}`);
  }
  return r.data;
}

/** The API's `{error}` text, or the start of the body: sanitized (no key, no escapes, one line). */
function apiMessage(x: Exchange, secrets: string[]): string {
  let text = x.text.slice(0, 4000);
  try {
    const e = staticExportErrorSchema.safeParse(JSON.parse(x.text));
    if (e.success && e.data.error) text = e.data.error;
  } catch {
    // not JSON: keep the raw start of the body
  }
  return serverText(text, secrets) || '(empty body)';
}
