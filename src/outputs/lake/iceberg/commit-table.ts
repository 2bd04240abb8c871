// One table's Iceberg commit after an export: the table's files are those the lake manifest names
// (the exporter's state); this writes a snapshot that holds exactly them, when they differ from the
// current snapshot's. Order (kill-safe): data files exist already (pinned under immutable names
// on a local disk), then the manifest and manifest list (new names), then v<N+1>.metadata.json
// created only if absent (the commit point), then version-hint.text. A kill before the metadata
// file leaves v<N> current and only unnamed files, which the next commit removes.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { FatalError } from '../../../core/errors.js';
import type { LakeTable } from '../../../sync/pipeline/lake-table.js';
import type { FileEntry } from '../manifest.js';
import { encodeAvro, MANIFEST_LIST_SCHEMA, manifestEntrySchema } from './avro-files.js';
import { expire, hasExpired } from './expire-snapshots.js';
import type { IcebergIO } from './iceberg-io.js';
import { buildMetadata, type TableDesign } from './metadata-builder.js';
import { dataFileRecord, partitionSummaries } from './manifest-records.js';
import { removeUnreferenced } from './remove-unreferenced.js';
import type { Snapshot } from './table-metadata.js';
import { currentSnapshot, hintKey, liveEntries, metadataDir, versionKey, type ManifestEntry, type TableState } from './table-state.js';

export interface CommitResult {
  committed: boolean;
  snapshotId: number | null;
  operation: string | null;
  version: number;
}

/** The immutable name a data file is known by in snapshots: on a local disk a pinned link beside it. */
export function snapshotKey(io: IcebergIO, e: FileEntry): string {
  if (!io.pin) return e.key;
  const h = createHash('sha256').update(JSON.stringify([e.key, e.exportedAt, e.signature, e.bytes])).digest('hex').slice(0, 24);
  return `${e.key.slice(0, e.key.lastIndexOf('/'))}/.iceberg-${h}.parq`;
}

const FILES_PROP = 'docs-etl.files';
const fingerprint = (uris: readonly string[]) => createHash('sha256').update([...uris].sort().join('\n')).digest('hex').slice(0, 32);
const snapshotIdOf = () => Number(BigInt(`0x${randomBytes(8).toString('hex')}`) & ((1n << 53n) - 1n)) || 1;

export async function commitTable(a: {
  io: IcebergIO; t: LakeTable; design: TableDesign; state: TableState; files: readonly FileEntry[]; nowMs: number; graceMs: number;
  /**
   * --project: files of projects outside the run's scope that the manifest does not name (it was
   * unreadable) stay in the snapshot as they were: a scoped export never drops another project's rows.
   */
  outOfScope?: (projectId: string) => boolean;
}): Promise<CommitResult> {
  const { io, t, design, state, nowMs, graceMs } = a;
  const prev = state.metadata;
  const prevSnap = currentSnapshot(prev);
  const wanted: { e: FileEntry | null; uri: string }[] = a.files.map((e) => ({ e, uri: io.uri(snapshotKey(io, e)) }));
  // The previous snapshot's files are read only when needed: a no-change export reads just the metadata.
  let previousFiles: ManifestEntry[] | null = null;
  const loadBefore = async () => (previousFiles ??= prevSnap ? await liveEntries(io, prevSnap, t.name) : []);
  if (a.outOfScope) wanted.push(...carried(await loadBefore(), a.files, a.outOfScope));
  const print = fingerprint(wanted.map((w) => w.uri));
  const designSame = prev !== null && prev['current-schema-id'] === design.schema['schema-id']
    && prev['default-spec-id'] === design.spec['spec-id'] && prev['default-sort-order-id'] === design.sortOrderId;
  const filesSame = prevSnap ? prevSnap.summary[FILES_PROP] === print : wanted.length === 0 && prev !== null;
  const noop = { committed: false, snapshotId: prevSnap?.['snapshot-id'] ?? null, operation: null, version: state.version };
  if (designSame && filesSame && !hasExpired(prev, nowMs, graceMs)) return noop;

  let snapshot: Snapshot | null = null;
  let sequence = prev?.['last-sequence-number'] ?? 0;
  if (!filesSame) {
    if (io.pin) for (const w of wanted) if (w.e) await io.pin(w.e.key, snapshotKey(io, w.e));
    sequence++;
    snapshot = await writeSnapshot({ io, t, design, before: await loadBefore(), wanted, sequence, nowMs, parent: prevSnap, print });
  }
  const draft = buildMetadata({ table: t, location: io.uri(t.name), prev, design, snapshot, sequence, nowMs,
    previousFile: state.version > 0 ? io.uri(versionKey(t.name, state.version)) : null });
  const { metadata } = expire(draft, nowMs, graceMs);
  const version = state.version + 1;
  if (!(await io.createExclusive(versionKey(t.name, version), `${JSON.stringify(metadata, null, 1)}\n`))) {
    throw new FatalError(`lake table ${t.name}: ${versionKey(t.name, version)} was created by another writer during this export; nothing of this table was committed`);
  }
  await io.replaceText(hintKey(t.name), `${version}\n`);
  await removeUnreferenced(io, t.name, metadata, version);
  return { committed: true, snapshotId: metadata['current-snapshot-id'] ?? null, operation: snapshot?.summary.operation ?? null, version };
}

