// `docs-etl lake ddl` checked per engine, after two exports (so each changed table's current
// metadata file is v2, not v1), in a lake folder whose path holds a quote and a space:
//   duckdb     every printed statement runs in a real DuckDB (its own parser and binder), with a
//              stand-in `iceberg_scan` table macro (no iceberg extension here) that returns the file
//              it is given: each view names exactly its table's current metadata file;
//   athena     every printed command runs in a real bash with a stub `aws` that prints its
//              arguments (the shell's own quoting): the --table-input is JSON naming the current file;
//   trino, snowflake, bigquery   nothing here runs them: each statement must match the grammar of
//              the engine's documentation (Trino register_table procedure; Snowflake CREATE ICEBERG
//              TABLE (Iceberg files in object storage) and ALTER ICEBERG TABLE … REFRESH; BigQuery
//              CREATE EXTERNAL TABLE … WITH CONNECTION … OPTIONS (format = 'ICEBERG', uris = [...]))
//              and name the current file;
//   spark      a Hadoop catalog reads version-hint.text: its warehouse is the lake's parent folder.
import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

let tmp: ReturnType<typeof tempDir>;
let lake: string;
beforeAll(async () => {
  tmp = tempDir('docs-etl-ddl-engines-');
  lake = join(tmp.dir, "o'brien lake");
  const wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
  try {
    await fillWarehouse(wh.conn, { days: 2, turnsPerDay: 3 });
    await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES }, { outDir: lake });
    await wh.conn.run(`UPDATE conversations SET query = 'again' WHERE id = 'conv-0-0'`);
    await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES }, { outDir: lake });
  } finally {
    wh.close();
  }
}, 120_000);
afterAll(() => tmp?.cleanup());

async function ddl(engine: string): Promise<string[]> {
  let out = '';
  let err = '';
  const sink = (f: (s: string) => void) => new Writable({ write(c, _e, cb) { f(String(c)); cb(); } });
  const code = await main(['node', 'docs-etl', 'lake', 'ddl', '--engine', engine, '--lake', lake], {
    stdout: sink((s) => { out += s; }), stderr: sink((s) => { err += s; }), signal: new AbortController().signal, env: { LOG_LEVEL: 'silent' },
  });
  expect(code, err).toBe(0);
  return out.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('--'));
}
const tableDir = (t: string) => pathToFileURL(join(lake, t)).href;
const currentName = (t: string) => `v${readFileSync(join(lake, t, 'metadata', 'version-hint.text'), 'utf8').trim()}.metadata.json`;
const current = (t: string) => `${tableDir(t)}/metadata/${currentName(t)}`;
const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;
const names = LAKE_TABLES.map((t) => t.name);

describe('docs-etl lake ddl, per engine', () => {
  it('the second export moved the changed table to v2', () => {
    expect(currentName('conversations')).toBe('v2.metadata.json');
  });

  it('duckdb: every statement runs in DuckDB; each view reads its table\'s current metadata file', async () => {
    const lines = await ddl('duckdb');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      await conn.run(`CREATE MACRO iceberg_scan(f) AS TABLE SELECT f AS metadata_file`);
      for (const line of lines) {
        const sql = line.replace(/--.*$/, '').replace(/^INSTALL iceberg; LOAD iceberg;\s*/, '').trim();
        if (sql) await conn.run(sql);
      }
      for (const t of names) {
        const got = (await conn.runAndReadAll(`SELECT metadata_file FROM docs."${t}"`)).getRows()[0]?.[0];
        expect(got, t).toBe(current(t));
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it('athena: every command runs in bash; its Glue table input names the current metadata file', async () => {
    const lines = (await ddl('athena')).filter((l) => l.startsWith('aws '));
    expect(lines).toHaveLength(names.length);
    for (const line of lines) {
      const args = execFileSync('bash', ['-c', `aws() { printf '%s\\0' "$@"; }\n${line}`], { encoding: 'utf8' }).split('\0');
      expect(args.slice(0, 4)).toEqual(['glue', 'update-table', '--database-name', 'docs']);
      const input = JSON.parse(args[args.indexOf('--table-input') + 1]!) as { Name: string; TableType: string; Parameters: Record<string, string>; StorageDescriptor: { Location: string } };
      expect(input.TableType).toBe('EXTERNAL_TABLE');
      expect(input.Parameters.table_type).toBe('ICEBERG');
      expect(input.Parameters.metadata_location, input.Name).toBe(current(input.Name));
      expect(input.StorageDescriptor.Location).toBe(tableDir(input.Name));
    }
  });

  it('trino: register_table with named arguments, one per table, naming the current file', async () => {
    const lines = (await ddl('trino')).filter((l) => l.startsWith('CALL'));
    expect(lines).toEqual(names.map((t) => `CALL iceberg.system.register_table(schema_name => 'docs', table_name => '${t}', `
      + `table_location => ${sqlString(tableDir(t))}, metadata_file_name => '${currentName(t)}');`));
  });

  it('snowflake: catalog integration OBJECT_STORE, CREATE ICEBERG TABLE … METADATA_FILE_PATH relative to the lake, ALTER … REFRESH', async () => {
    const lines = (await ddl('snowflake')).map((l) => l.replace(/\s+--.*$/, ''));
    expect(lines.slice(0, 2)).toEqual([
      'CREATE CATALOG INTEGRATION IF NOT EXISTS docs_lake_catalog CATALOG_SOURCE = OBJECT_STORE TABLE_FORMAT = ICEBERG ENABLED = TRUE;',
      'CREATE SCHEMA IF NOT EXISTS docs;',
    ]);
    expect(lines.slice(2)).toEqual(names.flatMap((t) => [
      `CREATE ICEBERG TABLE IF NOT EXISTS docs.${t} EXTERNAL_VOLUME = 'docs_lake_volume' CATALOG = 'docs_lake_catalog' METADATA_FILE_PATH = '${t}/metadata/${currentName(t)}';`,
      `ALTER ICEBERG TABLE docs.${t} REFRESH '${t}/metadata/${currentName(t)}';`,
    ]));
  });

  it('bigquery: CREATE OR REPLACE EXTERNAL TABLE … WITH CONNECTION … format ICEBERG, uris the current file', async () => {
    expect(await ddl('bigquery')).toEqual(names.map((t) =>
      `CREATE OR REPLACE EXTERNAL TABLE \`docs.${t}\` WITH CONNECTION \`us.docs_lake\` OPTIONS (format = 'ICEBERG', uris = [${sqlString(current(t))}]);`));
  });

  it('spark: a Hadoop catalog over the lake\'s parent folder (it reads version-hint.text), a query per table', async () => {
    const out = (await ddl('spark')).join('\n');
    expect(out).not.toMatch(/metadata\.json/);
    const ns = "o'brien lake";
    for (const t of names) expect(out).toContain(`SELECT count(*) FROM docs_lake.\`${ns}\`.\`${t}\`;`);
  });
});
