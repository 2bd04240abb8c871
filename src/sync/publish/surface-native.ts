// The read surface's whole tables (issue 20, "publish writes only what changed"): every warehouse
// table that is not partitioned by day (sync state, coverage, the run log, quarantine, the *_daily
// tables, gap topics and their members, ...) is kept as ONE immutable Parquet file per table,
// named in the catalog by a view like the day segments. Each publish computes a content signature
// per table (its columns and types, its row count, the sum of its rows' hashes: one scan, nothing
// written); a table whose signature is unchanged keeps its file, a changed one gets a new file and
// the old one is retired like a segment's (kept for the grace period). An empty table has no file
// (its view selects no rows). Before this, every such table was copied into the catalog on every
// publish, so a publish that found nothing new still wrote every gap topic member.
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import { commitFile } from '../../core/atomic-file.js';
import { tempName } from '../../warehouse/partition-files.js';
import { sqlFile, taggedUnion } from '../../warehouse/sql-files.js';
import type { Column } from './catalog.js';
import { surfacePath } from './surface-files.js';
import { SEGMENT_ROW_GROUP_ROWS } from './surface-tables.js';
import { withScanMemory } from '../../warehouse/scan-memory.js';

export interface NativeEntry {
  table: string;
  signature: string;
  rows: number;
  /** Relative to the parts folder; null: the table is empty (no file). */
  file: string | null;
  bytes: number;
}

export interface NativeResult {
  entries: NativeEntry[];
  /** Files no longer named (the previous version of a changed table, or of a dropped one). */
  retiring: string[];
  written: number;
  bytes: number;
}

/** Where a whole table's file lives under the parts folder (apart from the day segments' folders). */
export const nativeFile = (table: string, token: string): string => `_tables/${table}/${token}.parquet`;

/**
 * Signs every table of `tables` and writes a new file for each one whose signature differs from
 * `previous` (or whose file is missing); the rest keep theirs.
 */
export async function publishNativeTables(conn: DuckDBConnection, a: {
  partsDir: string;
  tables: ReadonlyMap<string, readonly Column[]>;
  previous: readonly NativeEntry[];
  token: string;
  fileSize: (rel: string) => number | undefined;
}): Promise<NativeResult> {
  const before = new Map(a.previous.map((e) => [e.table, e]));
  const out: NativeResult = { entries: [], retiring: [], written: 0, bytes: 0 };
  const signed = await signTables(conn, a.tables);
  for (const [table, { rows, signature }] of signed) {
    const old = before.get(table);
    before.delete(table);
    if (old && old.signature === signature && (old.file === null || a.fileSize(old.file) !== undefined)) {
      out.entries.push(old);
      continue;
    }
    if (old?.file) out.retiring.push(old.file);
    if (rows === 0) {
      out.entries.push({ table, signature, rows, file: null, bytes: 0 });
      continue;
    }
    const rel = nativeFile(table, a.token);
    const bytes = await writeTableFile(conn, surfacePath(a.partsDir, rel), table, a.token);
    out.entries.push({ table, signature, rows, file: rel, bytes });
    out.written++;
    out.bytes += bytes;
  }
  // Tables the warehouse no longer has (none today; a future migration might drop one).
  for (const gone of before.values()) if (gone.file) out.retiring.push(gone.file);
  return out;
}

/**
 * Every table's row count and signature, all signed first and under the small pool of bookkeeping
 * scans (signing reads every row and keeps two numbers); the files are written after, at the
 * writer's own limit.
 */
async function signTables(conn: DuckDBConnection, tables: ReadonlyMap<string, readonly Column[]>): Promise<Map<string, { rows: number; signature: string }>> {
  return withScanMemory(conn, async () => {
    const named = [...tables];
    if (!named.length) return new Map();
    const sql = taggedUnion(named.map(([table]) => sqlFile('publish/table-signature.sql').replaceAll('{{table}}', quotedIdentifier(table))));
    const byIndex = new Map((await conn.runAndReadAll(sql)).getRowObjectsJS().map((res) => [Number(res.i), res]));
    // In the tables' order (the manifest lists them so).
    return new Map(named.map(([table, columns], i) => {
      const res = byIndex.get(i)!;
      const rows = Number(res.n);
      return [table, { rows, signature: createHash('sha256').update(JSON.stringify([columns, rows, String(res.h)])).digest('hex') }];
    }));
  });
}

async function writeTableFile(conn: DuckDBConnection, final: string, table: string, token: string): Promise<number> {
  const tmp = join(dirname(final), tempName(basename(final), token));
  try {
    mkdirSync(dirname(final), { recursive: true });
    await conn.run(sqlFile('publish/copy-table.sql').replaceAll('{{table}}', quotedIdentifier(table)), { file: tmp, row_group_rows: SEGMENT_ROW_GROUP_ROWS });
    commitFile(tmp, final);
    return statSync(final).size;
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
