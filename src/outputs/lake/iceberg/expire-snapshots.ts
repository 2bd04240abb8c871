// Snapshot expiry with the read grace period (readGrace, default 24 h): a snapshot stays while a
// reader may still hold it, i.e. until `readGrace` after the commit that replaced it; a metadata
// file likewise until `readGrace` after its successor. The current snapshot never expires. Pure:
// the caller deletes the files that only expired snapshots name, after the new metadata is committed.
import type { Snapshot, TableMetadata } from './table-metadata.js';

export interface Expiry {
  metadata: TableMetadata;
  expiredSnapshots: Snapshot[];
  /** URIs of metadata files dropped from the metadata log. */
  expiredMetadataFiles: string[];
}

export function expire(m: TableMetadata, nowMs: number, graceMs: number): Expiry {
  const log = [...m['snapshot-log']].sort((a, b) => a['timestamp-ms'] - b['timestamp-ms']);
  const replacedAt = new Map<number, number>();
  log.forEach((e, i) => {
    const next = log[i + 1];
    if (next) replacedAt.set(e['snapshot-id'], next['timestamp-ms']);
  });
  const gone = (id: number) => {
    if (id === m['current-snapshot-id']) return false;
    const at = replacedAt.get(id);
    return at === undefined || at + graceMs <= nowMs;
  };
  const expiredSnapshots = m.snapshots.filter((s) => gone(s['snapshot-id']));
  const mlog = m['metadata-log'];
  const keptFiles = mlog.filter((e, i) => (mlog[i + 1]?.['timestamp-ms'] ?? m['last-updated-ms']) + graceMs > nowMs);
  return {
    metadata: {
      ...m,
      snapshots: m.snapshots.filter((s) => !gone(s['snapshot-id'])),
      'snapshot-log': m['snapshot-log'].filter((e) => !gone(e['snapshot-id'])),
      'metadata-log': keptFiles,
    },
    expiredSnapshots,
    expiredMetadataFiles: mlog.filter((e) => !keptFiles.includes(e)).map((e) => e['metadata-file']),
  };
}

/** Whether expiry would drop anything now (then a no-change export still commits, metadata only). */
export function hasExpired(m: TableMetadata, nowMs: number, graceMs: number): boolean {
  const e = expire(m, nowMs, graceMs);
  return e.expiredSnapshots.length > 0 || e.expiredMetadataFiles.length > 0;
}
