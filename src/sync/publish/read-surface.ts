// Publishing the read surface (issue 20): after a run, readers get a new consistent version of
// every table and view at a cost proportional to what the run changed, not to the history.
//   readSurface "catalog" (default): the changed segments of the Parquet-backed tables are written
//     as new immutable files, the other tables each as one file rewritten only when its content
//     changed (src/sync/publish/surface-native.ts), and a new small catalog file of views is
//     written under a temporary name and renamed over read_path (src/sync/publish/catalog.ts). Files a
//     new catalog no longer names are retired and deleted once `graceMs` has passed since, so a
//     reader holding an older catalog keeps a consistent old snapshot meanwhile (after that, an
//     I/O error on the deleted file, never wrong data).
//   readSurface "copy": the whole warehouse file is copied (src/sync/publish/snapshot.ts): native speed
//     for readers, a publish that grows with the warehouse.
// Only the writer process publishes, between merges (under the writer lock), so there is never a
// second publisher: files under the parts folder that no published catalog names are leftovers
// of an interrupted publish and are deleted.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { commitFile } from '../../core/atomic-file.js';
import { partitionId, type PartitionEntry } from './segment-signatures.js';
import { readTableColumns, writeCatalog } from './catalog.js';
import { readPreviousCatalog } from './previous-catalog.js';
import { publishSnapshot, sweepStaleTemps, type Published } from './snapshot.js';
import {
  fileSize, listSurfaceFiles, newToken, readSurfaceDir, removeSurfaceFile, segmentFile, surfacePath, writeSegmentFile,
} from './surface-files.js';
import { emptyManifest, filesOf, type SurfaceManifest } from './surface-manifest.js';
import { planSegments, segmentSignatures } from './surface-plan.js';
import { readDaySignatures } from './surface-days.js';
import { surfacePartitionedTables } from './surface-tables.js';
import { publishNativeTables } from './surface-native.js';
import { readableTables } from './writer-only-tables.js';
import { catalogKey, changedViews, updateCatalog } from './catalog-update.js';
import { sqlFolder } from '../../warehouse/sql-files.js';
import type { LakeTable } from '../pipeline/lake-table.js';
import type { ReadSurface } from './read-surface-defaults.js';


export interface PublishSettings {
  readPath: string;
  readSurface: ReadSurface;
  readGraceMs: number;
  /**
   * The lake declarations (src/sync/run/surface-lake-tables.ts, passed in by whoever composes the run): their
   * 'project-day' tables are partitioned by day (src/sync/publish/surface-tables.ts). Absent: the
   * previous catalog's partitioned tables (none: every table whole).
   */
  lakeTables?: readonly LakeTable[];
}

/**
 * Publishes the read path. `full`: recompute every day's signature (after a run that deleted rows:
 * reset, rebuild); a sync recomputes only the days its merges touched (src/sync/publish/surface-days.ts).
 */
export async function publishRead(conn: DuckDBConnection, warehouse: string, s: PublishSettings, now: Date, full = false): Promise<Published> {
  if (s.readSurface === 'copy') return publishSnapshot(conn, warehouse, s.readPath);
  // The files' row order means nothing (readers get sets; views order what they return): without
  // it, DuckDB's COPY writes each thread's rows as they come instead of holding out-of-order chunks
  // in memory, which ran a full publish of 1M turns out of memory at memory_limit 64MB.
  await conn.run('SET preserve_insertion_order = false');
  try {
    return await publishCatalog(conn, s, now, full);
  } finally {
    await conn.run('RESET preserve_insertion_order');
  }
}

