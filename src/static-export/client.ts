// The Static Export API over undici: three calls, responses validated with the contract's zod
// schemas, statuses classified (401/403/404/400 fatal, 409 "not ready", 429/5xx/network retried).
// The key is sent only in the Authorization header and never appears in an error message.
import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { FatalError, RetriableError, StoppedError, messageOf } from '../core/errors.js';
import { scrub } from '../core/secrets.js';
import {
  bundleResponseSchema, staticExportErrorSchema, staticExportJobSchema,
  type BundleResponse, type StartJobRequest, type StaticExportJob,
} from '../contracts/static-export.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from '../api/retry.js';

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
  timeoutMs?: number;
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
  const timeoutMs = opts.timeoutMs ?? 60_000;

  async function exchange(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Exchange> {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Dispatcher.ResponseData;
    try {
      res = await request(`${base}${path}`, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: timeoutMs, bodyTimeout: timeoutMs, dispatcher: opts.dispatcher, signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw new StoppedError('stopped');
      throw new RetriableError(`network error calling ${method} ${path}: ${scrub(networkReason(err), secrets)}`);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new RetriableError(`response to ${method} ${path} was cut off: ${scrub(networkReason(err), secrets)}`, res.statusCode);
    }
    const ra = res.headers['retry-after'];
    return { status: res.statusCode, text, retryAfter: Array.isArray(ra) ? ra[0] : ra };
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
      onRetry: (err, delayMs, attempt) =>
        opts.logger.warn({ err: err.message, delayMs, attempt, path, ...(retryNote ? { note: retryNote } : {}) }, 'static export API call failed, retrying'),
    });
  }

  return {
    startJob: (body) => call('POST', '/v1/static-export/jobs', body, (x) => {
      if (x.status === 200 || x.status === 202) return parse(staticExportJobSchema, x, 'start job');
      if (x.status === 400) throw new FatalError(`the API rejected the export request (400): ${apiMessage(x, secrets)}`, 400);
      return undefined;
    }, 'if the failed attempt reached the API, it may have started a job that will finish unused'),
    getJob: (jobId) => call('GET', `/v1/static-export/jobs/${encodeURIComponent(jobId)}`, undefined, (x) => {
      if (x.status === 200) return parse(staticExportJobSchema, x, 'job status');
      if (x.status === 404) throw unknownJob(jobId);
      return undefined;
    }),
    requestBundle: (jobId) => call('POST', `/v1/static-export/jobs/${encodeURIComponent(jobId)}/bundle`, undefined, (x) => {
      if (x.status === 200) return parse(bundleResponseSchema, x, 'bundle');
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

function unknownJob(jobId: string): FatalError {
  return new FatalError(`unknown job id ${jobId} (404): no static export job with this id exists for this organization`, 404);
}

/** Statuses every endpoint treats alike. */
function commonError(x: Exchange, what: string, now: Date, secrets: string[]): Error {
  if (x.status === 401) return new FatalError(MSG.unauthorized, 401);
  if (x.status === 403) return new FatalError(MSG.notEnterprise, 403);
  if (x.status === 429) return new RetriableError(`rate limited (429) on ${what}`, 429, retryAfterMs(x.retryAfter, now));
  if (x.status >= 500) return new RetriableError(`server error (${x.status}) on ${what}: ${apiMessage(x, secrets)}`, x.status);
  return new FatalError(`unexpected response ${x.status} on ${what}: ${apiMessage(x, secrets)}`, x.status);
}

function parse<S extends z.ZodType>(schema: S, x: Exchange, what: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(x.text);
  } catch {
    throw new RetriableError(`the ${what} response is not JSON (cut off?)`, x.status);
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const why = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
    throw new FatalError(`the ${what} response does not match the API contract: ${why}`);
  }
  return r.data;
}

/** The API's `{error}` text, shortened; or the start of the body. */
function apiMessage(x: Exchange, secrets: string[]): string {
  let text = x.text.slice(0, 200).replace(/\s+/g, ' ').trim();
  try {
    const e = staticExportErrorSchema.safeParse(JSON.parse(x.text));
    if (e.success && e.data.error) text = e.data.error.slice(0, 300);
  } catch {
    // not JSON: keep the raw start of the body
  }
  return scrub(text || '(empty body)', secrets);
}

function retryAfterMs(v: string | undefined, now: Date): number | undefined {
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

export function networkReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  return code ? `${code} (${messageOf(err)})` : messageOf(err);
}
