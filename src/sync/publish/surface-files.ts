// The read surface's Parquet files: all under ONE folder beside read_path
// (`<read_path>.parts/<table>/project_id=<p>/<day or month>-<token>.parquet`), so a reader's file
// access can be limited to that folder. Every file is immutable and uniquely named (a token per
// publish): a new version of a segment is a new file, the old one is retired, never overwritten, so
// a reader holding an older catalog keeps reading the files it names until the grace period ends.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { commitFile, isErrno } from '../../core/atomic-file.js';
import { escapeHiveValue, tempName } from '../../warehouse/partition-files.js';
import { copyPartition, wholeTable, type PartitionRows } from '../../parquet/partition-copy.js';
import { segmentRange } from './surface-plan.js';
import { SEGMENT_ROW_GROUP_ROWS, type SurfaceTable } from './surface-tables.js';

/** The folder of the read surface's data files: beside read_path, named after it. */
export const readSurfaceDir = (readPath: string): string => `${readPath}.parts`;

export const newToken = (): string => randomBytes(5).toString('hex');

export const surfacePath = (partsDir: string, rel: string): string => join(partsDir, ...rel.split('/'));

export function segmentFile(table: string, projectId: string, key: string, token: string): string {
  return `${table}/project_id=${escapeHiveValue(projectId)}/${key}-${token}.parquet`;
}

/** Writes one table's rows of one segment to a new file; returns its rows and bytes. */
export async function writeSegmentFile(
  conn: DuckDBConnection, partsDir: string, t: SurfaceTable, projectId: string, key: string, rel: string, token: string,
): Promise<{ rows: number; bytes: number }> {
  const final = surfacePath(partsDir, rel);
  const tmp = join(dirname(final), tempName(basename(final), token));
  // The one Parquet writer (src/parquet/partition-copy.ts): every column as the warehouse has it
  // (the catalog's view casts back to the exact types), unsorted (the rows keep the table's order,
  // merged window by window: a sort of a month would spill and cost time and memory), in bounded
  // row groups (SEGMENT_ROW_GROUP_ROWS).
  const rows: PartitionRows = {
    source: wholeTable(t.name), projectId, rowGroupRows: SEGMENT_ROW_GROUP_ROWS,
    time: { column: t.timeColumn, ...segmentRange(key), ...(t.timeType === 'date' && { dates: true as const }) },
  };
  try {
    mkdirSync(dirname(final), { recursive: true });
    const n = await copyPartition(conn, rows, tmp);
    commitFile(tmp, final);
    return { rows: n, bytes: statSync(final).size };
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

export function fileSize(partsDir: string, rel: string): number | undefined {
  try {
    return statSync(surfacePath(partsDir, rel)).size;
  } catch {
    return undefined;
  }
}

/** Deletes a file (gone already is fine) and then its directories while empty, up to the parts folder. */
export function removeSurfaceFile(partsDir: string, rel: string): void {
  rmSync(surfacePath(partsDir, rel), { force: true });
  const parts = rel.split('/');
  for (let depth = parts.length - 1; depth >= 1; depth--) {
    try {
      rmdirSync(surfacePath(partsDir, parts.slice(0, depth).join('/')));
    } catch (err) {
      if (isErrno(err, 'ENOENT')) continue;
      if (isErrno(err, 'ENOTEMPTY', 'EEXIST')) break;
      throw err;
    }
  }
}

/**
 * The names a publish gives its files: a segment's `<day or month>-<token>.parquet`, a whole
 * table's `<token>.parquet` (surface-native.ts), and their temporaries (lake-layout.ts's tempName:
 * `.NAME.<token>.parquet.tmp`). The token is newToken's 10 hex digits.
 */
const OWN_FILE_RE = /^(?:\d{4}-\d{2}(?:-\d{2})?-)?[0-9a-f]{10}\.parquet$/;
const OWN_TEMP_RE = /^\..+\.[0-9a-f]{10}\.parquet\.tmp$/;
export const isSurfaceFileName = (name: string): boolean => OWN_FILE_RE.test(name) || OWN_TEMP_RE.test(name);

/**
 * Every file of ours under the parts folder (by isSurfaceFileName), relative with '/' separators.
 * A file of another name (a note someone left, another tool's file) is not listed, so the sweep of
 * leftovers never deletes it.
 */
export function listSurfaceFiles(partsDir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(rel ? surfacePath(partsDir, rel) : partsDir, { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return;
      throw err;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else if (isSurfaceFileName(e.name)) out.push(child);
    }
  };
  walk('');
  return out;
}
