// The merge's "one read per key" is generated from a pipeline's declared key and tie-break
// (src/sync/load/one-read-per-key.ts). Run against a real in-memory DuckDB: two reads of one key, pages
// staged out of order, reads in one page (ties on the page sequence), records DuckDB refused, and
// the real stage SQL of a pipeline of each tie-break.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { feedback, searches, assistantThreads } from '../../pipelines/index.js';
import { keepOneReadPerKey, oneReadPerKeySql } from '../../src/sync/load/one-read-per-key.js';
import { sqlFile } from '../../src/warehouse/sql-files.js';
import type { PipelineDefinition } from '../../src/sync/pipeline/definition.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeEach(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});
afterEach(() => {
  conn.closeSync();
  instance.closeSync();
});

const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();

/** A stage_all of (project_id, id, v) read on pages `seq` at positions `ord`, inserted in the order given. */
async function stage(reads: readonly [id: string, seq: number, ord: number, v: string][], opts: { reject?: boolean } = {}): Promise<void> {
  await conn.run(`CREATE OR REPLACE TEMP TABLE stage_all (project_id VARCHAR, id VARCHAR, seq UBIGINT, ord BIGINT, v VARCHAR${opts.reject ? ', reject VARCHAR' : ''})`);
  for (const [id, seq, ord, v] of reads) {
    await conn.run(`INSERT INTO stage_all VALUES ('p', $id, $seq, $ord, $v${opts.reject ? `, CASE WHEN $v LIKE 'bad%' THEN 'refused' END` : ''})`, { id, seq, ord, v });
  }
}
const kept = () => rows('SELECT id, v FROM stage_all ORDER BY id, v');

describe('generated one read per key', () => {
  // Pages staged out of order: the newest page (seq 7) is inserted first.
  const reads: [string, number, number, string][] = [
    ['a', 7, 2, 'a@7.2'], ['b', 3, 1, 'b@3.1'], ['a', 2, 1, 'a@2.1'], ['a', 7, 1, 'a@7.1'], ['b', 5, 9, 'b@5.9'], ['c', 4, 4, 'c@4.4'],
  ];

  it("'latest' keeps the highest page sequence, then the last position in that page", async () => {
    await stage(reads);
    await conn.run(oneReadPerKeySql(['project_id', 'id'], 'latest', { rejects: false }));
    expect(await kept()).toEqual([{ id: 'a', v: 'a@7.2' }, { id: 'b', v: 'b@5.9' }, { id: 'c', v: 'c@4.4' }]);
  });

  it("'first' keeps the lowest page sequence, then the first position in that page", async () => {
    await stage(reads);
    await conn.run(oneReadPerKeySql(['project_id', 'id'], 'first', { rejects: false }));
    expect(await kept()).toEqual([{ id: 'a', v: 'a@2.1' }, { id: 'b', v: 'b@3.1' }, { id: 'c', v: 'c@4.4' }]);
  });

  it('ties on the page sequence are broken by the position in the page, for each tie-break', async () => {
    const page: [string, number, number, string][] = [['a', 1, 3, 'third'], ['a', 1, 1, 'first'], ['a', 1, 2, 'second']];
    await stage(page);
    await conn.run(oneReadPerKeySql(['project_id', 'id'], 'latest', { rejects: false }));
    expect(await kept()).toEqual([{ id: 'a', v: 'third' }]);
    await stage(page);
    await conn.run(oneReadPerKeySql(['project_id', 'id'], 'first', { rejects: false }));
    expect(await kept()).toEqual([{ id: 'a', v: 'first' }]);
  });

  it('the whole declared key partitions: reads that differ in any key column are all kept', async () => {
    await stage([['a', 1, 1, 'x'], ['a', 2, 1, 'y'], ['a', 3, 1, 'x']]);
    // key (project_id, id, v): 'x' is read twice, 'y' once
    await conn.run(oneReadPerKeySql(['project_id', 'id', 'v'], 'latest', { rejects: false }));
    expect(await rows('SELECT v, seq FROM stage_all ORDER BY v')).toEqual([{ v: 'x', seq: 3n }, { v: 'y', seq: 2n }]);
  });

  it('records DuckDB refused compete for nothing: each stays for quarantine, and a refused later read does not replace a good one', async () => {
    await stage([['a', 1, 1, 'good'], ['a', 2, 1, 'bad-1'], ['a', 3, 1, 'bad-2']], { reject: true });
    await conn.run(oneReadPerKeySql(['project_id', 'id'], 'latest', { rejects: true }));
    expect(await kept()).toEqual([{ id: 'a', v: 'bad-1' }, { id: 'a', v: 'bad-2' }, { id: 'a', v: 'good' }]);
  });

  it('quotes the declared identifiers (a column named like SQL still partitions)', async () => {
    await conn.run(`CREATE OR REPLACE TEMP TABLE stage_all ("select" VARCHAR, "we""ird" VARCHAR, seq UBIGINT, ord BIGINT)`);
    await conn.run(`INSERT INTO stage_all VALUES ('k', 'w', 1, 1), ('k', 'w', 2, 1), ('k', 'z', 1, 1)`);
    await conn.run(oneReadPerKeySql(['select', 'we"ird'], 'latest', { rejects: false }));
    expect(await rows('SELECT "select", "we""ird" AS w, seq FROM stage_all ORDER BY w')).toEqual([
      { select: 'k', w: 'w', seq: 2n }, { select: 'k', w: 'z', seq: 1n },
    ]);
  });
});

