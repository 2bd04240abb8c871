// Values are bound, never spliced into SQL text (issue 38): a merge file of several statements runs
// through runStatements (src/warehouse/run-statements.ts), DuckDB's parser splitting it and each
// statement bound with the values it names. Real in-memory DuckDB. A hostile value (a quote, `$now`,
// `{lo}`, a `;` and a comment) must arrive in the table as it was given; a `;` or `$name` inside a
// comment or a string literal of the SQL must not split it or be replaced.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FatalError } from '../../src/core/errors.js';
import { runStatements } from '../../src/warehouse/run-statements.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeEach(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  await conn.run('CREATE TABLE t (id INTEGER, v VARCHAR, ts TIMESTAMPTZ, note VARCHAR)');
});
afterEach(() => {
  conn.closeSync();
  instance.closeSync();
});

const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();

const HOSTILE = `it's $now; {lo} '); DROP TABLE t; -- {hi}`;

// Three statements; the second names no value; comments and a literal hold `;`, `$now` and `{lo}`.
const SCRIPT = `-- a comment with a ; and $now and {lo} in it
INSERT INTO t VALUES (1, $v, CAST($now AS TIMESTAMPTZ), '$now; {lo}');
CREATE OR REPLACE TEMP TABLE copy AS SELECT * FROM t; -- ; $hi
INSERT INTO t SELECT id + 1, v, CAST($lo AS TIMESTAMPTZ), note FROM copy WHERE ts >= CAST($lo AS TIMESTAMPTZ) OR $lo IS NULL;`;

describe('runStatements', () => {
  it('binds each statement the values it names: a hostile value and the SQL text both arrive unchanged', async () => {
    await runStatements(conn, SCRIPT, { v: HOSTILE, now: '2026-11-28T01:02:03.000Z', lo: '2026-11-01 00:00:00+00' });
    const got = await rows(`SELECT id, v, strftime(timezone('UTC', ts), '%Y-%m-%dT%H:%M:%S') AS ts, note FROM t ORDER BY id`);
    expect(got).toEqual([
      { id: 1, v: HOSTILE, ts: '2026-11-28T01:02:03', note: '$now; {lo}' },
      { id: 2, v: HOSTILE, ts: '2026-11-01T00:00:00', note: '$now; {lo}' },
    ]);
  });

  it('binds a null value as SQL NULL', async () => {
    await runStatements(conn, SCRIPT, { v: null, now: '2026-11-28T01:02:03.000Z', lo: null });
    expect(await rows('SELECT id, v, ts IS NULL AS no_ts FROM t ORDER BY id')).toEqual([
      { id: 1, v: null, no_ts: false },
      { id: 2, v: null, no_ts: true },
    ]);
  });

  it('refuses a statement naming a value not given, before running it, and names it', async () => {
    const run = runStatements(conn, SCRIPT, { v: 'x', now: '2026-11-28T01:02:03.000Z' });
    await expect(run).rejects.toThrow(FatalError);
    await expect(runStatements(conn, SCRIPT, { v: 'x', now: '2026-11-28T01:02:03.000Z' })).rejects.toThrow(/\$lo\b/);
    expect((await rows('SELECT count(*) AS n FROM t'))[0]!.n).toBe(2n); // the first statement ran, twice; the third never
  });

  it('calls afterEach with each statement\'s number, in order, once per statement (the topic step times each)', async () => {
    const marks: number[] = [];
    await runStatements(conn, SCRIPT, { v: 'x', now: '2026-11-28T01:02:03.000Z', lo: null }, { afterEach: (k) => marks.push(k) });
    expect(marks).toEqual([1, 2, 3]);
  });

  it('runs a statement again when `each` asks (the topic step, at the whole limit after it ran out of the step pool)', async () => {
    // As retryAtWholeLimit: the statement has run (and failed), then the same statement runs again.
    await runStatements(conn, 'INSERT INTO t (id, v) VALUES (1, $v); INSERT INTO t (id) VALUES (2)', { v: 'x' }, {
      each: async (_k, run) => { await run(); await run(); },
    });
    expect(await rows('SELECT id, v FROM t ORDER BY id')).toEqual([{ id: 1, v: 'x' }, { id: 1, v: 'x' }, { id: 2, v: null }, { id: 2, v: null }]);
  });

  it('runs every statement in the caller\'s transaction: a rollback undoes them all', async () => {
    await conn.run('BEGIN TRANSACTION');
    await runStatements(conn, SCRIPT, { v: 'x', now: '2026-11-28T01:02:03.000Z', lo: null });
    expect((await rows('SELECT count(*) AS n FROM t'))[0]!.n).toBe(2n);
    await conn.run('ROLLBACK');
    expect((await rows('SELECT count(*) AS n FROM t'))[0]!.n).toBe(0n);
  });
});

