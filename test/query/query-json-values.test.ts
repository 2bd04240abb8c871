// `docs-etl query --format json` (issue 34, item 6): numbers are JSON numbers (a BIGINT beyond 2^53
// a string, no digit lost), instants ISO 8601 with Z, dates YYYY-MM-DD; statements run in order,
// so a SET VARIABLE is seen by the statement after it. Real CLI process, real DuckDB snapshot.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { publishSnapshot } from '../../src/sync/publish/snapshot.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = tempDir('docs-etl-query-json-');
const warehouse = join(tmp.dir, 'state', 'w.duckdb');

beforeAll(async () => {
  const wh = await openWarehouse(warehouse);
  await wh.conn.run("INSERT INTO projects (project_id, timezone, updated_at) VALUES ('demo', 'Europe/Berlin', TIMESTAMPTZ '2026-11-05 02:00:00.123456+00')");
  await publishSnapshot(wh.conn, warehouse, join(tmp.dir, 'state', 'read', 'w.duckdb'));
  wh.close();
});
afterAll(() => tmp.cleanup());

const query = async (sql: string, format = 'json') => {
  const r = await runCli(['query', '--warehouse', warehouse, '--format', format, sql], cliEnv({ LOG_LEVEL: 'warn' }));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
};

describe('query --format json: typed values', () => {
  it('gives numbers as numbers, big integers as strings, instants as ISO 8601, dates as YYYY-MM-DD', async () => {
    const out = await query(`SELECT count(*) AS n, 42::BIGINT AS big, 9007199254740993::BIGINT AS huge,
      170141183460469231731687303715884105727::HUGEINT AS hugeint, 12.50::DECIMAL(6,2) AS dec, 0.25::DOUBLE AS dbl,
      updated_at, DATE '2026-11-05' AS day, TIMESTAMP '2026-11-05 02:00:00' AS naive, [1::BIGINT, 2] AS list
      FROM projects GROUP BY updated_at`);
    expect(JSON.parse(out)).toEqual([{
      n: 1, big: 42, huge: '9007199254740993', hugeint: '170141183460469231731687303715884105727', dec: 12.5, dbl: 0.25,
      updated_at: '2026-11-05T02:00:00.123456Z', day: '2026-11-05', naive: '2026-11-05T02:00:00.000', list: [1, 2],
    }]);
  });

  it('keeps the instant in UTC whatever the session zone', async () => {
    const r = await runCli(['query', '--warehouse', warehouse, '--format', 'json', '--time-zone', 'Asia/Tokyo', 'SELECT updated_at FROM projects'], cliEnv({ LOG_LEVEL: 'warn' }));
    expect(JSON.parse(r.stdout)).toEqual([{ updated_at: '2026-11-05T02:00:00.123456Z' }]);
  });

  it('leaves csv as DuckDB prints it', async () => {
    expect(await query('SELECT 42::BIGINT AS big, updated_at FROM projects', 'csv')).toBe('big,updated_at\r\n42,2026-11-05 02:00:00.123456+00\r\n');
  });
});

describe('query: statements run in order', () => {
  it('SET VARIABLE is seen by the next statement', async () => {
    // One JSON array per statement that has columns: the SET's (empty), then the SELECT's.
    const lines = (await query("SET VARIABLE x = 41; SELECT getvariable('x') + 1 AS y")).trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toEqual([{ y: 42 }]);
  });

  it('a refused statement after a read still stops before anything runs', async () => {
    const r = await runCli(['query', '--warehouse', warehouse, '--format', 'json', 'SELECT 1 AS one; INSERT INTO projects VALUES (1)'], cliEnv({ LOG_LEVEL: 'warn' }));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/refused/);
  });
});
