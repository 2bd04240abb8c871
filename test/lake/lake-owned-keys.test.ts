// "Delete only what is provably ours", as an attacker who can write the lake would try it: a manifest
// naming `../victim.txt`, `../wh/warehouse-copy.duckdb` and a foreign README.txt under the lake, and
// foreign files beside ours, on a local lake and on S3 (s3rver on 127.0.0.1). Nothing outside the
// lake's own data files is touched, the export still succeeds, and the manifest is rewritten clean.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { FatalError } from '../../src/core/errors.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import { localStorage } from '../../src/outputs/lake/local-storage.js';
import { openLakeStorage } from '../../src/outputs/lake/lake-location.js';
import type { FileEntry, Manifest } from '../../src/outputs/lake/manifest.js';
import { ownedDataKey, ownedEntry, tablesByName } from '../../src/outputs/lake/owned-keys.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { capturingLogger } from '../helpers/log-lines.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

const TABLES = LAKE_TABLES.filter((t) => ['conversations', 'sources', 'sync_runs', 'quarantine'].includes(t.name));
const OWNED = tablesByName(TABLES);
const HOSTILE = ['../victim.txt', '../wh/warehouse-copy.duckdb', 'conversations/README.txt'];
const UNTRUSTED = /lake manifest names files this version never writes/;

/** Entries for partitions the warehouse does not have (so an exporter trusting them deletes their keys). */
const planted = (): FileEntry[] => HOSTILE.map((key, i) => ({
  table: 'conversations', partition: { project_id: `gone-${i}`, date: '2020-01-01' }, key, rows: 1, bytes: 1, signature: 'x', exportedAt: '2020-01-01T00:00:00.000Z',
}));

