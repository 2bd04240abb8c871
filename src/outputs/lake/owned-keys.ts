// Which lake keys are provably ours, so the exporter may delete them. A key found in the manifest or
// in a listing is trusted only when it is a data file this version would write for a declared
// table: '/'-separated plain segments (no '', '.' or '..'), under `<table>/`, exactly the partition
// directories of the table's layout (project_id=…, date=YYYY-MM-DD), ending in part-*.parquet.
// Anyone who can write the lake (a shared folder or bucket) can write its manifest: a manifest
// naming anything else (`../victim.txt`, a foreign README.txt) is not trusted at all (export-lake.ts
// rewrites it and deletes nothing that run), and a listed key that is not ours is left alone.
import type { Logger } from '../../core/logger.js';
import type { LakeTable } from '../../sync/pipeline/lake-table.js';
import { DATA_FILE_RE, partitionDir } from './lake-layout.js';
import type { FileEntry, Manifest } from './manifest.js';

const PROJECT_DIR_RE = /^project_id=[^/]+$/;
const DATE_DIR_RE = /^date=\d{4}-\d{2}-\d{2}$/;

/** The declared tables by name (the only tables whose files are ever deleted). */
export const tablesByName = (tables: readonly LakeTable[]): ReadonlyMap<string, LakeTable> => new Map(tables.map((t) => [t.name, t]));

/** No empty, '.' or '..' segment, no backslash or NUL: a key that cannot leave its directory on any store. */
export function plainKey(key: string): boolean {
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && !/[\\\0]/.test(s));
}

/** A data file this version writes for a declared table, at the depth of the table's layout. */
export function ownedDataKey(key: string, tables: ReadonlyMap<string, LakeTable>): boolean {
  if (!plainKey(key)) return false;
  const parts = key.split('/');
  const t = tables.get(parts[0]!);
  if (!t || !DATA_FILE_RE.test(parts.at(-1)!)) return false;
  const dirs = parts.slice(1, -1);
  switch (t.layout.by) {
    case 'none': return dirs.length === 0;
    case 'project': return dirs.length === 1 && PROJECT_DIR_RE.test(dirs[0]!);
    case 'project-day': return dirs.length === 2 && PROJECT_DIR_RE.test(dirs[0]!) && DATE_DIR_RE.test(dirs[1]!);
  }
}

/** A manifest entry is ours when its key is the very file this version writes for its table and partition. */
export function ownedEntry(e: FileEntry, tables: ReadonlyMap<string, LakeTable>): boolean {
  const t = tables.get(e.table);
  if (!t || !ownedDataKey(e.key, tables)) return false;
  const hasProject = e.partition.project_id !== undefined;
  const hasDate = e.partition.date !== undefined;
  const shape = t.layout.by === 'none' ? !hasProject && !hasDate : t.layout.by === 'project' ? hasProject && !hasDate : hasProject && hasDate;
  const dir = partitionDir(e.table, { projectId: e.partition.project_id ?? null, date: e.partition.date ?? null });
  return shape && e.key.startsWith(`${dir}/`) && e.key.lastIndexOf('/') === dir.length;
}

/** The manifest's entries that are not ours (empty: the manifest can be trusted). */
export function foreignEntries(m: Manifest, tables: ReadonlyMap<string, LakeTable>): FileEntry[] {
  return m.files.filter((e) => !ownedEntry(e, tables));
}

/** A key for a log line: JSON-quoted, at most 120 characters (it came from someone else's file). */
export const showKey = (key: string): string => JSON.stringify(key.length > 120 ? `${key.slice(0, 120)}…` : key);

/**
 * The previous manifest as the export may use it: as read when every entry is ours; otherwise
 * none (every file is rewritten and the manifest with it) and `untrusted`: the run deletes nothing.
 * One warning line, naming how many entries and the first one.
 */
export function trustedManifest(
  m: Manifest | null, tables: ReadonlyMap<string, LakeTable>, logger: Logger, location: string,
): { previous: Manifest | null; untrusted: boolean } {
  const foreign = m ? foreignEntries(m, tables) : [];
  if (!m || foreign.length === 0) return { previous: m, untrusted: false };
  logger.warn(
    { location, entries: foreign.length, first: showKey(foreign[0]!.key) },
    'lake manifest names files this version never writes (edited by someone else?): not trusted; rewriting it and deleting nothing this run',
  );
  return { previous: null, untrusted: true };
}
