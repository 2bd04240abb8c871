// "Every remote wait has an end", against a hostile S3 server on 127.0.0.1 (helpers/hostile-s3.ts):
// a listing whose continuation token never ends, an endpoint that accepts and never answers, and a
// 403 in the middle of the upload. Each ends `export-parquet` with one line and exit 1 within a stated
// bound (short deadlines through DOCS_ETL_S3_TIMEOUT / DOCS_ETL_LAKE_DEADLINE, generous margins for a
// loaded machine), and the line is the error that stopped the export.
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { performance } from 'node:perf_hooks';
import { s3Client } from '../../src/outputs/lake/s3-client.js';
import { s3Storage } from '../../src/outputs/lake/s3-storage.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { startHostileS3, type HostileMode, type HostileS3 } from '../helpers/hostile-s3.js';
import { publishForReaders } from '../helpers/publish.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

function sink(): Writable & { text: () => string } {
  let out = '';
  const w = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } });
  return Object.assign(w, { text: () => out });
}

let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
beforeAll(async () => {
  tmp = tempDir('docs-etl-lake-deadlines-');
  warehouse = join(tmp.dir, 'w.duckdb');
  const wh = await openWarehouse(warehouse);
  try {
    await fillWarehouse(wh.conn, { days: 2, turnsPerDay: 5 });
  } finally {
    wh.close();
  }
  await publishForReaders(warehouse);
}, 60_000);
afterAll(() => tmp?.cleanup());

/** `docs-etl export-parquet --out s3://lake-bucket/lake` against a hostile server; its exit code, stderr lines, and how long it took. */
async function exportTo(mode: HostileMode, env: Record<string, string>, level = 'silent') {
  const server: HostileS3 = await startHostileS3(mode);
  const stdout = sink();
  const stderr = sink();
  const t0 = performance.now();
  try {
    const code = await main(['node', 'docs-etl', 'export-parquet', '--out', 's3://lake-bucket/lake', '--warehouse', warehouse], {
      stdout, stderr, env: { LOG_LEVEL: level, ...server.env, ...env }, signal: new AbortController().signal,
    });
    const lines = stderr.text().trim().split('\n');
    return { code, lines, error: lines.at(-1)!, ms: performance.now() - t0, server };
  } finally {
    await server.close();
  }
}

describe('export-parquet against a hostile S3 endpoint', () => {
  it('a listing that repeats its continuation token ends with one line after two pages', async () => {
    const r = await exportTo('same-token', { DOCS_ETL_S3_TIMEOUT: '5s' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      'docs-etl: error: cannot list s3://lake-bucket/lake/conversations/: the service repeated a continuation token after 2 page(s); stopping (is the endpoint really S3?)',
    ]);
    expect(r.server.counts.list).toBe(2);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('a listing with a new token on every page ends with the export\'s deadline (3s; bound 30s)', async () => {
    const r = await exportTo('new-token', { DOCS_ETL_S3_TIMEOUT: '5s', DOCS_ETL_LAKE_DEADLINE: '3s' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual(['docs-etl: error: lake s3://lake-bucket/lake: the export passed its deadline of 3s (DOCS_ETL_LAKE_DEADLINE); the next export continues from the last checkpoint']);
    expect(r.ms).toBeGreaterThanOrEqual(2_900);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('a listing longer than the page cap stops there with one line', async () => {
    const server = await startHostileS3('new-token');
    const storage = s3Storage(s3Client(server.env), { bucket: 'lake-bucket', prefix: 'lake/' }, [], undefined, { callMs: 5_000, maxListPages: 5 });
    try {
      await expect(storage.list(['conversations'])).rejects.toThrow(/^cannot list s3:\/\/lake-bucket\/lake\/conversations\/: more than 5 pages after 5 page\(s\)/);
      expect(server.counts.list).toBe(5);
    } finally {
      await storage.close();
      await server.close();
    }
  });

  it('an endpoint that accepts and never answers ends with one line (DOCS_ETL_S3_TIMEOUT=1s; bound 30s)', async () => {
    const r = await exportTo('silent', { DOCS_ETL_S3_TIMEOUT: '1s' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual(['docs-etl: error: cannot read s3://lake-bucket/lake/_docs_etl/lock: no complete answer within 1s (DOCS_ETL_S3_TIMEOUT)']);
    expect(r.ms).toBeGreaterThanOrEqual(900);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('an endpoint that never answers, and no S3 timeout set short: the export deadline ends it (3s; bound 30s)', async () => {
    const r = await exportTo('silent', { DOCS_ETL_LAKE_DEADLINE: '3s' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual(['docs-etl: error: lake s3://lake-bucket/lake: the export passed its deadline of 3s (DOCS_ETL_LAKE_DEADLINE); the next export continues from the last checkpoint']);
    expect(r.ms).toBeGreaterThanOrEqual(2_900);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('a 403 mid-upload is the error reported, not the lock release that fails after it (logged apart)', async () => {
    const r = await exportTo('forbid-data', { DOCS_ETL_S3_TIMEOUT: '5s' }, 'warn');
    expect(r.code).toBe(1);
    expect(r.error).toMatch(/^docs-etl: error: cannot upload s3:\/\/lake-bucket\/lake\/\S+\.parquet: AccessDenied: Access Denied \(HTTP 403\)$/);
    const warnings = r.lines.slice(0, -1).map((l) => JSON.parse(l) as { msg: string; err: string });
    expect(warnings.map((w) => w.msg)).toEqual(['lake lock not released after the failed export']);
    expect(warnings[0]!.err).toMatch(/_docs_etl\/lock: AccessDenied/);
    expect(r.server.counts.forbidden).toBeGreaterThanOrEqual(2);
    expect(r.lines.join('\n')).not.toContain('hostile-secret-key');
  }, 60_000);
});
