// One landed-page definition (issue 38): the writer writes LANDED_VERSION, every reader refuses any
// other version with UnknownLandedVersionError, and the read_json column spec built from
// LANDED_FIELDS reads a page as the landing zone wrote it (real DuckDB, real files).
import { existsSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { UnknownLandedVersionError } from '../../src/core/errors.js';
import { LANDED_VERSION, landedColumns, serializeLanded, splitLanded, type LandedPage } from '../../src/sync/pipeline/landed-page.js';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-landed-format-');
afterAll(() => tmp.cleanup());

const page = (seq: number, v = LANDED_VERSION): LandedPage => ({
  v, project_id: 'p1', pipeline: 'feedback', organization: 'org', seq, run_id: 'R1', fetched_at: '2026-11-27T10:00:00.000Z',
  requests: 1, records: 2, quarantined: 1,
  window: { id: 'W1', from: '2026-11-27T09:00:00.000Z', to: '2026-11-27T10:00:00.000Z', purpose: 'head', key: 'k' },
  request: { cursor: null, offset: null }, next: { cursor: 'c2', offset: null, complete: false, truncated: true }, window_limit_ms: 3_600_000,
  invalid: [{ i: 1, error: 'bad', raw: { id: 2 } }], x: [null], valid: [{ id: 1 }],
});

describe('the landed page format', () => {
  it('read_json with the spec from LANDED_FIELDS reads every field the zone wrote', async () => {
    const zone = new LandingZone(tmp.dir);
    const file = zone.land(page(1), '{"records":[]}');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const fields = ['v', 'project_id', 'seq', 'run_id', 'fetched_at', 'records', 'window', 'next', 'window_limit_ms', 'invalid'] as const;
    const rows = (await conn.runAndReadAll(`SELECT v, project_id, seq::INTEGER AS seq, "window".id AS wid, "window"."key" AS wkey, next.truncated AS truncated,
        window_limit_ms::INTEGER AS lim, invalid[1].error AS err, epoch_ms(fetched_at)::BIGINT::VARCHAR AS at
      FROM read_json('${file.path}', format = 'unstructured', columns = {${landedColumns(fields)}})`)).getRowObjectsJson();
    conn.closeSync();
    expect(rows).toEqual([{ v: LANDED_VERSION, project_id: 'p1', seq: 1, wid: 'W1', wkey: 'k', truncated: true, lim: 3_600_000, err: 'bad',
      at: String(Date.parse('2026-11-27T10:00:00.000Z')) }]);
    expect(zone.list({ projectId: 'p1', pipeline: 'feedback' }).map((f) => f.meta.v)).toEqual([LANDED_VERSION]);
  });

  it('a page of an unknown version is refused by the zone and by the kept-page reader, naming the file', () => {
    const zone = new LandingZone(tmp.dir);
    const file = zone.land(page(2, 99), '{"records":[]}');
    expect(() => zone.list({ projectId: 'p1', pipeline: 'feedback' })).toThrow(UnknownLandedVersionError);
    expect(() => zone.list({ projectId: 'p1', pipeline: 'feedback' })).toThrow(`landed page ${file.path} has format version 99; this docs-etl reads version ${LANDED_VERSION}`);
    const text = serializeLanded(page(3, 2), '{}').toString('utf8');
    expect(() => splitLanded(text, 'kept.json.gz')).toThrow(UnknownLandedVersionError);
    expect(splitLanded(serializeLanded(page(4), '{}').toString('utf8'), 'k').page.seq).toBe(4);
    // The refused page is not dropped: a newer docs-etl can still merge it.
    expect(existsSync(file.path)).toBe(true);
  });
});
