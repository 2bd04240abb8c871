// Where a table's Iceberg metadata lives and how its current version is found:
//   <table>/metadata/v<N>.metadata.json     one per commit, created only if absent
//   <table>/metadata/version-hint.text      N, written after v<N> (a hint: v<N+1> may exist when
//                                           an export was killed between the two; it is then current)
//   <table>/metadata/<uuid>-m0.avro         a snapshot's manifest
//   <table>/metadata/snap-<id>-1-<uuid>.avro  a snapshot's manifest list
// and which files a snapshot holds (its manifests' live entries).
import { FatalError, messageOf } from '../../../core/errors.js';
import { decodeAvro } from './avro-files.js';
import type { IcebergIO } from './iceberg-io.js';
import type { Snapshot, TableMetadata } from './table-metadata.js';

export const metadataDir = (table: string) => `${table}/metadata/`;
export const versionKey = (table: string, n: number) => `${metadataDir(table)}v${n}.metadata.json`;
export const hintKey = (table: string) => `${metadataDir(table)}version-hint.text`;

export interface TableState {
  /** The current metadata version (0: the table has no Iceberg metadata yet). */
  version: number;
  metadata: TableMetadata | null;
}

export async function readTableState(io: IcebergIO, table: string): Promise<TableState> {
  const hint = (await io.readBytes(hintKey(table)))?.toString('utf8').trim();
  let version = hint && /^\d+$/.test(hint) ? Number(hint) : 0;
  // The hint is written after the metadata file: a newer file than the hint is the current one.
  while (await io.exists(versionKey(table, version + 1))) version++;
  if (version === 0) return { version, metadata: null };
  const text = (await io.readBytes(versionKey(table, version)))?.toString('utf8');
  if (text === undefined) throw new FatalError(`lake table ${table}: ${versionKey(table, version)} is named by version-hint.text but missing`);
  try {
    return { version, metadata: JSON.parse(text) as TableMetadata };
  } catch (err) {
    throw new FatalError(`lake table ${table}: ${versionKey(table, version)} is not valid JSON (${messageOf(err).slice(0, 200)})`);
  }
}

export interface DataFileRecord {
  content: number;
  file_path: string;
  file_format: string;
  partition: Record<string, unknown>;
  record_count: number;
  file_size_in_bytes: number;
  [metric: string]: unknown;
}

export interface ManifestEntry {
  status: 0 | 1 | 2;
  snapshot_id: number | null;
  sequence_number: number | null;
  file_sequence_number: number | null;
  data_file: DataFileRecord;
}

export interface ManifestFile {
  manifest_path: string;
  sequence_number: number;
  added_snapshot_id: number;
  [field: string]: unknown;
}

async function readAvro<T>(io: IcebergIO, uri: string, table: string): Promise<T[]> {
  const key = io.keyOf(uri);
  const bytes = key === null ? null : await io.readBytes(key);
  if (bytes === null) throw new FatalError(`lake table ${table}: Iceberg file ${uri} is missing`);
  return decodeAvro<T>(bytes);
}

export async function readManifestList(io: IcebergIO, snap: Snapshot, table: string): Promise<ManifestFile[]> {
  return readAvro<ManifestFile>(io, snap['manifest-list'], table);
}

/** The live (not deleted) entries of a snapshot, with inherited sequence numbers filled in. */
export async function liveEntries(io: IcebergIO, snap: Snapshot, table: string): Promise<ManifestEntry[]> {
  const out: ManifestEntry[] = [];
  for (const m of await readManifestList(io, snap, table)) {
    for (const e of await readAvro<ManifestEntry>(io, m.manifest_path, table)) {
      if (e.status === 2) continue;
      out.push({
        ...e,
        snapshot_id: e.snapshot_id ?? m.added_snapshot_id,
        sequence_number: e.sequence_number ?? m.sequence_number,
        file_sequence_number: e.file_sequence_number ?? m.sequence_number,
      });
    }
  }
  return out;
}

export const currentSnapshot = (m: TableMetadata | null): Snapshot | null =>
  m?.snapshots.find((s) => s['snapshot-id'] === m['current-snapshot-id']) ?? null;