describe('keepOneReadPerKey (from the declaration)', () => {
  it('names a key column the stage SQL does not produce as the declaration error', async () => {
    await stage([['a', 1, 1, 'x']]);
    const p = { ...feedback, key: ['project_id', 'entry_id'] } as unknown as PipelineDefinition;
    await expect(keepOneReadPerKey(conn, p)).rejects.toThrow(/^pipeline feedback: its stage SQL .* has no column entry_id for its declared key/);
  });

  it('leaves the batch to a pipeline that declares its own rule', async () => {
    await stage([['a', 1, 1, 'x'], ['a', 2, 1, 'y']]);
    const p = { ...assistantThreads, key: ['project_id', 'id'] } as unknown as PipelineDefinition;
    await keepOneReadPerKey(conn, p);
    expect(await kept()).toHaveLength(2);
  });

  it('feedback (default: latest) over its real stage SQL: the newest read of an entry wins, a refused date goes to quarantine', async () => {
    await conn.run(`CREATE TEMP VIEW landed AS SELECT * FROM (VALUES
      ('p', 'r1', 'w1', 1::UBIGINT, 1, {'id': 'e1', 'createdAt': '2026-11-01T10:00:00Z', 'status': 'pending'}),
      ('p', 'r2', 'w2', 2::UBIGINT, 1, {'id': 'e1', 'createdAt': '2026-11-01T10:00:00Z', 'status': 'resolved'}),
      ('p', 'r2', 'w2', 2::UBIGINT, 2, {'id': 'e1', 'createdAt': '2026-13-45T10:00:00Z', 'status': 'later-but-refused'}),
      ('p', 'r1', 'w1', 1::UBIGINT, 2, {'id': 'e2', 'createdAt': '2026-11-01T11:00:00Z', 'status': 'pending'})
    ) t(project_id, run_id, window_id, seq, ord, r0)`.replace('SELECT * FROM', `SELECT project_id, run_id, window_id, seq, ord,
      struct_insert(r0, path := NULL::VARCHAR, comment := NULL::VARCHAR, source := NULL::VARCHAR, helpful := NULL::BOOLEAN,
        contact := NULL::VARCHAR, code := NULL::VARCHAR, filename := NULL::VARCHAR, lang := NULL::VARCHAR) AS r, NULL::JSON AS extra FROM`));
    await conn.run(sqlFile(feedback.load.stage));
    await keepOneReadPerKey(conn, feedback);
    expect(await rows('SELECT id, status, seq FROM stage ORDER BY id')).toEqual([
      { id: 'e1', status: 'resolved', seq: 2n }, { id: 'e2', status: 'pending', seq: 1n },
    ]);
    expect(await rows('SELECT error FROM stage_rejects')).toEqual([{ error: 'createdAt: "2026-13-45T10:00:00Z" is not a date-time DuckDB can store' }]);
  });

  it("searches ('first') over its real stage SQL: a term repeated in a day's answer keeps its first place, and the ranks after it do not move", async () => {
    await conn.run('CREATE TEMP TABLE projects (project_id VARCHAR, timezone VARCHAR)');
    await conn.run(`CREATE TEMP VIEW landed_pages AS SELECT 'p' AS project_id, 'w1' AS window_id, TIMESTAMPTZ '2026-11-01 00:00:00+00' AS window_from,
      false AS truncated, {'totalSearches': 9} AS page`);
    const term = (q: string, hits: number) => `{'searchQuery': '${q}', 'hits': ${hits}, 'ctr': NULL::DOUBLE, 'topClickedPage': NULL::VARCHAR, 'lastSearchedAt': NULL::VARCHAR}`;
    await conn.run(`CREATE TEMP VIEW landed AS SELECT * FROM (VALUES
      ('p', 'r1', 'w1', TIMESTAMPTZ '2026-11-01 00:00:00+00', 5::UBIGINT, 3, ${term('gamma', 3)}),
      ('p', 'r1', 'w1', TIMESTAMPTZ '2026-11-01 00:00:00+00', 5::UBIGINT, 1, ${term('alpha', 9)}),
      ('p', 'r1', 'w1', TIMESTAMPTZ '2026-11-01 00:00:00+00', 5::UBIGINT, 2, ${term('beta', 5)}),
      ('p', 'r1', 'w1', TIMESTAMPTZ '2026-11-01 00:00:00+00', 5::UBIGINT, 4, ${term('alpha', 1)})
    ) t(project_id, run_id, window_id, window_from, seq, ord, r)`);
    await conn.run(sqlFile(searches.load.stage));
    await keepOneReadPerKey(conn, searches);
    expect(await rows('SELECT search_query, hits, rank FROM stage ORDER BY rank')).toEqual([
      { search_query: 'alpha', hits: 9n, rank: 1 }, { search_query: 'beta', hits: 5n, rank: 2 }, { search_query: 'gamma', hits: 3n, rank: 3 },
    ]);
  });
});
