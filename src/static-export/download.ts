// Downloads the bundle from its presigned link to a temporary file in the target directory and
// moves it into place only once verified: size equals `sizeBytes` and the archive reads completely.
// The link is short-lived: an expired one (by `expiresAt`, or a 403 from storage) is replaced by a
// fresh one from the API. Damaged downloads are deleted and retried, a bounded number of times.
// No Authorization header is ever sent to storage (S3 rejects two auth mechanisms, and the API key
// must not leave for another host).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { FatalError, StoppedError, messageOf } from '../core/errors.js';
import { redactUrl } from '../core/secrets.js';
import type { BundleResponse } from '../contracts/static-export.js';
import { readArchive, DamagedArchiveError, type ArchiveContents } from './archive.js';
import { backoffMs, sleepOrStop, type RetryPolicy } from '../api/retry.js';
import { networkReason } from './client.js';

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
  timeoutMs?: number;
}

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
    const temp = join(o.dir, `.${BUNDLE_FILE}.${randomBytes(6).toString('hex')}.part`);
    try {
      const got = await fetchTo(link, temp, o);
      if (got.size !== link.sizeBytes) {
        throw new AttemptFailedError(`size mismatch: received ${got.size} bytes, expected ${link.sizeBytes}`);
      }
      const contents = await readArchive(temp);
      const path = join(o.dir, BUNDLE_FILE);
      await rename(temp, path);
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

/** Streams the body to `temp`, hashing as it goes. Only storage statuses are classified here. */
async function fetchTo(link: BundleResponse, temp: string, o: DownloadOptions): Promise<{ size: number; sha256: string }> {
  const timeoutMs = o.timeoutMs ?? 120_000;
  let res: Dispatcher.ResponseData;
  try {
    // Deliberately no headers: the presigned query string is the only credential.
    res = await request(link.bundleUrl, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, dispatcher: o.dispatcher, signal: o.signal });
  } catch (err) {
    if (o.signal?.aborted) throw new StoppedError('stopped during the download');
    throw new AttemptFailedError(`network error: ${networkReason(err)}`);
  }
  if (res.statusCode !== 200) {
    const text = (await res.body.text().catch(() => '')).slice(0, 2000);
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? '';
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? text.slice(0, 120);
    const what = `storage answered ${res.statusCode}${code ? ` ${code}` : ''}: ${message}`;
    if (res.statusCode === 403) throw new LinkRefusedError(what);
    if (res.statusCode === 404 || res.statusCode === 408 || res.statusCode === 429 || res.statusCode >= 500) {
      throw new AttemptFailedError(what);
    }
    throw new FatalError(`the bundle download was rejected (${what})`);
  }
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  try {
    await pipeline(res.body, tap, createWriteStream(temp, { flags: 'wx', mode: 0o644 }));
  } catch (err) {
    if (o.signal?.aborted) throw new StoppedError('stopped during the download');
    throw new AttemptFailedError(`download cut off after ${size} bytes: ${networkReason(err)}`);
  }
  return { size, sha256: hash.digest('hex') };
}