export async function publishCatalog(conn: DuckDBConnection, s: PublishSettings, now: Date, full = false): Promise<Published> {
  const started = performance.now();
  // Absolute before anything is written: the views name their files by this path, and a relative
  // one would resolve from each reader's working directory (issue 34).
  const readPath = resolve(s.readPath);
  const partsDir = readSurfaceDir(readPath);
  mkdirSync(partsDir, { recursive: true });
  sweepStaleTemps(readPath);
  const prior = await readPreviousCatalog(conn, readPath);
  const stored = prior.kind === 'read' ? prior.manifest : null;
  const previous = stored ?? emptyManifest();
  // The writer's own state tables are left out (writer-only-tables.ts): not signed, not written.
  const columns = readableTables(await readTableColumns(conn));
  const tables = s.lakeTables ? surfacePartitionedTables(s.lakeTables, new Set(columns.keys())) : previous.partitioned.filter((t) => columns.has(t.name));
  // A table partitioned otherwise than before (a new declaration, another time column) is signed anew.
  const same = stored !== null && JSON.stringify(stored.partitioned) === JSON.stringify(tables);
  const schemaHash = (table: string) => createHash('sha256').update(JSON.stringify([table, columns.get(table), tables.find((t) => t.name === table)])).digest('hex');
  const dayState = await readDaySignatures(conn, tables, same ? stored : null, full, now);
  const segments = segmentSignatures(dayState.days, now, schemaHash);
  const plan = planSegments({ segments, previous: previous.segments, fileSize: (rel) => fileSize(partsDir, rel) });

  const token = newToken();
  const before = new Map(previous.segments.map((e) => [partitionId(e), e]));
  const next: PartitionEntry[] = [...plan.keep];
  const retiring = plan.remove.flatMap(entryFiles);
  let bytes = 0;
  let written = 0;
  for (const { partition: p } of plan.write) {
    const old = before.get(partitionId(p));
    if (old) retiring.push(...entryFiles(old));
    const t = tables.find((x) => x.name === p.table)!;
    const rel = segmentFile(t.name, p.projectId, p.date, token);
    const f = await writeSegmentFile(conn, partsDir, t, p.projectId, p.date, rel, token);
    next.push({ ...p, rows: f.rows, files: { [t.name]: rel }, bytes: { [t.name]: f.bytes }, exportedAt: now.toISOString() });
    bytes += f.bytes;
    written++;
  }

  // The other tables: one file each, written again only when its content signature changed.
  const partitioned = new Set<string>(tables.map((t) => t.name));
  const native = await publishNativeTables(conn, {
    partsDir, token, previous: previous.tables ?? [], fileSize: (rel) => fileSize(partsDir, rel),
    tables: new Map([...columns].filter(([name]) => !partitioned.has(name))),
  });
  retiring.push(...native.retiring);
  bytes += native.bytes;
  written += native.written;

  // A previous catalog we could not read may name any file of the folder: all are retired now.
  if (prior.kind === 'unknown') {
    const named = new Set([...next.flatMap(entryFiles), ...native.entries.flatMap((e) => (e.file === null ? [] : [e.file]))]);
    retiring.push(...listSurfaceFiles(partsDir).filter((rel) => !named.has(rel)));
  }
  // Retired files: kept while a reader may hold a catalog naming them, then deleted.
  const retired = [...previous.retired, ...retiring.map((file) => ({ file, retiredAt: now.toISOString() }))];
  const expired = retired.filter((r) => Date.parse(r.retiredAt) + s.readGraceMs <= now.getTime());
  const key = catalogKey(columns, dayState.migrations, partsDir);
  const manifest: SurfaceManifest = {
    ...emptyManifest(), days: dayState.days, watermarks: dayState.watermarks, migrations: dayState.migrations, fullDay: dayState.fullDay,
    partitioned: tables, segments: next, retired: retired.filter((r) => !expired.includes(r)), tables: native.entries, catalogKey: key,
  };
  const parquet = parquetFiles(manifest, partsDir);

  const tmp = join(dirname(readPath), `.${basename(readPath)}.${token}.tmp`);
  let views: number;
  try {
    // The previous catalog, built for the same schema, is copied with only the changed views
    // replaced (catalog-update.ts); otherwise the catalog is written anew.
    const before = stored?.catalogKey === key ? parquetFiles(stored, partsDir) : null;
    if (before && sameKeys(before, parquet)) {
      const changed = changedViews(before, parquet);
      await updateCatalog(conn, { from: readPath, path: tmp, columns, parquet, changed, manifest: JSON.stringify(manifest) });
      views = changed.length;
    } else {
      await writeCatalog(conn, { path: tmp, columns, parquet, manifest: JSON.stringify(manifest) });
      views = columns.size + sqlFolder('views').length;
    }
    commitFile(tmp, readPath);
  } catch (err) {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.wal`, { force: true });
    throw err;
  }
  bytes += statSync(readPath).size;

  // Only now that the new catalog is in place: delete expired files and leftovers no catalog names.
  const named = new Set([...filesOf(manifest).current, ...filesOf(manifest).retired]);
  let deleted = 0;
  for (const rel of listSurfaceFiles(partsDir)) {
    if (named.has(rel)) continue;
    removeSurfaceFile(partsDir, rel);
    deleted++;
  }
  return {
    path: s.readPath, bytes, ms: performance.now() - started,
    files: { written, deleted, current: filesOf(manifest).current.length, retired: manifest.retired.length }, views,
    warnings: prior.kind === 'unknown' ? [prior.warning] : [],
  };
}

/** Each table's files in the catalog's views, by absolute path: the day segments' and the whole tables'. */
function parquetFiles(m: SurfaceManifest, partsDir: string): Map<string, string[]> {
  const parquet = new Map(m.partitioned.map((t) => [t.name, m.segments.flatMap((e) => {
    const rel = e.files[t.name];
    return rel === undefined ? [] : [surfacePath(partsDir, rel)];
  })]));
  for (const e of m.tables ?? []) parquet.set(e.table, e.file === null ? [] : [surfacePath(partsDir, e.file)]);
  return parquet;
}

const sameKeys = (a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean =>
  a.size === b.size && [...a.keys()].every((k) => b.has(k));

function entryFiles(e: PartitionEntry): string[] {
  return Object.values(e.files).filter((f): f is string => f !== undefined);
}
