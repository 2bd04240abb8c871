// The lake in an S3-compatible bucket (AWS S3, MinIO, R2, GCS interoperability) through
// @aws-sdk/client-s3 and @aws-sdk/lib-storage (multipart above 8 MiB). DuckDB writes each file into
// a local staging directory; it is uploaded under a new key (never overwritten in place) and the
// staged copy removed. The manifest, written last, is the commit point. The standard AWS
// configuration applies (s3-client.ts); errors name the bucket and key, never a credential.
import { createReadStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { formatDuration } from '../../core/duration.js';
import { FatalError } from '../../core/errors.js';
import { DEFAULT_S3_TIMEOUT_MS, MAX_LIST_PAGES } from './lake-deadlines.js';
import { listingPages } from './listing-pages.js';
import { META_DIR } from './lake-layout.js';
import type { LakeStorage, StoredObject } from './lake-storage.js';
import { acquireS3Lock, type S3LockHandle } from './s3-lock.js';
import { s3Error } from './s3-client.js';
import { makeStagingDir } from './staging-dir.js';
import { plainKey } from './owned-keys.js';

export interface S3Location {
  bucket: string;
  /** '' or ending in '/'. */
  prefix: string;
}

const PART_SIZE = 8 * 1024 * 1024;
const DELETE_CONCURRENCY = 8;

/** Bounds of the storage's calls (lake-deadlines.ts). */
export interface S3Limits {
  /** One small call (read, write, delete, one listing page), retries included. */
  callMs: number;
  /** The export's deadline: aborts every call in flight but the lock's release (tried even after it). */
  signal?: AbortSignal;
  /** Listing pages per directory before the listing is refused (tests lower it). */
  maxListPages?: number;
  /** Builds the export's deadline error (one line). */
  deadlineError?: () => Error;
}

/** `stagingRoot`: where files are staged before upload (staging-dir.ts; default the system temp folder). */
export function s3Storage(client: S3Client, loc: S3Location, secrets: readonly string[], stagingRoot?: string, limits: S3Limits = { callMs: DEFAULT_S3_TIMEOUT_MS }): LakeStorage {
  const location = `s3://${loc.bucket}/${loc.prefix}`.replace(/\/$/, '');
  const full = (key: string) => `${loc.prefix}${key}`;
  const fail = (what: string, key: string, err: unknown) => s3Error(`${what} s3://${loc.bucket}/${full(key)}`, err, secrets);
  let staging: string | null = null;
  let counter = 0;
  /** The lock this storage took (lock()), confirmed before each manifest write and deletion. */
  let held: S3LockHandle | null = null;

  /**
   * One S3 call with its total deadline, and the export's (but the lock's release, which must be
   * tried even after the deadline). A call cut short fails with the deadline that cut it, as one
   * line naming bucket and key.
   */
  const call = async <T>(what: string, key: string, send: (abortSignal: AbortSignal) => Promise<T>, opts: { release?: boolean } = {}): Promise<T> => {
    const own = AbortSignal.timeout(limits.callMs);
    const exportSignal = opts.release ? undefined : limits.signal;
    try {
      return await send(exportSignal ? AbortSignal.any([own, exportSignal]) : own);
    } catch (err) {
      if (exportSignal?.aborted && limits.deadlineError) throw limits.deadlineError();
      if (own.aborted) throw fail(what, key, new Error(`no complete answer within ${formatDuration(limits.callMs)} (DOCS_ETL_S3_TIMEOUT)`));
      throw err instanceof FatalError ? err : fail(what, key, err);
    }
  };
  const notFound = (err: unknown) => ['NoSuchKey', 'NotFound'].includes(String((err as { name?: string }).name));

  const readText = (key: string, release = false): Promise<string | null> => call('cannot read', key, async (abortSignal) => {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: loc.bucket, Key: full(key) }), { abortSignal });
      return res.Body ? await res.Body.transformToString('utf8') : '';
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }, { release });
  const writeText = (key: string, text: string, release = false): Promise<void> => call('cannot write', key, async (abortSignal) => {
    await client.send(new PutObjectCommand({ Bucket: loc.bucket, Key: full(key), Body: text, ContentType: 'application/json' }), { abortSignal });
  }, { release });
  const deleteKey = (key: string, release = false): Promise<void> => call('cannot delete', key, async (abortSignal) => {
    await client.send(new DeleteObjectCommand({ Bucket: loc.bucket, Key: full(key) }), { abortSignal });
  }, { release });
  let releasing = false;
  const lockIo = {
    readText: (k: string) => readText(k, releasing), writeText: (k: string, t: string) => writeText(k, t, releasing),
    deleteKey: (k: string) => deleteKey(k, releasing), location,
  };

  return {
    location,
    replacesInPlace: false,
    lock: async (now) => {
      held = await acquireS3Lock(lockIo, now);
      const handle = held;
      return async () => {
        held = null;
        releasing = true;
        await handle.release();
      };
    },
    confirmLock: async (now) => {
      await held?.confirm(now);
    },
    list: async (tops) => {
      const objects: StoredObject[] = [];
      for (const top of tops) {
        const pages = listingPages(`${location}/${top}/`, limits.maxListPages ?? MAX_LIST_PAGES);
        let token: string | undefined;
        do {
          const res = await call('cannot list', `${top}/`, (abortSignal) =>
            client.send(new ListObjectsV2Command({ Bucket: loc.bucket, Prefix: full(`${top}/`), ContinuationToken: token }), { abortSignal }));
          for (const o of res.Contents ?? []) {
            if (o.Key?.startsWith(loc.prefix)) objects.push({ key: o.Key.slice(loc.prefix.length), bytes: Number(o.Size ?? 0) });
          }
          token = pages.next(res.IsTruncated === true, res.NextContinuationToken);
        } while (token !== undefined);
      }
      return { objects: objects.filter((o) => !o.key.startsWith(`${META_DIR}/`)), tempRemoved: 0 };
    },
    stagingPath: (_key, token) => {
      staging ??= makeStagingDir(stagingRoot);
      return join(staging, `${token}-${++counter}.parquet`);
    },
    put: async (staged, key) => {
      // Each part is one request under the client's timeouts; the whole upload ends with the export's deadline.
      const abortController = new AbortController();
      const onDeadline = () => abortController.abort();
      limits.signal?.addEventListener('abort', onDeadline, { once: true });
      try {
        const bytes = statSync(staged).size;
        const upload = new Upload({
          client,
          params: { Bucket: loc.bucket, Key: full(key), Body: createReadStream(staged), ContentType: 'application/vnd.apache.parquet' },
          partSize: PART_SIZE,
          queueSize: 2,
          leavePartsOnError: false,
          abortController,
        });
        if (limits.signal?.aborted) abortController.abort();
        await upload.done();
        return bytes;
      } catch (err) {
        if (limits.signal?.aborted && limits.deadlineError) throw limits.deadlineError();
        throw err instanceof FatalError ? err : fail('cannot upload', key, err);
      } finally {
        limits.signal?.removeEventListener('abort', onDeadline);
        rmSync(staged, { force: true });
      }
    },
    readText: (key) => readText(key),
    writeText: (key, text) => writeText(key, text),
    delete: async (keys) => {
      // Never a key that could name something outside the prefix on a server that resolves dot segments.
      const bad = keys.find((k) => !plainKey(k));
      if (bad !== undefined) throw new FatalError(`refusing to delete ${JSON.stringify(bad.slice(0, 120))}: not a key inside the lake ${location}`);
      const queue = [...keys];
      const worker = async () => {
        for (let key = queue.shift(); key !== undefined; key = queue.shift()) await deleteKey(key);
      };
      await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, queue.length) }, worker));
      return keys.length;
    },
    close: async () => {
      if (staging) rmSync(staging, { recursive: true, force: true });
      client.destroy();
    },
  };
}
