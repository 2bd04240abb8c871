// The lake in an S3-compatible bucket (AWS S3, MinIO, R2, GCS interoperability) through
// @aws-sdk/client-s3 and @aws-sdk/lib-storage (multipart above 8 MiB). DuckDB writes each file into
// a local staging directory; it is uploaded under a new key (never overwritten in place) and the
// staged copy removed. The manifest, written last, is the commit point. The standard AWS
// configuration applies (s3-client.ts); errors name the bucket and key, never a credential.
import { createReadStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { FatalError } from '../../core/errors.js';
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

/** `stagingRoot`: where files are staged before upload (staging-dir.ts; default the system temp folder). */
export function s3Storage(client: S3Client, loc: S3Location, secrets: readonly string[], stagingRoot?: string): LakeStorage {
  const location = `s3://${loc.bucket}/${loc.prefix}`.replace(/\/$/, '');
  const full = (key: string) => `${loc.prefix}${key}`;
  const fail = (what: string, key: string, err: unknown) => s3Error(`${what} s3://${loc.bucket}/${full(key)}`, err, secrets);
  let staging: string | null = null;
  let counter = 0;
  /** The lock this storage took (lock()), confirmed before each manifest write and deletion. */
  let held: S3LockHandle | null = null;

  const readText = async (key: string): Promise<string | null> => {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: loc.bucket, Key: full(key) }));
      return res.Body ? await res.Body.transformToString('utf8') : '';
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound') return null;
      throw fail('cannot read', key, err);
    }
  };
  const writeText = async (key: string, text: string): Promise<void> => {
    try {
      await client.send(new PutObjectCommand({ Bucket: loc.bucket, Key: full(key), Body: text, ContentType: 'application/json' }));
    } catch (err) {
      throw fail('cannot write', key, err);
    }
  };
  const deleteKey = async (key: string): Promise<void> => {
    try {
      await client.send(new DeleteObjectCommand({ Bucket: loc.bucket, Key: full(key) }));
    } catch (err) {
      throw fail('cannot delete', key, err);
    }
  };

  return {
    location,
    replacesInPlace: false,
    lock: async (now) => {
      held = await acquireS3Lock({ readText, writeText, deleteKey, location }, now);
      const handle = held;
      return async () => {
        held = null;
        await handle.release();
      };
    },
    confirmLock: async (now) => {
      await held?.confirm(now);
    },
    list: async (tops) => {
      const objects: StoredObject[] = [];
      for (const top of tops) {
        let token: string | undefined;
        do {
          let res;
          try {
            res = await client.send(new ListObjectsV2Command({ Bucket: loc.bucket, Prefix: full(`${top}/`), ContinuationToken: token }));
          } catch (err) {
            throw fail('cannot list', `${top}/`, err);
          }
          for (const o of res.Contents ?? []) {
            if (o.Key?.startsWith(loc.prefix)) objects.push({ key: o.Key.slice(loc.prefix.length), bytes: Number(o.Size ?? 0) });
          }
          token = res.IsTruncated ? res.NextContinuationToken : undefined;
        } while (token);
      }
      return { objects: objects.filter((o) => !o.key.startsWith(`${META_DIR}/`)), tempRemoved: 0 };
    },
    stagingPath: (_key, token) => {
      staging ??= makeStagingDir(stagingRoot);
      return join(staging, `${token}-${++counter}.parquet`);
    },
    put: async (staged, key) => {
      try {
        const bytes = statSync(staged).size;
        const upload = new Upload({
          client,
          params: { Bucket: loc.bucket, Key: full(key), Body: createReadStream(staged), ContentType: 'application/vnd.apache.parquet' },
          partSize: PART_SIZE,
          queueSize: 2,
          leavePartsOnError: false,
        });
        await upload.done();
        return bytes;
      } catch (err) {
        throw err instanceof FatalError ? err : fail('cannot upload', key, err);
      } finally {
        rmSync(staged, { force: true });
      }
    },
    readText,
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
