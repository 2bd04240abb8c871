// After a commit: removes, under the table's own folder only, what no retained snapshot or metadata
// file names: manifests and manifest lists of expired snapshots and of killed commits, metadata
// files dropped from the metadata log, and (local disk) pinned data files of expired snapshots or
// of killed commits. Object storage's data files are the exporter's (export-lake.ts), which keeps
// those a retained snapshot names (retainedDataKeys).
import type { IcebergIO } from './iceberg-io.js';
import type { TableMetadata } from './table-metadata.js';
import { hintKey, liveEntries, metadataDir, readManifestList, versionKey } from './table-state.js';

/** A local pinned data file (commit-table.ts snapshotKey). */
export const PIN_RE = /(^|\/)\.iceberg-[0-9a-f]{24}\.parq$/;

export async function referencedFiles(io: IcebergIO, table: string, m: TableMetadata): Promise<{ data: Set<string>; meta: Set<string> }> {
  const data = new Set<string>();
  const meta = new Set<string>();
  const add = (set: Set<string>, uri: string) => {
    const k = io.keyOf(uri);
    if (k !== null) set.add(k);
  };
  for (const snap of m.snapshots) {
    add(meta, snap['manifest-list']);
    for (const mf of await readManifestList(io, snap, table)) add(meta, mf.manifest_path);
    for (const e of await liveEntries(io, snap, table)) add(data, e.data_file.file_path);
  }
  for (const e of m['metadata-log']) add(meta, e['metadata-file']);
  return { data, meta };
}

export async function removeUnreferenced(io: IcebergIO, table: string, m: TableMetadata, version: number): Promise<Set<string>> {
  const { data, meta } = await referencedFiles(io, table, m);
  meta.add(versionKey(table, version)).add(hintKey(table));
  const dir = metadataDir(table);
  const metaGone = (await io.list(dir)).filter((k) => !meta.has(k) && !k.slice(dir.length).includes('/'));
  const pinsGone = io.pin ? (await io.list(`${table}/`)).filter((k) => PIN_RE.test(k) && !data.has(k)) : [];
  await io.delete([...metaGone, ...pinsGone].filter((k) => k.startsWith(`${table}/`)));
  return data;
}
