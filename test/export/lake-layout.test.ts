import { describe, expect, it } from 'vitest';
import { planPartitions } from '../../src/export/export-plan.js';
import {
  DATA_FILE, dayRange, escapeHiveValue, partitionFile, TEMP_FILE_RE, tempName, unescapeHiveValue,
} from '../../src/export/lake-layout.js';
import type { PartitionEntry } from '../../src/export/manifest.js';

describe('lake layout', () => {
  it('escapes partition values the way Hive does and reads them back', () => {
    expect(escapeHiveValue('docs/ü b')).toBe('docs%2Fü b');
    expect(escapeHiveValue('a=b:c%d#e?f\\g\n')).toBe('a%3Db%3Ac%25d%23e%3Ff%5Cg%0A');
    expect(escapeHiveValue('')).toBe('__HIVE_DEFAULT_PARTITION__');
    for (const v of ['plain-id_1.2', 'docs/ü b', 'a=b:c%d#e?f\\g\n', '%41', '']) expect(unescapeHiveValue(escapeHiveValue(v))).toBe(v);
    expect(partitionFile('sources', { projectId: 'p/1', date: '2026-01-02' })).toBe('sources/project_id=p%2F1/date=2026-01-02/part-0.parquet');
  });

  it('names files in flight so that no *.parquet glob or Hadoop listing sees them', () => {
    const t = tempName(DATA_FILE, '1f-0a9b3c4d');
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

describe('planPartitions', () => {
  const sig = (projectId: string, date: string, signature: string) => ({ projectId, date, signature, rows: 1, sourceRows: 0, maxUpdatedAt: null });
  // Every file was written with 100 bytes.
  const entry = (projectId: string, date: string, signature: string): PartitionEntry => ({
    ...sig(projectId, date, signature), files: { conversations: partitionFile('conversations', { projectId, date }) },
    bytes: { conversations: 100 }, exportedAt: 'x',
  });

  it('writes new, changed, missing-file and damaged-file partitions, keeps the rest, removes the gone', () => {
    const plan = planPartitions({
      current: [sig('a', '2026-01-01', 's1'), sig('a', '2026-01-02', 's2'), sig('a', '2026-01-03', 's3'), sig('a', '2026-01-04', 's6'), sig('b', '2026-01-01', 's4')],
      previous: [entry('a', '2026-01-01', 's1'), entry('a', '2026-01-02', 'old'), entry('a', '2026-01-03', 's3'), entry('a', '2026-01-04', 's6'), entry('c', '2026-01-01', 's5')],
      full: false,
      // 01-03 is gone from disk; 01-04 was truncated to 40 bytes.
      fileSize: (rel) => (rel.includes('2026-01-03') ? undefined : rel.includes('2026-01-04') ? 40 : 100),
    });
    expect(plan.write.map((w) => `${w.partition.projectId}/${w.partition.date}:${w.reason}`))
      .toEqual(['a/2026-01-02:changed', 'a/2026-01-03:missing-file', 'a/2026-01-04:damaged-file', 'b/2026-01-01:new']);
    expect(plan.keep.map((e) => e.date)).toEqual(['2026-01-01']);
    expect(plan.remove.map((e) => e.projectId)).toEqual(['c']);
  });

  it('trusts any size for an entry of a manifest that recorded none', () => {
    const { bytes: _, ...old } = entry('a', '2026-01-01', 's1');
    const plan = planPartitions({ current: [sig('a', '2026-01-01', 's1')], previous: [old], full: false, fileSize: () => 7 });
    expect(plan.keep).toHaveLength(1);
  });

  it('--full writes everything', () => {
    const plan = planPartitions({ current: [sig('a', '2026-01-01', 's1')], previous: [entry('a', '2026-01-01', 's1')], full: true, fileSize: () => 100 });
    expect(plan.write.map((w) => w.reason)).toEqual(['full']);
  });
});
