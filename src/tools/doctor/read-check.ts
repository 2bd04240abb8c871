// doctor's `read-snapshot` check (issue 34): the read snapshot opened the way a BI host or a cron
// job opens it, by its absolute path from ANOTHER working directory (a child process started in
// the system's temp folder), every table and view counted; and what such a host must mount. The
// catalog surface's views name their Parquet files by absolute path, so a host must see the parts
// folder at the same path as the writer; the copy surface is one self-contained file.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { messageOf } from '../../core/errors.js';
import { readSurfaceDir } from '../../sync/publish/surface-files.js';
import { fail, ok, warn, type CheckResult } from './check.js';

const OPEN_TIMEOUT_MS = 60_000;

// Run by `node --input-type=module -e` in the temp folder: argv = [duckdb module URL, snapshot, parts folder].
const PROBE = `
const [url, path, parts] = process.argv.slice(1);
const { DuckDBInstance, quotedIdentifier, quotedString } = await import(url);
const inst = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
const conn = await inst.connect();
const one = async (sql) => (await conn.runAndReadAll(sql)).getRows()[0][0];
const catalog = Number(await one("SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'docs_etl' AND table_name = 'read_surface'")) > 0;
const names = (await conn.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'")).getRows().map((r) => String(r[0]));
// The parts folder as the views' SQL holds it: a string literal by DuckDB's quoting, left open (a file name follows).
const foreign = (await conn.runAndReadAll("SELECT view_name FROM duckdb_views() WHERE NOT internal AND sql LIKE '%read_parquet(%' AND NOT contains(sql, $p)", { p: quotedString(parts + '/').slice(0, -1) })).getRows().map((r) => String(r[0]));
let error = null;
for (const n of names) {
  try { await one('SELECT count(*) FROM ' + quotedIdentifier(n)); } catch (e) { error = n + ': ' + String(e.message).split('\\n')[0]; break; }
}
process.stdout.write(JSON.stringify({ catalog, names: names.length, foreign, error }));
`;

interface Probe {
  catalog: boolean;
  names: number;
  foreign: string[];
  error: string | null;
}

export async function checkReadSnapshot(readPath: string): Promise<CheckResult> {
  const path = resolve(readPath);
  if (!existsSync(path)) return ok('read-snapshot', `none yet at ${path}: the first sync publishes it`, { subject: path });
  const parts = readSurfaceDir(path);
  let p: Probe;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', PROBE, import.meta.resolve('@duckdb/node-api'), path, parts], {
      cwd: tmpdir(), timeout: OPEN_TIMEOUT_MS, maxBuffer: 1 << 20,
    });
    p = JSON.parse(stdout) as Probe;
  } catch (err) {
    return fail('read-snapshot', `${path} does not open from another directory: ${lastLine(messageOf(err))}`, 'run a sync with this version (it republishes the snapshot)', { subject: path });
  }
  const data = { surface: p.catalog ? 'catalog' : 'copy', names: p.names, mount: p.catalog ? dirname(path) : path };
  if (p.error) {
    return fail('read-snapshot', `opened from another directory, but ${p.error}`,
      'run a sync with this version (it writes every path absolute); a snapshot moved or copied from elsewhere reads only where its files are: use readSurface copy for that', { subject: path, data });
  }
  if (!p.catalog) {
    return ok('read-snapshot', `opens from another directory, ${p.names} tables and views read; self-contained (copy surface): a BI host may mount or copy it anywhere`, { subject: path, data });
  }
  const where = `a BI host must mount ${dirname(path)} (the catalog and ${parts}/) at this same path, read-only; elsewhere, or for a copy, use readSurface copy`;
  if (p.foreign.length) {
    return warn('read-snapshot', `its views ${p.foreign.slice(0, 3).join(', ')} name files outside ${parts}/ (a catalog copied or mounted from another path?)`, where, { subject: path, data });
  }
  return ok('read-snapshot', `opens from another directory, ${p.names} tables and views read; ${where}`, { subject: path, data });
}

function lastLine(msg: string): string {
  const lines = msg.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.find((l) => /Error:/.test(l) && !l.startsWith('at ')) ?? lines[0] ?? msg).slice(0, 300);
}
