// IcebergIO on an S3-compatible bucket (iceberg-io.ts), through the lake's own S3 configuration
// (s3-client.ts). Errors name the bucket and key, never a credential.
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client, s3Error, s3Secrets } from '../s3-client.js';
import type { S3Location } from '../s3-storage.js';
import type { IcebergIO } from './iceberg-io.js';

export function s3IO(loc: S3Location, env: NodeJS.ProcessEnv): IcebergIO {
  const client = s3Client(env);
  const secrets = s3Secrets(env);
  const full = (key: string) => `${loc.prefix}${key}`;
  // Google Cloud Storage through its S3 interoperability: engines that read the metadata (BigQuery) need gs:// paths.
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || '';
  const scheme = /^https?:\/\/([^/]*\.)?storage\.googleapis\.com(:\d+)?(\/|$)/.test(endpoint) ? 'gs' : 's3';
  const base = `${scheme}://${loc.bucket}/${loc.prefix}`;
  const fail = (what: string, key: string, err: unknown) => s3Error(`${what} s3://${loc.bucket}/${full(key)}`, err, secrets);
  const status = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const readBytes = async (key: string): Promise<Buffer | null> => {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: loc.bucket, Key: full(key) }));
      return Buffer.from(res.Body ? await res.Body.transformToByteArray() : []);
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound' || status(err) === 404) return null;
      throw fail('cannot read', key, err);
    }
  };
  const put = async (key: string, body: Buffer | string, exclusive: boolean): Promise<boolean> => {
    try {
      await client.send(new PutObjectCommand({ Bucket: loc.bucket, Key: full(key), Body: body, ...(exclusive ? { IfNoneMatch: '*' } : {}) }));
      return true;
    } catch (err) {
      if (exclusive && (status(err) === 412 || status(err) === 409)) return false;
      throw fail('cannot write', key, err);
    }
  };
  return {
    uri: (key) => `${base}${key}`,
    keyOf: (uri) => (uri.startsWith(base) ? uri.slice(base.length) : null),
    readBytes,
    writeBytes: async (key, body) => {
      await put(key, body, false);
    },
    // The conditional PUT is the commit point where the store honours it; the GET first covers a
    // store that ignores If-None-Match (the lake's lock keeps exporters apart there).
    createExclusive: async (key, text) => (await readBytes(key)) === null && put(key, text, true),
    replaceText: async (key, text) => {
      await put(key, text, false);
    },
    exists: async (key) => (await readBytes(key)) !== null,
    list: async (prefix) => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        let res;
        try {
          res = await client.send(new ListObjectsV2Command({ Bucket: loc.bucket, Prefix: full(prefix), ContinuationToken: token }));
        } catch (err) {
          throw fail('cannot list', prefix, err);
        }
        for (const o of res.Contents ?? []) if (o.Key?.startsWith(loc.prefix)) keys.push(o.Key.slice(loc.prefix.length));
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    delete: async (keys) => {
      for (const key of keys) {
        try {
          await client.send(new DeleteObjectCommand({ Bucket: loc.bucket, Key: full(key) }));
        } catch (err) {
          throw fail('cannot delete', key, err);
        }
      }
    },
    close: () => client.destroy(),
  };
}
