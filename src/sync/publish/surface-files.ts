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
import { escapeHiveValue, tempName } from '../../outputs/lake/lake-layout.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { ident } from './catalog.js';
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
  const sql = sqlFile('publish/copy-segment.sql')
    .replaceAll('{{table}}', ident(t.name)).replaceAll('{{project}}', ident(t.projectColumn)).replaceAll('{{time}}', ident(t.timeColumn));
  const { from, to } = segmentRange(key);
  try {
    mkdirSync(dirname(final), { recursive: true });
    const res = await conn.runAndReadAll(sql, { project_id: projectId, from, to, file: tmp, row_group_rows: SEGMENT_ROW_GROUP_ROWS });
    commitFile(tmp, final);
    return { rows: Number(res.getRows()[0]?.[0] ?? 0), bytes: statSync(final).size };
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

/** Every file under the parts folder, relative with '/' separators. */
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
      else out.push(child);
    }
  };
  walk('');
  return out;
}
