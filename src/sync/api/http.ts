// One HTTP exchange over undici, bounded and classified. Bounded: a total deadline covers connect,
// headers and the whole body (a trickling body ends at it), and the body is streamed and counted
// against a byte cap. Classified: network failures, 5xx and cut-off bodies are retriable; a missed
// deadline or an oversized body is fatal (retrying would meet the same server); other statuses
// are returned for the caller to name. Server text in errors is sanitized (serverText).
import { request, type Dispatcher } from 'undici';
import { formatDuration } from '../../core/duration.js';
import { ConnectionFailedError, RequestDeadlineError, ResponseTooLargeError, RetriableError, StoppedError, messageOf } from '../../core/errors.js';
import { scrub } from '../../core/secrets.js';
import { serverText } from '../../core/server-text.js';
import { RecordTooLargeError } from '../pipeline/page-fetch.js';
import { JsonSkimmer, MAX_SKIM_BYTES } from './json-skim.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS, MIN_RETRY_AFTER_MS } from '../../contracts/api-defaults.js';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes as received (outside V8's heap). */
  bytes: Buffer;
  /**
   * The body decoded as UTF-8, on first use (then kept). A page read for landing never asks: a
   * string of megabytes kept across an await is promoted to V8's old generation, which only a full
   * collection frees (docs/performance.md, eighth round).
   */
  readonly text: string;
}

/** A response whose text is decoded from its bytes on first use. */
export function httpResponse(status: number, headers: HttpResponse['headers'], bytes: Buffer): HttpResponse {
  let text: string | undefined;
  return { status, headers, bytes, get text() { return (text ??= bytes.toString('utf8')); } };
}

/** Node's timers hold at most 2^31-1 ms (~24.8 days); a longer delay fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** After a stop request, a request in flight may still finish (it is paid for), within this. */
export const STOP_GRACE_MS = 10_000;

export interface HttpOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Total deadline (connect, headers, whole body), wall clock; default 60 s. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  /** Cancels the request at once: StoppedError. */
  signal?: AbortSignal;
  /** A stop request: the request in flight may finish, but within `stopGraceMs` (default 10 s). */
  stopSignal?: AbortSignal;
  stopGraceMs?: number;
  /** Body cap in bytes (default 64 MiB), and what it is called in the error (a flag or variable). */
  maxBodyBytes?: number;
  capName?: string;
  /**
   * A page of one record (limit=1): a 200 body over the cap is skimmed to its end instead
   * (json-skim.ts) and RecordTooLargeError names its size, envelope and head. The records field.
   */
  skimRecords?: string;
}

type Ended = 'deadline' | 'cancelled' | 'grace';

export async function httpText(url: string, opts: HttpOptions = {}): Promise<HttpResponse> {
  const deadlineMs = clampTimer(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const graceMs = clampTimer(opts.stopGraceMs ?? STOP_GRACE_MS);
  const cap = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const secrets = bearerSecrets(opts.headers);
  const ac = new AbortController();
  let ended: Ended | null = null;
  const end = (why: Ended) => {
    if (ended) return;
    ended = why;
    ac.abort();
  };
  const timers = [setTimeout(() => end('deadline'), deadlineMs)];
  const onCancel = () => end('cancelled');
  const onStop = () => void timers.push(setTimeout(() => end('grace'), graceMs));
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  opts.stopSignal?.addEventListener('abort', onStop, { once: true });
  if (opts.signal?.aborted) onCancel();
  if (opts.stopSignal?.aborted) onStop();

  const failed = (err: unknown, what: string, status?: number): Error => {
    if (err instanceof ResponseTooLargeError) return err;
    // After a stop request, a request ended by its deadline is a stop too: the run was asked to end.
    if (ended === 'deadline' && opts.stopSignal?.aborted) {
      return new StoppedError(`stopped: the request in flight did not finish within its deadline of ${formatDuration(deadlineMs)}`);
    }
    if (ended === 'deadline') {
      return new RequestDeadlineError(`no complete response within the request deadline of ${formatDuration(deadlineMs)} (connect, headers and body)`, status);
    }
    if (ended === 'cancelled') return new StoppedError('stopped on request: the request in flight was cancelled');
    if (ended === 'grace') return new StoppedError(`stopped on request: the request in flight did not finish within ${formatDuration(graceMs)} of the stop request`);
    const text = `${what}: ${serverText(networkReason(err), secrets)}`;
    return status === undefined && isConnectionFailure(err) ? new ConnectionFailedError(text) : new RetriableError(text, status);
  };
  try {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        body: opts.body,
        headersTimeout: deadlineMs,
        bodyTimeout: deadlineMs,
        dispatcher: opts.dispatcher,
        signal: ac.signal,
      });
    } catch (err) {
      throw failed(err, 'network error');
    }
    try {
      return httpResponse(res.statusCode, res.headers, await readCapped(res, cap, opts.capName, opts.skimRecords, secrets));
    } catch (err) {
      throw failed(err, 'response body cut off', res.statusCode);
    }
  } finally {
    for (const t of timers) clearTimeout(t);
    opts.signal?.removeEventListener('abort', onCancel);
    opts.stopSignal?.removeEventListener('abort', onStop);
  }
}

