// The oldest supported DuckDB reader (docs/readers.md, issue 34 item 1): DuckDB 1.2.0, through the
// dev dependency `duckdb-reader-oldest` (an npm alias of @duckdb/node-api 1.2.0, its own native
// binding), opens the read catalog a writer on today's DuckDB published, from another directory,
// both ways the docs state (the file itself; `ATTACH … (READ_ONLY)` with qualified names), and reads
// every table and view with the writer's rows. The warehouse is the shared pre-synced "every
// table" fixture (every pipeline, threads, a static export), its catalog published here.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishRead } from '../../src/sync/publish/read-surface.js';
import { WRITER_ONLY_TABLES } from '../../src/sync/publish/writer-only-tables.js';
import { sqlFolder } from '../../src/warehouse/sql-files.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { EVERY_TABLE_FIXTURE } from '../helpers/every-table-fixture.js';
import { presyncedWarehouse } from '../helpers/presynced.js';
import { tempDir } from '../helpers/tmp.js';

/** The oldest DuckDB a reader may run (docs/readers.md "Minimum DuckDB version of a reader"). */
const OLDEST = 'v1.2.0';
const OLDEST_MODULE = import.meta.resolve('duckdb-reader-oldest');
/** Views whose rows depend on now() (coverage_days ends today's day at now): compared by row count. */
const NOW_DEPENDENT = new Set(['coverage_days']);

interface Read { name: string; n: number; h: string }
interface ReaderAnswer { version: string; reads: (Read | { name: string; error: string })[] }

let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
let catalog: string;
let elsewhere: string;
let names: string[];

/**
 * One relation's row count and a digest of its rows (in one order), from a `prefix`ed name. Each row
 * as JSON: `to_json` writes the same text on 1.2 and 1.5, where a row's VARCHAR cast does not (1.5
 * quotes a struct's strings).
 */
function readSql(prefix: string, name: string): string {
  const row = 'to_json(r__)::VARCHAR';
  const rows = NOW_DEPENDENT.has(name) ? "''" : `coalesce(md5(string_agg(${row}, chr(10) ORDER BY ${row})), '')`;
  return `SELECT count(*)::INTEGER AS n, ${rows} AS h FROM ${prefix}"${name}" r__`;
}

// The reader's program: imports the old @duckdb/node-api by URL, opens `path` (`direct`: as its
// database; `attach`: ATTACH … AS docs (READ_ONLY) in an in-memory database), reads each relation
// on its own (so an error names it) and prints one JSON answer.
const READER = `
const [moduleUrl, path, how, namesJson, sqlJson] = process.argv.slice(1);
const { DuckDBInstance } = await import(moduleUrl);
const inst = how === 'direct' ? await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' }) : await DuckDBInstance.create(':memory:');
const conn = await inst.connect();
await conn.run("SET TimeZone = 'UTC'");
if (how === 'attach') await conn.run("ATTACH '" + path.replaceAll("'", "''") + "' AS docs (READ_ONLY)");
const version = String((await conn.runAndReadAll('SELECT version()')).getRows()[0][0]);
const reads = [];
const sql = JSON.parse(sqlJson);
for (const [i, name] of JSON.parse(namesJson).entries()) {
  try {
    const [n, h] = (await conn.runAndReadAll(sql[i])).getRows()[0];
    reads.push({ name, n: Number(n), h: String(h) });
  } catch (err) {
    reads.push({ name, error: String(err.message).split('\\n')[0] });
  }
}
process.stdout.write(JSON.stringify({ version, reads }));
`;

/** The old DuckDB in a child process started in `elsewhere`, reading every relation of the catalog. */
async function oldestReads(how: 'direct' | 'attach'): Promise<ReaderAnswer> {
  const prefix = how === 'attach' ? 'docs.' : '';
  const args = [OLDEST_MODULE, catalog, how, JSON.stringify(names), JSON.stringify(names.map((n) => readSql(prefix, n)))];
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', READER, ...args], { cwd: elsewhere, maxBuffer: 1 << 24 });
  return JSON.parse(stdout) as ReaderAnswer;
}

/** The writer's own answer: the warehouse itself on today's DuckDB, read-only, in UTC. */
async function writerReads(): Promise<Read[]> {
  const inst = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    await conn.run("SET TimeZone = 'UTC'");
    const out: Read[] = [];
    for (const name of names) {
      const [n, h] = (await conn.runAndReadAll(readSql('', name))).getRows()[0]!;
      out.push({ name, n: Number(n), h: String(h) });
    }
    return out;
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

beforeAll(async () => {
  tmp = tempDir('docs-etl-oldest-reader-');
  elsewhere = join(tmp.dir, 'elsewhere');
  mkdirSync(elsewhere);
  ({ warehouse } = await presyncedWarehouse(EVERY_TABLE_FIXTURE, join(tmp.dir, 'state')));
  // The catalog surface published in this test's own folder (a fresh read path: every file new).
  catalog = join(tmp.dir, 'state', 'bi', 'warehouse.duckdb');
  const wh = await openWarehouse(warehouse);
  try {
    await publishRead(wh.conn, warehouse, { readPath: catalog, readSurface: 'catalog', readGraceMs: 86_400_000 }, new Date(EVERY_TABLE_FIXTURE.now), true);
    const tables = (await wh.conn.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1")).getRows().map((r) => String(r[0]));
    names = [...tables.filter((t) => !WRITER_ONLY_TABLES.has(t)), ...sqlFolder('views').map((v) => /CREATE OR REPLACE VIEW (\w+)/.exec(v.sql)![1]!)];
  } finally {
    wh.close();
  }
}, 300_000);
afterAll(() => tmp?.cleanup());

describe(`the oldest supported DuckDB reader (${OLDEST})`, () => {
  let want: Read[];
  beforeAll(async () => {
    want = await writerReads();
    // Not vacuous: most relations hold rows.
    expect(want.length).toBeGreaterThan(30);
    expect(want.filter((r) => r.n > 0).length).toBeGreaterThan(20);
  }, 120_000);

  it('opening the catalog file directly, reads every table and view with the writer\'s rows', async () => {
    const got = await oldestReads('direct');
    expect(got.version).toBe(OLDEST);
    expect(got.reads).toEqual(want);
  }, 120_000);

  it('through ATTACH … (READ_ONLY) with qualified names, reads every table and view with the writer\'s rows', async () => {
    const got = await oldestReads('attach');
    expect(got.version).toBe(OLDEST);
    expect(got.reads).toEqual(want);
  }, 120_000);
});