describe('the lake deletes only its own data files', () => {
  let tmp: ReturnType<typeof tempDir>;
  let wh: Warehouse;
  beforeEach(async () => {
    tmp = tempDir('docs-etl-lake-owned-');
    wh = await openWarehouse(join(tmp.dir, 'wh', 'w.duckdb'));
    await fillWarehouse(wh.conn, { days: 2, turnsPerDay: 5 });
  });
  afterEach(() => {
    wh.close();
    tmp.cleanup();
  });

  const run = (outDir: string, env?: NodeJS.ProcessEnv) => {
    const cap = capturingLogger();
    return exportLake({ conn: wh.conn, logger: cap.logger, clock: systemClock, tables: TABLES, env }, { outDir }).then((summary) => ({ summary, lines: cap.lines }));
  };
  const warnings = (lines: Record<string, unknown>[]) => lines.filter((l) => UNTRUSTED.test(String(l.msg)));

  it('keys: only a data file at the depth of its table\'s layout, no dot segments, under a declared table', () => {
    expect(ownedDataKey('conversations/project_id=acme/date=2026-03-01/part-0.parquet', OWNED)).toBe(true);
    expect(ownedDataKey('sync_runs/part-mx1-ab12-3.parquet', OWNED)).toBe(true);
    for (const k of [...HOSTILE, 'conversations/../../x/part-0.parquet', 'conversations/project_id=acme/../part-0.parquet',
      'conversations//part-0.parquet', 'sync_runs/./part-0.parquet', 'conversations/part-0.parquet', 'other/part-0.parquet',
      'conversations/project_id=acme/date=2026-03-01/part-0.parquet.bak', 'conversations/project_id=a\\..\\b/date=2026-03-01/part-0.parquet']) {
      expect(ownedDataKey(k, OWNED), k).toBe(false);
    }
    const entry = { ...planted()[0]!, key: 'conversations/project_id=gone-0/date=2020-01-01/part-0.parquet' };
    expect(ownedEntry(entry, OWNED)).toBe(true);
    expect(ownedEntry({ ...entry, partition: { project_id: 'other', date: '2020-01-01' } }, OWNED)).toBe(false);
  });

  it('local: planted manifest keys and foreign files delete nothing; the manifest is rewritten, one warning, the export succeeds', async () => {
    const lake = join(tmp.dir, 'lake');
    expect((await run(lake)).summary.partitions.written).toBeGreaterThan(0);
    const victim = join(tmp.dir, 'victim.txt');
    const copy = join(tmp.dir, 'wh', 'warehouse-copy.duckdb');
    const readme = join(lake, 'conversations', 'README.txt');
    const beside = join(lake, 'conversations', 'project_id=acme', 'date=2026-03-01', 'part-0.parquet.bak');
    const deeper = join(lake, 'conversations', 'project_id=acme', 'date=2026-03-01', 'x', 'part-0.parquet');
    for (const f of [victim, copy, readme, beside, deeper]) {
      mkdirSync(join(f, '..'), { recursive: true });
      writeFileSync(f, 'keep me');
    }
    const manifestPath = join(lake, '_docs_etl', 'manifest.json');
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    writeFileSync(manifestPath, JSON.stringify({ ...m, files: [...m.files, ...planted()] }));

    const first = await run(lake);
    expect(first.summary.files.removed).toBe(0);
    expect(warnings(first.lines)).toHaveLength(1);
    for (const f of [victim, copy, readme, beside, deeper]) expect(readFileSync(f, 'utf8'), f).toBe('keep me');
    const rewritten = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    expect(rewritten.files.length).toBe(m.files.length);
    expect(rewritten.files.every((e) => ownedEntry(e, OWNED))).toBe(true);

    // The next run trusts the rewritten manifest and still leaves every foreign file alone.
    const second = await run(lake);
    expect(warnings(second.lines)).toHaveLength(0);
    expect(second.summary.partitions.written).toBe(0);
    for (const f of [victim, copy, readme, beside, deeper]) expect(readFileSync(f, 'utf8'), f).toBe('keep me');
  });

  it('local storage refuses to delete any key that resolves outside the lake', async () => {
    const lake = join(tmp.dir, 'lake');
    const victim = join(tmp.dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const storage = localStorage(lake);
    for (const key of ['../victim.txt', 'conversations/../../victim.txt', '/victim.txt']) {
      await expect(storage.delete([key]), key).rejects.toThrow(FatalError);
    }
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
  });

  it('S3 (s3rver): planted manifest keys and a foreign README.txt under the prefix are kept; the export succeeds', async () => {
    const s3: TestS3 = await startS3(join(tmp.dir, 's3'));
    try {
      const url = `s3://${s3.bucket}/org/lake`;
      expect((await run(url, s3.env)).summary.partitions.written).toBeGreaterThan(0);
      const foreign = ['org/victim.txt', 'org/wh/warehouse-copy.duckdb', 'org/lake/conversations/README.txt'];
      for (const Key of foreign) await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'keep me' }));
      const m = JSON.parse(await s3.getText('org/lake/_docs_etl/manifest.json')) as Manifest;
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'org/lake/_docs_etl/manifest.json', Body: JSON.stringify({ ...m, files: [...m.files, ...planted()] }) }));

      const first = await run(url, s3.env);
      expect(first.summary.files.removed).toBe(0);
      expect(warnings(first.lines)).toHaveLength(1);
      const second = await run(url, s3.env);
      expect(warnings(second.lines)).toHaveLength(0);
      const keys = await s3.list('org/');
      for (const k of foreign) expect(keys.has(k), k).toBe(true);
      const rewritten = JSON.parse(await s3.getText('org/lake/_docs_etl/manifest.json')) as Manifest;
      expect(rewritten.files.every((e) => ownedEntry(e, OWNED) && keys.has(`org/lake/${e.key}`))).toBe(true);
      // Every data object is named by the manifest, or is a file the untrusted run replaced that the
      // previous Iceberg snapshot still names (kept for readGrace, docs/lake.md): nothing else.
      const data = [...keys.keys()].filter((k) => k.startsWith('org/lake/') && k.endsWith('.parquet'));
      const named = new Set(rewritten.files.map((e) => `org/lake/${e.key}`));
      const replaced = new Set(m.files.map((e) => `org/lake/${e.key}`));
      for (const k of named) expect(data, k).toContain(k);
      expect(data.filter((k) => !named.has(k) && !replaced.has(k))).toEqual([]);

      const storage = await openLakeStorage(url, s3.env);
      try {
        await expect(storage.delete(['../victim.txt'])).rejects.toThrow(/refusing to delete/);
      } finally {
        await storage.close();
      }
    } finally {
      await s3.close();
    }
  }, 60_000);
});
