// An S3-compatible server for the lake tests: s3rver on 127.0.0.1, port 0, data in a temp dir, and
// the AWS environment a docs-etl process uses to reach it (endpoint, so path-style; fixed keys).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { s3Client } from '../../src/outputs/lake/s3-client.js';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  env: NodeJS.ProcessEnv;
  client: S3Client;
  /** Every object under a prefix: key → size and ETag. */
  list(prefix?: string): Promise<Map<string, { bytes: number; etag: string }>>;
  getText(key: string): Promise<string>;
  /** Downloads an object to a local file (to read it back with DuckDB). */
  download(key: string, file: string): Promise<void>;
  close(): Promise<void>;
}

export const S3_SECRET = 'test-secret-key-value-0123456789';

export async function startS3(dir: string, bucket = 'lake-bucket'): Promise<TestS3> {
  mkdirSync(dir, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const addr = await server.run();
  const endpoint = `http://127.0.0.1:${addr.port}`;
  const env: NodeJS.ProcessEnv = {
    AWS_ENDPOINT_URL_S3: endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: S3_SECRET, AWS_REGION: 'us-east-1',
  };
  const client = s3Client(env);
  const body = async (key: string) => {
    const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await res.Body!.transformToByteArray());
  };
  return {
    endpoint, bucket, env, client,
    list: async (prefix = '') => {
      const out = new Map<string, { bytes: number; etag: string }>();
      let token: string | undefined;
      do {
        const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of res.Contents ?? []) out.set(o.Key!, { bytes: Number(o.Size), etag: String(o.ETag) });
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    getText: async (key) => (await body(key)).toString('utf8'),
    download: async (key, file) => writeFileSync(file, await body(key)),
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
}

export const keyIn = (dir: string, key: string): string => join(dir, ...key.split('/'));
