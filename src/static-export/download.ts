// Downloads the bundle from its presigned link to a temporary file in the target directory and
// moves it into place only once verified: size equals `sizeBytes` and the archive reads completely.
// The link is short-lived: an expired one (by `expiresAt`, or a 403 from storage) is replaced by a
// fresh one from the API. Damaged downloads are deleted and retried, a bounded number of times.
// No Authorization header is ever sent to storage (S3 rejects two auth mechanisms, and the API key
// must not leave for another host).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request, type Dispatcher } from 'undici';
import { commitFile } from '../core/atomic-file.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { FatalError, RequestDeadlineError, StoppedError, messageOf } from '../core/errors.js';
import { redactUrl } from '../core/secrets.js';
import { serverText } from '../core/server-text.js';
import { formatDuration } from '../core/duration.js';
import type { BundleResponse } from '../contracts/static-export.js';
import { readArchive, DamagedArchiveError, type ArchiveContents, type ArchiveLimits } from './archive.js';
import { backoffMs, sleepOrStop, type RetryPolicy } from '../sync/api/retry.js';
import { clampTimer, formatBytes, networkReason } from '../sync/api/http.js';
import { DEFAULT_TIMEOUT_MS } from '../contracts/api-defaults.js';
import { MAX_BUNDLE_BYTES, checkBundleLink } from './bundle-url.js';
import { partName } from './stale-parts.js';

export const BUNDLE_FILE = 'bundle.tar.gz';

export interface DownloadOptions {
  jobId: string;
  /** Directory the bundle is stored in (created if needed): OUT/<domain>/<jobId>. */
  dir: string;
  /** The link to try first; null to ask for one. */
  link: BundleResponse | null;
  /** Asks the API for a fresh link (each call gives a new one for the same files). */
  freshLink(): Promise<BundleResponse>;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  /** Download attempts in all (damaged, cut off or refused); default 5. */
  attempts?: number;
  /** Backoff between damaged/failed attempts. */
  retry: RetryPolicy;
  random?: () => number;
  /** A link this close to `expiresAt` is treated as expired; default 5s. */
  expiryMarginMs?: number;
  dispatcher?: Dispatcher;
  /** --request-timeout: the longest stall, and the base of the download's total deadline. */
  timeoutMs?: number;
  /** Largest sizeBytes accepted (default 5 GiB). */
  maxBundleBytes?: number;
  /** Caps of the archive check (default: defaultArchiveLimits of the download's size). */
  archiveLimits?: ArchiveLimits;
  /** Free bytes where the bundle goes (default: fs.statfs). */
  freeBytes?: (dir: string) => Promise<number>;
}

/** A download must average at least this: its deadline is --request-timeout plus sizeBytes at this rate. */
export const MIN_DOWNLOAD_BYTES_PER_S = 64 * 1024;
/** Free space kept beyond the bundle itself. */
const FREE_SPACE_MARGIN = 64 * 1024 * 1024;

export interface DownloadedBundle {
  path: string;
  sizeBytes: number;
  sha256: string;
  contents: ArchiveContents;
  /** The link the verified bundle came from. */
  link: BundleResponse;
}

/** Storage refused the link (403: expired or bad signature): get a fresh one, no backoff. */
class LinkRefusedError extends Error {}
/** The bytes did not arrive intact, or storage failed: delete, back off, retry. */
class AttemptFailedError extends Error {}

export async function downloadBundle(o: DownloadOptions): Promise<DownloadedBundle> {
  const attempts = o.attempts ?? 5;
  const margin = o.expiryMarginMs ?? 5_000;
  await mkdir(o.dir, { recursive: true });
  let link = o.link;
  let lastError = 'no attempt made';
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (!link || Date.parse(link.expiresAt) - o.clock.now().getTime() <= margin) {
      if (link) o.logger.info({ jobId: o.jobId, expiresAt: link.expiresAt }, 'bundle link expired, requesting a fresh one');
      link = await o.freshLink();
    }
    checkBundleLink(link, o.maxBundleBytes ?? MAX_BUNDLE_BYTES);
    await requireFreeSpace(o, link.sizeBytes);
    const temp = join(o.dir, partName(randomBytes(6).toString('hex')));
    try {
      const got = await fetchTo(link, temp, o);
      if (got.size !== link.sizeBytes) {
        throw new AttemptFailedError(`size mismatch: received ${got.size} bytes, expected ${link.sizeBytes}`);
      }
      const contents = await readArchive(temp, o.archiveLimits);
      const path = join(o.dir, BUNDLE_FILE);
      commitFile(temp, path); // flushed, renamed, folder flushed: a crash leaves the old bundle or the new
      return { path, sizeBytes: got.size, sha256: got.sha256, contents, link };
    } catch (err) {
      await rm(temp, { force: true });
      if (err instanceof StoppedError || err instanceof FatalError) throw err;
      if (o.signal?.aborted) throw new StoppedError('stopped during the download');
      lastError = messageOf(err);
      const refused = err instanceof LinkRefusedError;
      o.logger.warn({ jobId: o.jobId, attempt: attempt + 1, attempts, url: redactUrl(link.bundleUrl), err: lastError },
        refused ? 'bundle link refused by storage, requesting a fresh one' : 'bundle download damaged or failed, retrying');
      if (refused) {
        link = null;
      } else if (err instanceof AttemptFailedError || err instanceof DamagedArchiveError) {
        if (attempt + 1 < attempts) await sleepOrStop(o.clock, backoffMs(o.retry, attempt, o.random), o.signal);
      } else {
        throw err;
      }
    }
  }
  throw new FatalError(`the bundle of job ${o.jobId} could not be downloaded intact after ${attempts} attempts (last: ${lastError})`);
}

