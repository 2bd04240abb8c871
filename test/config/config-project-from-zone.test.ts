// A zoned project's `from` (issue 34, item 6): a bare date is midnight in the project's zone, the
// day its reports count from; a time with an offset stays that instant; UTC projects unchanged.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveSyncConfig } from '../../src/config/sync-config.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-project-from-');
afterAll(() => tmp.cleanup());

const fromOf = (project: Record<string, unknown>) => {
  const config = join(tmp.dir, `${String(project.id)}.json`);
  writeFileSync(config, JSON.stringify({ warehouse: 'w.duckdb', projects: [{ apiKeyEnv: 'K', ...project }] }));
  return resolveSyncConfig({ config }, { K: 'mint_from_zone_key_1234' }, new Date('2026-11-27T12:00:00Z')).projects[0]!.backfillFrom?.toISOString();
};

describe('config projects[].from', () => {
  it('is midnight in the project zone for a bare date', () => {
    expect(fromOf({ id: 'tokyo', timezone: 'Asia/Tokyo', from: '2026-11-01' })).toBe('2026-10-31T15:00:00.000Z');
    expect(fromOf({ id: 'newyork', timezone: 'America/New_York', from: '2026-11-01' })).toBe('2026-11-01T04:00:00.000Z');
    expect(fromOf({ id: 'newyork-dst', timezone: 'America/New_York', from: '2026-11-02' })).toBe('2026-11-02T05:00:00.000Z');
  });

  it('keeps an instant with an offset, and UTC midnight for a UTC project', () => {
    expect(fromOf({ id: 'instant', timezone: 'Asia/Tokyo', from: '2026-11-01T00:00:00Z' })).toBe('2026-11-01T00:00:00.000Z');
    expect(fromOf({ id: 'utc', from: '2026-11-01' })).toBe('2026-11-01T00:00:00.000Z');
  });
});