/** Streams the body, counting bytes; past `cap` it stops reading and throws. */
async function readCapped(res: Dispatcher.ResponseData, cap: number, capName?: string, skimRecords?: string, secrets: string[] = []): Promise<Buffer> {
  const capText = `the ${formatBytes(cap)} cap${capName ? ` (${capName})` : ''}`;
  const tooLarge = (seen: string) => new ResponseTooLargeError(`the response body is larger than ${capText} (${seen}); not retried`, res.statusCode);
  // Skimmed (not kept) past the cap: a 200 page of one record, up to MAX_SKIM_BYTES.
  const skimUpTo = skimRecords !== undefined && res.statusCode === 200 ? Math.max(cap, MAX_SKIM_BYTES) : cap;
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > skimUpTo) {
    res.body.destroy();
    throw tooLarge(`announced ${formatBytes(declared)}`);
  }
  let chunks: Buffer[] = [];
  let size = 0;
  let skim: JsonSkimmer | null = null;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > skimUpTo) {
      res.body.destroy();
      throw tooLarge(`more than ${formatBytes(skim ? skimUpTo : cap)} received`);
    }
    if (size > cap && !skim) {
      skim = new JsonSkimmer(skimRecords!);
      for (const c of chunks) skim.feed(c);
      chunks = [];
    }
    if (skim) {
      skim.feed(chunk);
      if (skim.holdsMoreThanOne()) {
        res.body.destroy();
        throw tooLarge(`more than ${formatBytes(cap)} received, and a page of one record holds more than one`);
      }
    } else chunks.push(chunk);
  }
  if (skim) {
    const skimmed = skim.result();
    skimmed.head = scrub(skimmed.head, secrets);
    throw new RecordTooLargeError(`a record larger than ${capText}: its page of one record is ${formatBytes(size)}`, res.statusCode, skimmed);
  }
  return Buffer.concat(chunks, size);
}

export function clampTimer(ms: number): number {
  return Number.isFinite(ms) ? Math.min(MAX_TIMER_MS, Math.max(1, Math.round(ms))) : MAX_TIMER_MS;
}

/** `Bearer <key>` in the request's headers: scrubbed from every error text about it. */
function bearerSecrets(headers: Record<string, string> | undefined): string[] {
  const auth = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const key = auth?.replace(/^bearer\s+/i, '');
  return key ? [key] : [];
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1 && v % 1024 === 0) {
    v /= 1024;
    u++;
  }
  return `${v} ${units[u]}`;
}

/** The cause's code (ECONNRESET, UND_ERR_SOCKET…) is what tells a user what happened. */
/**
 * No connection was made (nothing was sent): refused, unknown host, no route. A reset or a socket
 * closed after connecting is not this: a server may drop a request that is too large for it.
 */
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export function isConnectionFailure(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return CONNECTION_FAILURES.has(e.code ?? e.cause?.code ?? '');
}

export function networkReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  return code ? `${code} (${messageOf(err)})` : messageOf(err);
}

/** Retry-After as seconds or an HTTP date, unclamped (see clampWait); undefined when absent or unreadable. */
export function retryAfterMs(headers: HttpResponse['headers'], now: Date): number | undefined {
  const raw = headers['retry-after'];
  return parseRetryAfter(Array.isArray(raw) ? raw[0] : raw, now);
}

export function parseRetryAfter(v: string | undefined, now: Date): number | undefined {
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** A server-given wait within [minMs, maxMs]; absurd, infinite or unreadable values are clamped. */
export function clampWait(ms: number | undefined, minMs: number, maxMs: number): number {
  if (ms === undefined || Number.isNaN(ms)) return minMs;
  return Math.min(maxMs, Math.max(minMs, ms));
}

/** Classify the statuses every endpoint treats alike; returns the response otherwise. */
export function throwIfRetriable(res: HttpResponse, now: Date, secrets: readonly string[] = []): HttpResponse {
  if (res.status === 429) {
    const wait = retryAfterMs(res.headers, now);
    throw new RetriableError('rate limited (429)', 429, wait === undefined ? undefined : clampWait(wait, MIN_RETRY_AFTER_MS, 3_600_000));
  }
  if (res.status >= 500) {
    throw new RetriableError(`server error (${res.status}): ${serverText(res.text, secrets, 120)}`, res.status);
  }
  return res;
}
