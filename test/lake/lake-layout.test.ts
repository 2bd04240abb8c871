import { describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { planFiles } from '../../src/outputs/lake/export-plan.js';
import {
  checkDeclaration, dayRange, isDataKey, partitionKey, STABLE_FILE, TEMP_FILE_RE,
} from '../../src/outputs/lake/lake-layout.js';
import { escapeHiveValue, tempName, unescapeHiveValue } from '../../src/warehouse/partition-files.js';
import { parseLakeLocation } from '../../src/outputs/lake/lake-location.js';
import type { FileEntry } from '../../src/outputs/lake/manifest.js';

describe('lake layout', () => {
  it('escapes partition values the way Hive does and reads them back', () => {
    expect(escapeHiveValue('docs/ü b')).toBe('docs%2Fü b');
    expect(escapeHiveValue('a=b:c%d#e?f\\g\n')).toBe('a%3Db%3Ac%25d%23e%3Ff%5Cg%0A');
    expect(escapeHiveValue('')).toBe('__HIVE_DEFAULT_PARTITION__');
    for (const v of ['plain-id_1.2', 'docs/ü b', 'a=b:c%d#e?f\\g\n', '%41', '']) expect(unescapeHiveValue(escapeHiveValue(v))).toBe(v);
  });

  it('keys: project and day, project, or one file; stable locally, unique on object storage', () => {
    expect(partitionKey('sources', { projectId: 'p/1', date: '2026-01-02' }, null)).toBe('sources/project_id=p%2F1/date=2026-01-02/part-0.parquet');
    expect(partitionKey('feedback', { projectId: 'acme', date: null }, null)).toBe('feedback/project_id=acme/part-0.parquet');
    expect(partitionKey('sync_runs', { projectId: null, date: null }, 'mx1-ab12-3')).toBe('sync_runs/part-mx1-ab12-3.parquet');
    const tables = new Set(['sources', 'sync_runs']);
    expect(isDataKey('sources/project_id=a/date=2026-01-02/part-0.parquet', tables)).toBe(true);
    expect(isDataKey('sync_runs/part-mx1-ab12-3.parquet', tables)).toBe(true);
    expect(isDataKey('other/part-0.parquet', tables)).toBe(false); // not a declared table: never deleted
    expect(isDataKey('sources/notes.parquet', tables)).toBe(false);
    expect(isDataKey('sources/project_id=a/date=2026-01-02/.part-0.x.parquet.tmp', tables)).toBe(false);
  });

  it('names files in flight so that no *.parquet glob or Hadoop listing sees them', () => {
    const t = tempName(STABLE_FILE, '1f-0a9b3c4d');
    expect(t).toBe('.part-0.1f-0a9b3c4d.parquet.tmp');
    expect(t.endsWith('.parquet')).toBe(false);
    expect(TEMP_FILE_RE.test(t)).toBe(true);
    expect(TEMP_FILE_RE.test(tempName('manifest.json', 'x1'))).toBe(true);
    expect(TEMP_FILE_RE.test('part-0.parquet')).toBe(false);
    expect(TEMP_FILE_RE.test('.hidden.tmp')).toBe(false);
  });

  it('gives a partition its half-open UTC day', () => {
    expect(dayRange('2026-03-31')).toEqual({ from: '2026-03-31T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z' });
    expect(() => dayRange('2026-13-45')).toThrow();
  });
});

describe('declared lake tables', () => {
  it('every table a pipeline writes is declared by it, once, with plain names', () => {
    for (const p of PIPELINES) expect(p.lake.map((t) => t.name).sort(), p.name).toEqual([...p.tables].sort());
    const names = LAKE_TABLES.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of LAKE_TABLES) expect(() => checkDeclaration(t)).not.toThrow();
    expect(() => checkDeclaration({ name: 'x', select: 'lake/x.sql', layout: { by: 'project-day', column: 'a"; DROP', type: 'date' }, order: [] })).toThrow(/not a plain column name/);
  });
});

describe('lake locations', () => {
  it('s3://bucket/prefix, or a local directory; other URLs are refused', () => {
    expect(parseLakeLocation('s3://my-bucket/team/lake/')).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: 'team/lake/' });
    expect(parseLakeLocation('s3://my-bucket')).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: '' });
    expect(parseLakeLocation('state/lake')).toEqual({ kind: 'local', dir: 'state/lake' });
    expect(() => parseLakeLocation('gs://b/x')).toThrow(/unsupported lake URL/);
    expect(() => parseLakeLocation('s3://bkt/../x')).toThrow(/"\." and "\.\."/);
    expect(() => parseLakeLocation('s3:///x')).toThrow(/invalid bucket name/);
    let message = '';
    try {
      parseLakeLocation('s3://AKIAEXAMPLE:s3cr3t-value@bucket/lake');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/credentials do not belong in the lake URL/);
    expect(message).not.toContain('s3cr3t-value');
  });
});

describe('planFiles', () => {
  const sig = (projectId: string, date: string, signature: string) => ({ projectId, date, signature, rows: 1 });
  // Every file was written with 100 bytes.
  const entry = (projectId: string, date: string, signature: string): FileEntry => ({
    table: 'conversations', partition: { project_id: projectId, date }, key: partitionKey('conversations', { projectId, date }, null),
    rows: 1, bytes: 100, signature, exportedAt: 'x',
  });

  it('writes new, changed, missing-file and damaged-file partitions, keeps the rest, removes the gone', () => {
    const plan = planFiles({
      table: 'conversations',
      current: [sig('a', '2026-01-01', 's1'), sig('a', '2026-01-02', 's2'), sig('a', '2026-01-03', 's3'), sig('a', '2026-01-04', 's6'), sig('b', '2026-01-01', 's4')],
      previous: [entry('a', '2026-01-01', 's1'), entry('a', '2026-01-02', 'old'), entry('a', '2026-01-03', 's3'), entry('a', '2026-01-04', 's6'), entry('c', '2026-01-01', 's5')],
      full: false,
      // 01-03 is gone from disk; 01-04 was truncated to 40 bytes.
      sizeOf: (key) => (key.includes('2026-01-03') ? undefined : key.includes('2026-01-04') ? 40 : 100),
    });
    expect(plan.write.map((w) => `${w.partition.projectId}/${w.partition.date}:${w.reason}`))
      .toEqual(['a/2026-01-02:changed', 'a/2026-01-03:missing-file', 'a/2026-01-04:damaged-file', 'b/2026-01-01:new']);
    expect(plan.keep.map((e) => e.partition.date)).toEqual(['2026-01-01']);
    expect(plan.remove.map((e) => e.partition.project_id)).toEqual(['c']);
  });

  it('--full writes everything', () => {
    const plan = planFiles({ table: 'conversations', current: [sig('a', '2026-01-01', 's1')], previous: [entry('a', '2026-01-01', 's1')], full: true, sizeOf: () => 100 });
    expect(plan.write.map((w) => w.reason)).toEqual(['full']);
  });
});