// A static guard beside the behaviour tests: the old splice forms must not come back.
describe('no value spliced into SQL text', () => {
  const files = (dir: string, ext: string): string[] => readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, ext) : p.endsWith(ext) ? [p] : [];
  });

  it('no sql/ file has a {lo}/{hi}/{now} placeholder, and no src/ file replaces a $name or {lo} in SQL text', () => {
    const placeholders = files('sql', '.sql').filter((f) => /\{(lo|hi|now)\}/.test(readFileSync(f, 'utf8')));
    const splices = files('src', '.ts').filter((f) => /\.replace(All)?\(\s*['"`](\$\w+|\{(lo|hi|now)\})['"`]/.test(readFileSync(f, 'utf8')));
    expect({ placeholders, splices }).toEqual({ placeholders: [], splices: [] });
  });
});

// Identifiers and literals DuckDB cannot bind are quoted by @duckdb/node-api's quotedIdentifier and
// quotedString (through src/core/sql-quoting.ts), never by a local helper: a quote doubled by hand,
// a name put between quotes by hand, a table name spliced bare. The exceptions write no DuckDB SQL.
describe('identifiers quoted by the library', () => {
  const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
  const FORMS: Record<string, RegExp> = {
    'a quote doubled by hand': /\.replace(All)?\(\s*(\/["']\/g|["'`]["']["'`])\s*,\s*["'`](""|'')["'`]\s*\)/,
    'a name or literal quoted by hand': /[(,]\s*"\$\{[^}]+\}"\s*[),]|'"'\s*\+|\+\s*'"'|"'"\s*\+|\+\s*"'"/,
    'a table name spliced bare': /\b(FROM|INTO|UPDATE|TABLE|JOIN)\s+\$\{[a-z]\w*\}/,
  };
  const ALLOWED: Record<string, string> = {
    // CSV fields (RFC 4180), not SQL.
    'src/cli/format-rows.ts: a quote doubled by hand': 'csv',
    // Statements for other engines (Spark, Snowflake), printed for the user; their DuckDB lines use the library.
    'src/outputs/lake/iceberg/lake-ddl.ts: a name or literal quoted by hand': 'spark',
    'src/outputs/lake/iceberg/lake-ddl.ts: a table name spliced bare': 'snowflake',
    // Variables that hold SQL already quoted by the library (a FROM clause; a catalog-qualified name).
    'src/sync/pipeline/replace-day-sql.ts: a table name spliced bare': 'source',
    'src/sync/publish/catalog.ts: a table name spliced bare': 'target',
  };

  it('no src/ file quotes SQL by hand', () => {
    const found = files('src').flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return Object.entries(FORMS).filter(([, re]) => re.test(text)).map(([form]) => `${f.split(sep).join('/')}: ${form}`);
    }).filter((hit) => !(hit in ALLOWED));
    expect(found).toEqual([]);
  });
});

describe('runStatements, many runs', () => {
  it('keeps nothing of a run once it returns: a merge file run once per page leaves no hash table behind', async () => {
    // A sync whose pages each merge alone (a slow API) runs its pipeline's merge.sql once per page:
    // the statements' hash tables (4 MiB and more each) were kept until garbage collection, and a
    // run of a dozen pages ran out of the default 128MB.
    await conn.run('CREATE TABLE target (project_id VARCHAR, id VARCHAR, v VARCHAR, h VARCHAR)');
    const hashTables = async () => Number((await rows("SELECT coalesce(sum(memory_usage_bytes) FILTER (WHERE tag = 'HASH_TABLE'), 0) AS b FROM duckdb_memory()"))[0]!.b);
    // The shape of sql/pipelines/feedback/merge.sql: match, MERGE with a conditional update, stats.
    const mergeFile = `CREATE OR REPLACE TEMP TABLE merge_match AS SELECT s.project_id, s.id, f.id IS NOT NULL AS stored FROM stage s
      LEFT JOIN (SELECT project_id, id, h FROM target WHERE project_id IN (SELECT DISTINCT project_id FROM stage)) f
        ON f.project_id = s.project_id AND f.id = s.id;
      MERGE INTO target f USING stage s ON f.project_id = s.project_id AND f.id = s.id
      WHEN MATCHED AND f.h IS DISTINCT FROM s.h THEN UPDATE SET v = s.v, h = s.h
      WHEN MATCHED THEN UPDATE SET v = s.v || $now
      WHEN NOT MATCHED THEN INSERT (project_id, id, v, h) VALUES (s.project_id, s.id, s.v, s.h);
      CREATE OR REPLACE TEMP TABLE merge_stats AS SELECT count(*) AS n FROM merge_match;`;
    for (let page = 0; page < 6; page++) {
      await conn.run('BEGIN');
      await conn.run(`CREATE OR REPLACE TEMP TABLE stage AS SELECT 'demo' AS project_id, 'id' || (range + $first) AS id, 'v' AS v, md5(range::VARCHAR) AS h FROM range(100)`, { first: page * 100 });
      await runStatements(conn, mergeFile, { now: ' (seen again)' });
      await conn.run('COMMIT');
      expect(await hashTables(), `after page ${page + 1}`).toBe(0);
    }
    expect(await rows('SELECT count(*) AS n FROM target')).toEqual([{ n: 600n }]);
  });
});
