// Writing lake files with DuckDB's Parquet writer: COPY to a temporary name in the final file's
// directory, flush, rename over the final name. The SQL is in sql/export/; the file name and the
// filter values are bound as parameters, never spliced into the SQL text.
import { mkdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../load/sql-files.js';
import { fsyncPath, isErrno, publish } from './atomic-file.js';
import {
  dayRange, lakePath, partitionFile, smallTableFile, tempName,
  type PartitionedTable, type SmallTable,
} from './lake-layout.js';
import type { PartitionEntry, TableEntry } from './manifest.js';
import type { PartitionSignature, TableSignature } from './signatures.js';

export interface WrittenFile {
  rel: string;
  rows: number;
  bytes: number;
}

type Params = Record<string, string>;

/** Runs a COPY ... TO $file statement into a temp file beside `rel`, then publishes it as `rel`. */
export async function copyToLake(
  conn: DuckDBConnection, sqlName: string, params: Params, outDir: string, rel: string, token: string,
): Promise<WrittenFile> {
  const final = lakePath(outDir, rel);
  const dir = dirname(final);
  const tmp = join(dir, tempName(basename(final), token));
  mkdirSync(dir, { recursive: true });
  try {
    const res = await conn.runAndReadAll(sqlFile(sqlName), { ...params, file: tmp });
    const rows = Number(res.getRows()[0]?.[0] ?? 0);
    publish(tmp, final);
    return { rel, rows, bytes: statSync(final).size };
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

const COPY_SQL: Record<PartitionedTable | SmallTable, string> = {
  conversations: 'export/copy-conversations.sql',
  sources: 'export/copy-sources.sql',
  sync_runs: 'export/copy-sync-runs.sql',
  quarantine: 'export/copy-quarantine.sql',
};

/**
 * (Re)writes one partition: its turns and its sources (same key, together). A table with no rows in
 * the partition gets no file (an old one is removed). Returns the new manifest entry.
 */
export async function writePartition(
  conn: DuckDBConnection, outDir: string, p: PartitionSignature, token: string, now: Date,
): Promise<{ entry: PartitionEntry; written: WrittenFile[]; removed: string[] }> {
  const { from, to } = dayRange(p.date);
  const params = { project_id: p.projectId, from, to };
  const written: WrittenFile[] = [];
  const removed: string[] = [];
  const files: PartitionEntry['files'] = {};
  const bytes: NonNullable<PartitionEntry['bytes']> = {};
  const counts: Record<PartitionedTable, number> = { conversations: p.rows, sources: p.sourceRows };
  for (const table of ['conversations', 'sources'] as const) {
    const rel = partitionFile(table, p);
    if (counts[table] > 0) {
      const f = await copyToLake(conn, COPY_SQL[table], params, outDir, rel, token);
      written.push(f);
      files[table] = rel;
      bytes[table] = f.bytes;
      counts[table] = f.rows;
      fsyncPath(dirname(lakePath(outDir, rel)));
    } else if (removeLakeFile(outDir, rel)) {
      removed.push(rel);
    }
  }
  const entry: PartitionEntry = {
    projectId: p.projectId, date: p.date, signature: p.signature, rows: counts.conversations,
    sourceRows: counts.sources, maxUpdatedAt: p.maxUpdatedAt, files, bytes, exportedAt: now.toISOString(),
  };
  return { entry, written, removed };
}

/** Rewrites a small table's single file. */
export async function writeSmallTable(
  conn: DuckDBConnection, outDir: string, t: TableSignature, token: string, now: Date,
): Promise<{ entry: TableEntry; written: WrittenFile }> {
  const rel = smallTableFile(t.name);
  const written = await copyToLake(conn, COPY_SQL[t.name], {}, outDir, rel, token);
  fsyncPath(dirname(lakePath(outDir, rel)));
  return { entry: { signature: t.signature, rows: written.rows, file: rel, bytes: written.bytes, exportedAt: now.toISOString() }, written };
}

/**
 * Deletes a lake file and then its partition directories while they are empty (never the table
 * directory itself). Returns whether the file existed.
 */
export function removeLakeFile(outDir: string, rel: string): boolean {
  const path = lakePath(outDir, rel);
  let existed = true;
  try {
    rmSync(path);
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
    existed = false;
  }
  const parts = rel.split('/');
  for (let depth = parts.length - 1; depth > 1; depth--) {
    try {
      rmdirSync(lakePath(outDir, parts.slice(0, depth).join('/')));
    } catch (err) {
      if (isErrno(err, 'ENOENT')) continue;
      if (isErrno(err, 'ENOTEMPTY', 'EEXIST')) break;
      throw err;
    }
  }
  return existed;
}
