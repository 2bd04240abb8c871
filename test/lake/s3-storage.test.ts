// The S3 lake storage against s3rver on 127.0.0.1: multipart uploads of a large file arrive
// byte for byte, the lock object keeps a second exporter out and is taken over when its owner is
// gone, and failures are one line naming bucket and key, never a credential.
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FatalError } from '../../src/core/errors.js';
import { INSTANCE } from '../../src/core/owner-lock.js';
import { openLakeStorage } from '../../src/outputs/lake/lake-location.js';
import { s3Client } from '../../src/outputs/lake/s3-client.js';
import { s3Storage } from '../../src/outputs/lake/s3-storage.js';
import { STALE_AFTER_MS } from '../../src/outputs/lake/s3-lock.js';
import { S3_SECRET, startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';

let tmp: ReturnType<typeof tempDir>;
let s3: TestS3;
beforeAll(async () => {
  tmp = tempDir('docs-etl-s3-storage-');
  s3 = await startS3(join(tmp.dir, 's3'));
});
afterAll(async () => {
  await s3?.close();
  tmp?.cleanup();
});

describe('S3 lake storage', () => {
  it('uploads a 20 MiB file in parts, byte for byte, and removes the staged copy', async () => {
    // The storage's own client, with a middleware that records each command it sends.
    const client = s3Client(s3.env);
    const commands: string[] = [];
    client.middlewareStack.add((next, context) => (args) => {
      commands.push(String(context.commandName));
      return next(args);
    }, { step: 'initialize', name: 'recordCommands' });
    const storage = s3Storage(client, { bucket: s3.bucket, prefix: 'big/' }, []);
    try {
      const staged = storage.stagingPath('t/part-x.parquet', 'tok');
      const bytes = randomBytes(20 * 1024 * 1024 + 123);
      writeFileSync(staged, bytes);
      expect(await storage.put(staged, 't/part-x.parquet')).toBe(bytes.length);
      expect(() => readFileSync(staged)).toThrow(/ENOENT/);
      const listed = await s3.list('big/');
      expect(listed.get('big/t/part-x.parquet')!.bytes).toBe(bytes.length);
      expect(commands).toEqual(['CreateMultipartUploadCommand', 'UploadPartCommand', 'UploadPartCommand', 'UploadPartCommand', 'CompleteMultipartUploadCommand']);
      const back = join(tmp.dir, 'back');
      await s3.download('big/t/part-x.parquet', back);
      expect(readFileSync(back).equals(bytes)).toBe(true);
      const { objects } = await storage.list(['t']);
      expect(objects).toEqual([{ key: 't/part-x.parquet', bytes: bytes.length }]);
      expect(await storage.delete(['t/part-x.parquet'])).toBe(1);
      expect((await s3.list('big/')).size).toBe(0);
    } finally {
      await storage.close();
    }
  }, 60_000);

  it('one exporter per prefix: a live lock refuses, a dead or old one is taken over, release removes it', async () => {
    const storage = await openLakeStorage(`s3://${s3.bucket}/locked`, s3.env);
    const lockKey = 'locked/_docs_etl/lock';
    const put = (owner: object) => s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: lockKey, Body: JSON.stringify(owner) }));
    const now = new Date();
    try {
      await put({ pid: process.ppid, host: hostname(), instance: 'other', startedAt: now.toISOString() });
      await expect(storage.lock(now)).rejects.toThrow(FatalError);
      await expect(storage.lock(now)).rejects.toThrow(/is being written by another export \(PID \d+ on /);
      await put({ pid: 1, host: 'another-host', instance: 'other', startedAt: now.toISOString() });
      await expect(storage.lock(now)).rejects.toThrow(/another-host/);
      await put({ pid: 1, host: 'another-host', instance: 'other', startedAt: new Date(now.getTime() - STALE_AFTER_MS - 1).toISOString() });
      await (await storage.lock(now))();
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      await put({ pid: dead, host: hostname(), instance: 'other', startedAt: now.toISOString() });
      const release = await storage.lock(now);
      expect(JSON.parse(await s3.getText(lockKey)).pid).toBe(process.pid);
      // A long export renews its lock at each checkpoint: 3 h after its start it is not stale.
      const later = new Date(now.getTime() + STALE_AFTER_MS - 60_000);
      await storage.confirmLock!(later);
      expect(JSON.parse(await s3.getText(lockKey)).renewedAt).toBe(later.toISOString());
      const other = await openLakeStorage(`s3://${s3.bucket}/locked`, s3.env);
      try {
        await expect(other.lock(new Date(now.getTime() + STALE_AFTER_MS + 60_000))).rejects.toThrow(/being written by another export/);
      } finally {
        await other.close();
      }
      await release();
      expect((await s3.list('locked/')).has(lockKey)).toBe(false);
      // Taken over (another host's export found it stale): confirm refuses, so this export writes
      // no manifest and deletes nothing.
      const mine = await storage.lock(now);
      await put({ pid: 1, host: 'another-host', instance: 'other', startedAt: now.toISOString() });
      await expect(storage.confirmLock!(now)).rejects.toThrow(/lock was taken over by PID 1 on another-host/);
      await mine();
      expect((await s3.list('locked/')).has(lockKey)).toBe(true);
    } finally {
      await storage.close();
    }
  });

  it('a lock this process left behind (its release failed, e.g. under schedule) is taken over by its next export; one it holds is not', async () => {
    const storage = await openLakeStorage(`s3://${s3.bucket}/leftover`, s3.env);
    const other = await openLakeStorage(`s3://${s3.bucket}/leftover`, s3.env);
    const now = new Date();
    try {
      const release = await storage.lock(now);
      await expect(other.lock(now)).rejects.toThrow(/being written by another export/);
      await release();
      // What a failed release leaves: this process's lock, of an export that is over.
      const leftover = { pid: process.pid, host: hostname(), instance: `${INSTANCE}-${now.getTime() - 1000}`, startedAt: now.toISOString() };
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'leftover/_docs_etl/lock', Body: JSON.stringify(leftover) }));
      await (await other.lock(now))();
    } finally {
      await storage.close();
      await other.close();
    }
  });

  it('an unreachable endpoint or a missing bucket: one line naming bucket and key, without the secret', async () => {
    for (const [url, env, pattern] of [
      [`s3://no-such-bucket/x`, s3.env, /^cannot read s3:\/\/no-such-bucket\/x\/_docs_etl\/lock: NoSuchBucket/],
      [`s3://${s3.bucket}/x`, { ...s3.env, AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' }, /^cannot read s3:\/\/lake-bucket\/x\/_docs_etl\/lock: .*ECONNREFUSED/],
    ] as const) {
      const storage = await openLakeStorage(url, env);
      try {
        const err = await storage.lock(new Date()).then(() => null, (e: unknown) => e as Error);
        expect(err).toBeInstanceOf(FatalError);
        expect(err!.message).toMatch(pattern);
        expect(err!.message.split('\n')).toHaveLength(1);
        expect(err!.message).not.toContain(S3_SECRET);
      } finally {
        await storage.close();
      }
    }
  }, 60_000);
});
