// `docs-etl query` is read-only in fact (issue 23): every path to write a file or read one outside
// the snapshot is refused with one line (exit 2) and leaves the writer's file and the snapshot
// byte-identical; settings are locked but for the query's own flags; Ctrl-C and SIGTERM stop a
// runaway query within a second; --timeout stops it; before the first publish there is no
// snapshot, and the writer's file is not opened instead. Real DuckDB files; the CLI's own `main`
// in-process for the many refusals and reads (the same parsing, refusal and one-line error path a
// process runs, without a Node start and DuckDB load per case), real CLI processes for what only a
// process shows: signals, --timeout, streaming memory, and a refusal end to end.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { publishSnapshot } from '../../src/sync/publish/snapshot.js';
import { BIN, cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';
import { PRELOAD } from '../hostile/hostile.js';

const tmp = tempDir('docs-etl-query-safety-');
const warehouse = join(tmp.dir, 'state', 'w.duckdb');
const snapshot = join(tmp.dir, 'state', 'read', 'w.duckdb');
const secret = join(tmp.dir, 'elsewhere', 'secret.csv');
const env = cliEnv({ LOG_LEVEL: 'warn' });
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** `docs-etl query …` run by the CLI's `main` in this process. */
const query = (args: string[]) => runMain(['query', ...args], env);
const RUNAWAY = 'SELECT sum(hash(i)) FROM range(1000000000000::BIGINT) t(i)';

beforeAll(async () => {
  const wh = await openWarehouse(warehouse);
  await wh.conn.run("INSERT INTO projects (project_id, timezone, updated_at) VALUES ('demo', 'UTC', now())");
  await publishSnapshot(wh.conn, warehouse, snapshot);
  wh.close();
  mkdirSync(join(tmp.dir, 'elsewhere'));
  writeFileSync(secret, 'user,password\nroot,hunter2\n');
});
afterAll(() => tmp.cleanup());

describe('query: read-only in fact', () => {
  const out = (name: string) => join(tmp.dir, 'elsewhere', name);
  it.each([
    ['log_query_path over the writer file', `SET log_query_path = '${warehouse}'`, /configuration has been locked/],
    ['profiling_output', `SET profiling_output = '${out('profile.txt')}'`, /configuration has been locked/],
    ['enable profiling', 'PRAGMA enable_profiling', /PRAGMA statement is refused/],
    ['memory_limit of 100GB', "SET memory_limit = '100GB'", /configuration has been locked.*--memory-limit/],
    ['RESET memory_limit', 'RESET memory_limit', /configuration has been locked/],
    ['external access back on', 'SET enable_external_access = true', /configuration has been locked/],
    ['unlocking', 'SET lock_configuration = false', /configuration has been locked/],
    ['read_text of another file', `SELECT * FROM read_text('${secret}')`, /file system operations are disabled/],
    ['read_csv of another file', `SELECT * FROM read_csv('${secret}')`, /file system operations are disabled/],
    ['glob', `SELECT * FROM glob('${tmp.dir}/*')`, /file system operations are disabled/],
    ['a file as a table', `SELECT * FROM '${secret}'`, /does not exist|file system operations are disabled/],
    ['COPY to a file', `COPY (SELECT 1) TO '${out('copy.csv')}'`, /COPY statement is refused|file system operations are disabled/],
    ['EXPORT DATABASE', `EXPORT DATABASE '${out('export')}'`, /statement is refused|file system operations are disabled/],
    ['ATTACH the writer file', `ATTACH '${warehouse}' AS w`, /ATTACH statement is refused/],
    ['LOAD an extension', 'LOAD httpfs', /statement is refused/],
    // Issue 33, item 6: the allow-list is of read-only table functions, wherever they are called.
    ['CALL enable_logging to a file (aborted the process)', `CALL enable_logging(storage='file', storage_path='${out('logs')}')`, /table function enable_logging is refused/],
    ['CALL enable_logging(level=trace)', "CALL enable_logging(level='trace')", /table function enable_logging is refused/],
    ['enable_logging in a FROM', "SELECT * FROM enable_logging(level='trace')", /table function enable_logging is refused/],
    ['enable_logging in a CTE', 'WITH t AS (SELECT * FROM enable_logging()) SELECT 1 FROM t', /table function enable_logging is refused/],
    ['EXPLAIN ANALYZE of enable_logging', 'EXPLAIN ANALYZE SELECT * FROM enable_logging()', /table function enable_logging is refused/],
    ['enable_logging in a SET VARIABLE', 'SET VARIABLE x = (SELECT count(*) FROM enable_logging()); SELECT 1', /table function enable_logging is refused/],
    ['enable_logging after a SELECT', 'SELECT 1 AS a; CALL enable_logging()', /table function enable_logging is refused/],
    ['CALL disable_logging', 'CALL disable_logging()', /table function disable_logging is refused/],
    ['CALL truncate_duckdb_logs', 'CALL truncate_duckdb_logs()', /table function truncate_duckdb_logs is refused/],
    ['SQL text run by query()', "SELECT * FROM query('SELECT 1')", /table function query is refused/],
    ['PRAGMA disable_profiling', 'PRAGMA disable_profiling', /PRAGMA statement is refused/],
  ])('%s: refused with one line, exit 2; no file written; the warehouse and snapshot byte-identical', async (_name, sql, message) => {
    const before = [sha(warehouse), sha(snapshot)];
    const r = await query(['--warehouse', warehouse, sql]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toContain('hunter2');
    expect([sha(warehouse), sha(snapshot)]).toEqual(before);
    for (const f of ['profile.txt', 'copy.csv', 'export', 'logs']) expect(existsSync(out(f))).toBe(false);
  });

  // The same refusals from a real process: the one that aborted it, and the locked configuration.
  it('end to end: a refused statement is one line and exit 2 from the CLI process too', async () => {
    const before = [sha(warehouse), sha(snapshot)];
    const [logging, locked] = await Promise.all([
      runCli(['query', '--warehouse', warehouse, `CALL enable_logging(storage='file', storage_path='${out('logs')}')`], env),
      runCli(['query', '--warehouse', warehouse, "SET memory_limit = '100GB'"], env),
    ]);
    for (const [r, message] of [[logging, /table function enable_logging is refused/], [locked, /configuration has been locked.*--memory-limit/]] as const) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    expect([sha(warehouse), sha(snapshot)]).toEqual(before);
    expect(existsSync(out('logs'))).toBe(false);
  }, 60_000);

  it('reads still work: SELECT, CALL of a metadata function, DESCRIBE, SHOW TABLES, SUMMARIZE, EXPLAIN, SET VARIABLE, several statements', async () => {
    const run = async (sql: string) => {
      const r = await query(['--warehouse', warehouse, '--format', 'csv', sql]);
      expect(r.code, `${sql}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    expect(await run('SELECT count(*) AS n FROM projects')).toBe('n\r\n1\r\n');
    expect(await run("CALL duckdb_tables()")).toContain('projects');
    expect(await run("SELECT name FROM pragma_table_info('projects')")).toContain('project_id');
    expect(await run('DESCRIBE projects')).toContain('project_id');
    expect(await run('SHOW TABLES')).toContain('projects');
    expect(await run('SUMMARIZE projects')).toContain('project_id');
    expect(await run('EXPLAIN SELECT * FROM range(3)')).toContain('physical_plan');
    expect(await run("SELECT 'a;b' AS s; -- a comment; with a semicolon\nSELECT i FROM generate_series(1, 2) t(i)")).toBe('s\r\na;b\r\ni\r\n1\r\n2\r\n');
    expect(await run("SET VARIABLE x = 41; SELECT 1 AS one")).toContain('one');
  }, 240_000);

  it('its own settings: a default memory limit of 1GB, --memory-limit up to 16GiB, --time-zone', async () => {
    const sql = "SELECT current_setting('memory_limit') AS m, current_setting('TimeZone') AS tz, (SELECT count(*) FROM projects) AS n";
    const d = await query(['--warehouse', warehouse, '--format', 'json', sql]);
    expect(JSON.parse(d.stdout)).toEqual([{ m: '953.6 MiB', tz: 'UTC', n: 1 }]);
    const set = await query(['--warehouse', warehouse, '--format', 'json', '--memory-limit', '2GB', '--time-zone', 'Europe/Paris', sql]);
    expect(JSON.parse(set.stdout)).toEqual([{ m: '1.8 GiB', tz: 'Europe/Paris', n: 1 }]);
    const big = await query(['--warehouse', warehouse, '--memory-limit', '100GB', sql]);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/at most 16GiB/);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s stops a runaway query within a second: exit 1, saying so', async (sig) => {
    const child = spawnCli(['query', '--warehouse', warehouse, RUNAWAY], cliEnv({ LOG_LEVEL: 'debug' }));
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    await waitFor(() => stderr.includes('"query running"'), 30_000, 20);
    // It runs: a while later it has not finished.
    await new Promise((r) => setTimeout(r, 500));
    expect(child.exitCode).toBeNull();
    const sent = performance.now();
    child.kill(sig);
    const r = await child.result;
    expect(performance.now() - sent).toBeLessThan(1000);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/docs-etl: error: query interrupted by a signal\n$/);
  });

  it('--timeout stops a runaway query', async () => {
    const t = performance.now();
    const r = await runCli(['query', '--warehouse', warehouse, '--timeout', '1s', RUNAWAY], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('docs-etl: error: query stopped after --timeout 1s\n');
    expect(performance.now() - t).toBeLessThan(10_000);
  });

  it('a million-row result streams to the output: every row written, memory flat (csv and json)', async () => {
    const sql = "SELECT i, repeat('x', 80) AS pad FROM range(1000000) t(i)";
    for (const format of ['csv', 'json'] as const) {
      const outFile = join(tmp.dir, `big.${format}`);
      const peakFile = join(tmp.dir, `big-${format}.peak`);
      const fd = openSync(outFile, 'w');
      const child = spawn(process.execPath, ['--import', PRELOAD, BIN, 'query', '--warehouse', warehouse, '--format', format, sql], {
        env: { ...env, HOSTILE_PEAK_FILE: peakFile }, stdio: ['ignore', fd, 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
      closeSync(fd);
      expect(code, stderr).toBe(0);
      const text = readFileSync(outFile, 'utf8');
      if (format === 'csv') {
        const lines = text.split('\r\n');
        expect(lines).toHaveLength(1_000_002); // header, rows, the empty string after the last CRLF
        expect(lines[1_000_000]).toBe(`999999,${'x'.repeat(80)}`);
      } else {
        const rows = JSON.parse(text) as { i: number }[]; // BIGINT within 2^53: a number, exact
        expect(rows).toHaveLength(1_000_000);
        expect(rows[999_999]!.i).toBe(999_999);
      }
      // The whole result held at once took about 1 GB; streamed, the process stays near its base.
      const peakMb = Number(readFileSync(peakFile, 'utf8')) / 1024;
      console.log(`query --format ${format}, 1,000,000 rows: peak RSS ${Math.round(peakMb)} MB`);
      expect(peakMb, `${format} peak RSS`).toBeLessThan(400);
    }
  }, 120_000);

  it('csv over many chunks keeps one header even when a column name holds a line break; an empty result is a valid document', async () => {
    // Visitors' text reaches column names through pivots and aliases: a quoted header field may
    // hold CRLF. 5,000 rows arrive in three chunks of DuckDB's vectors.
    const sql = 'SELECT i AS "line\r\nbreak", \'a,"b"\' AS "quote""d" FROM range(5000) t(i)';
    const csv = await query(['--warehouse', warehouse, '--format', 'csv', sql]);
    expect(csv.code, csv.stderr).toBe(0);
    const file = join(tmp.dir, 'chunks.csv');
    writeFileSync(file, csv.stdout);
    const wh = await openWarehouse(':memory:');
    try {
      const back = (await wh.conn.runAndReadAll(`SELECT * FROM read_csv('${file}', header = true, quote = '"', escape = '"', delim = ',')`)).getRowObjectsJS();
      expect(back).toHaveLength(5000);
      expect(Object.keys(back[0]!)).toEqual(['line\r\nbreak', 'quote"d']);
      expect(back[4999]).toEqual({ 'line\r\nbreak': 4999n, 'quote"d': 'a,"b"' });
    } finally {
      wh.close();
    }
    for (const [format, expected] of [['csv', 'x\r\n'], ['json', '[]\n']] as const) {
      const empty = await query(['--warehouse', warehouse, '--format', format, 'SELECT 1 AS x WHERE false']);
      expect(empty.code, empty.stderr).toBe(0);
      expect(empty.stdout, format).toBe(expected);
    }
  });

  it('--timeout beyond what a timer holds (30d) or under 1s is refused with exit 2, never a query stopped at once', async () => {
    for (const bad of ['30d', '0s']) {
      const r = await query(['--warehouse', warehouse, '--timeout', bad, 'SELECT 1 AS one']);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--timeout.*expected a duration from 1s to 24d/);
    }
    const ok = await query(['--warehouse', warehouse, '--timeout', '24d', '--format', 'csv', 'SELECT 1 AS one']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('one\r\n1\r\n');
  });

  it('before the first publish: "no read snapshot yet", exit 1; the writer file is not opened (a sync may take it)', async () => {
    const fresh = join(tmp.dir, 'fresh', 'w.duckdb');
    (await openWarehouse(fresh)).close();
    const before = sha(fresh);
    const r = await query(['--warehouse', fresh, 'SELECT 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`docs-etl: error: no read snapshot yet: the first sync publishes it (${join(tmp.dir, 'fresh', 'read', 'w.duckdb')})\n`);
    expect(sha(fresh)).toBe(before);
  });
});