async function writeSnapshot(a: {
  io: IcebergIO; t: LakeTable; design: TableDesign; before: ManifestEntry[]; wanted: { e: FileEntry | null; uri: string }[];
  sequence: number; nowMs: number; parent: Snapshot | null; print: string;
}): Promise<Snapshot> {
  const { io, t, design, before, wanted, sequence } = a;
  const snapshotId = snapshotIdOf();
  const old = new Map(before.map((b) => [b.data_file.file_path, b]));
  const entries: ManifestEntry[] = [];
  for (const w of wanted) {
    const kept = old.get(w.uri);
    old.delete(w.uri);
    if (kept) entries.push({ ...kept, status: 0 });
    else if (w.e) {
      entries.push({ status: 1, snapshot_id: snapshotId, sequence_number: sequence, file_sequence_number: sequence, data_file: dataFileRecord(design, w.e, w.uri) });
    }
  }
  const deleted = [...old.values()];
  for (const d of deleted) entries.push({ ...d, status: 2, snapshot_id: snapshotId });
  const live = entries.filter((e) => e.status !== 2);

  const uuid = randomUUID();
  const manifestKey = `${metadataDir(t.name)}${uuid}-m0.avro`;
  const manifest = await encodeAvro(manifestEntrySchema(design.spec), entries, {
    schema: JSON.stringify(design.schema), 'schema-id': String(design.schema['schema-id']),
    'partition-spec': JSON.stringify(design.spec.fields), 'partition-spec-id': String(design.spec['spec-id']),
    'format-version': '2', content: 'data',
  });
  await io.writeBytes(manifestKey, manifest);
  const rows = (xs: { data_file: { record_count: number } }[]) => xs.reduce((n, x) => n + Number(x.data_file.record_count), 0);
  const bytes = (xs: { data_file: { file_size_in_bytes: number } }[]) => xs.reduce((n, x) => n + Number(x.data_file.file_size_in_bytes), 0);
  const addedEntries = entries.filter((e) => e.status === 1);
  const existing = entries.filter((e) => e.status === 0);
  const listKey = `${metadataDir(t.name)}snap-${snapshotId}-1-${uuid}.avro`;
  const list = await encodeAvro(MANIFEST_LIST_SCHEMA, [{
    manifest_path: io.uri(manifestKey), manifest_length: manifest.length, partition_spec_id: design.spec['spec-id'], content: 0,
    sequence_number: sequence, min_sequence_number: live.length ? Math.min(...live.map((e) => Number(e.sequence_number))) : sequence,
    added_snapshot_id: snapshotId,
    added_files_count: addedEntries.length, existing_files_count: existing.length, deleted_files_count: deleted.length,
    added_rows_count: rows(addedEntries), existing_rows_count: rows(existing), deleted_rows_count: rows(deleted),
    partitions: partitionSummaries(design.spec, live),
  }], {
    'snapshot-id': String(snapshotId), 'parent-snapshot-id': a.parent ? String(a.parent['snapshot-id']) : 'null',
    'sequence-number': String(sequence), 'format-version': '2',
  });
  await io.writeBytes(listKey, list);
  const changedPartitions = new Set([...addedEntries, ...deleted].map((e) => JSON.stringify(e.data_file.partition)));
  const operation = deleted.length === 0 ? 'append' : addedEntries.length === 0 ? 'delete' : 'overwrite';
  return {
    'snapshot-id': snapshotId,
    ...(a.parent ? { 'parent-snapshot-id': a.parent['snapshot-id'] } : {}),
    'sequence-number': sequence,
    'timestamp-ms': a.nowMs,
    'manifest-list': io.uri(listKey),
    summary: {
      operation,
      'added-data-files': String(addedEntries.length), 'deleted-data-files': String(deleted.length),
      'added-records': String(rows(addedEntries)), 'deleted-records': String(rows(deleted)),
      'added-files-size': String(bytes(addedEntries)), 'removed-files-size': String(bytes(deleted)),
      'changed-partition-count': String(changedPartitions.size),
      'total-records': String(rows(live)), 'total-files-size': String(bytes(live)), 'total-data-files': String(live.length),
      'total-delete-files': '0', 'total-position-deletes': '0', 'total-equality-deletes': '0',
      [FILES_PROP]: a.print,
    },
    'schema-id': design.schema['schema-id'],
  };
}

/** Previous live files of out-of-scope projects whose partition the manifest does not name. */
function carried(before: readonly ManifestEntry[], files: readonly FileEntry[], outOfScope: (p: string) => boolean) {
  const named = new Set(files.map((e) => JSON.stringify([e.partition.project_id ?? null, e.partition.date ?? null])));
  return before.filter((b) => {
    const p = b.data_file.partition;
    const project = typeof p.project_id === 'string' ? p.project_id : null;
    const date = typeof p.date === 'number' ? new Date(p.date * 86_400_000).toISOString().slice(0, 10) : null;
    return project !== null && outOfScope(project) && !named.has(JSON.stringify([project, date]));
  }).map((b) => ({ e: null, uri: b.data_file.file_path }));
}