async function requireFreeSpace(o: DownloadOptions, size: number): Promise<void> {
  const free = await (o.freeBytes ?? freeBytesAt)(o.dir);
  if (free < size + FREE_SPACE_MARGIN) {
    throw new FatalError(`not enough free space in ${o.dir}: the bundle needs ${formatBytes(size)} plus a margin, ${formatBytes(free)} available`);
  }
}

async function freeBytesAt(dir: string): Promise<number> {
  const s = await statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

/**
 * Streams the body to `temp`, hashing as it goes, and stops at `sizeBytes`: more is refused (not
 * retried). Bounded in time: a stall of --request-timeout fails the attempt; the whole download has
 * a deadline of --request-timeout plus sizeBytes at 64 KiB/s. No redirect is followed. Only
 * storage statuses are classified here.
 */
async function fetchTo(link: BundleResponse, temp: string, o: DownloadOptions): Promise<{ size: number; sha256: string }> {
  const stallMs = clampTimer(o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const deadlineMs = clampTimer(stallMs + (link.sizeBytes / MIN_DOWNLOAD_BYTES_PER_S) * 1000);
  const ac = new AbortController();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    ac.abort();
  }, deadlineMs);
  const onStop = () => ac.abort();
  o.signal?.addEventListener('abort', onStop, { once: true });
  const interrupted = (): Error | null => {
    if (o.signal?.aborted) return new StoppedError('stopped during the download');
    if (late) return new RequestDeadlineError(`the bundle download did not finish within its deadline of ${formatDuration(deadlineMs)} (--request-timeout plus ${formatBytes(link.sizeBytes)} at 64 KiB/s)`);
    return null;
  };
  try {
    let res: Dispatcher.ResponseData;
    try {
      // Deliberately no headers: the presigned query string is the only credential.
      res = await request(link.bundleUrl, { method: 'GET', headersTimeout: stallMs, bodyTimeout: stallMs, dispatcher: o.dispatcher, signal: ac.signal });
    } catch (err) {
      throw interrupted() ?? new AttemptFailedError(`network error: ${serverText(networkReason(err), [])}`);
    }
    if (res.statusCode !== 200) await refuseStatus(res);
    const announced = Number(res.headers['content-length']);
    if (Number.isFinite(announced) && announced > link.sizeBytes) {
      res.body.destroy();
      throw new FatalError(`storage announces ${formatBytes(announced)}, more than the ${formatBytes(link.sizeBytes)} of sizeBytes; refused`);
    }
    const hash = createHash('sha256');
    let size = 0;
    let over = false;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > link.sizeBytes) {
          over = true;
          return cb(new Error('more bytes than sizeBytes'));
        }
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(res.body, tap, createWriteStream(temp, { flags: 'wx', mode: 0o644 }));
    } catch (err) {
      if (over) throw new FatalError(`storage sent more than the ${formatBytes(link.sizeBytes)} announced as sizeBytes; refused`);
      throw interrupted() ?? new AttemptFailedError(`download cut off after ${size} bytes: ${serverText(networkReason(err), [])}`);
    }
    return { size, sha256: hash.digest('hex') };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onStop);
  }
}

/** A non-200 from storage: S3's error document, sanitized; 403 asks for a fresh link, 3xx is not followed. */
async function refuseStatus(res: Dispatcher.ResponseData): Promise<never> {
  const text = await readStart(res, 2000);
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? '';
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? text;
  const what = serverText(`storage answered ${res.statusCode}${code ? ` ${code}` : ''}: ${message}`, [], 200);
  if (res.statusCode >= 300 && res.statusCode < 400) {
    const location = res.headers.location;
    const to = typeof location === 'string' ? serverText(redactUrl(location), [], 120) : 'elsewhere';
    throw new FatalError(`storage redirected the bundle download (${res.statusCode}) to ${to}; redirects are not followed`);
  }
  if (res.statusCode === 403) throw new LinkRefusedError(what);
  if (res.statusCode === 404 || res.statusCode === 408 || res.statusCode === 429 || res.statusCode >= 500) {
    throw new AttemptFailedError(what);
  }
  throw new FatalError(`the bundle download was rejected (${what})`);
}

/** The first `max` bytes of an error body; the rest is not read. */
async function readStart(res: Dispatcher.ResponseData, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max) break;
    }
  } catch {
    // a cut-off error body: what arrived is enough
  }
  res.body.destroy();
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}
