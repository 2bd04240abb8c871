// One HTTP exchange over undici, classified: network failures, timeouts, 5xx and unreadable
// bodies are retriable; other statuses are returned for the caller to name.
import { request, type Dispatcher } from 'undici';
import { RetriableError, TimeoutError, messageOf } from '../core/errors.js';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface HttpOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
}

export async function httpText(url: string, opts: HttpOptions = {}): Promise<HttpResponse> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: opts.dispatcher,
      signal: opts.signal,
    });
  } catch (err) {
    if (isTimeout(err)) throw new TimeoutError(`no response within ${timeoutMs} ms: ${networkReason(err)}`);
    throw new RetriableError(`network error: ${networkReason(err)}`);
  }
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    if (isTimeout(err)) throw new TimeoutError(`response body not complete within ${timeoutMs} ms: ${networkReason(err)}`, res.statusCode);
    throw new RetriableError(`response body cut off: ${networkReason(err)}`, res.statusCode);
  }
  return { status: res.statusCode, headers: res.headers, text };
}

function isTimeout(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return /TIMEOUT|ETIMEDOUT/.test(`${e.code ?? ''} ${e.cause?.code ?? ''}`);
}

/** The cause's code (ECONNRESET, UND_ERR_SOCKET…) is what tells a user what happened. */
function networkReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  return code ? `${code} (${messageOf(err)})` : messageOf(err);
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: HttpResponse['headers'], now: Date): number | undefined {
  const raw = headers['retry-after'];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** Classify the statuses every endpoint treats alike; returns the response otherwise. */
export function throwIfRetriable(res: HttpResponse, now: Date): HttpResponse {
  if (res.status === 429) {
    throw new RetriableError('rate limited (429)', 429, retryAfterMs(res.headers, now));
  }
  if (res.status >= 500) {
    throw new RetriableError(`server error (${res.status}): ${res.text.slice(0, 120).replace(/\s+/g, ' ')}`, res.status);
  }
  return res;
}
