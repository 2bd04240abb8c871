// Which files of one table a run rewrites: a pure decision from the warehouse's signatures, the
// manifest and which objects exist. A file is written when its partition is new, its signature
// changed, its object is missing or has another size than when it was written (truncated,
// replaced), or the run is --full; a manifest entry is dropped when the warehouse no longer has it.
import type { FileEntry } from './manifest.js';
import { fileCheck } from '../../warehouse/partition-files.js';
import { partitionId } from './lake-layout.js';
import type { FileSignature } from './signatures.js';

export type WriteReason = 'new' | 'changed' | 'missing-file' | 'damaged-file' | 'full';

export interface FilePlan {
  write: { partition: FileSignature; reason: WriteReason; previous: FileEntry | null }[];
  /** Unchanged: their manifest entries are carried over as they are. */
  keep: FileEntry[];
  /** In the manifest but gone from the warehouse: their objects are deleted. */
  remove: FileEntry[];
}

export const entryPartition = (e: FileEntry) => ({ projectId: e.partition.project_id ?? null, date: e.partition.date ?? null });

export function planFiles(a: {
  table: string;
  /** Warehouse partitions in scope (--project). */
  current: readonly FileSignature[];
  /** Manifest entries of the table in scope. */
  previous: readonly FileEntry[];
  full: boolean;
  /** Size of a lake object, undefined when there is none. */
  sizeOf: (key: string) => number | undefined;
}): FilePlan {
  const before = new Map(a.previous.map((e) => [partitionId(a.table, entryPartition(e)), e]));
  const plan: FilePlan = { write: [], keep: [], remove: [] };
  for (const p of a.current) {
    const id = partitionId(a.table, p);
    const prev = before.get(id) ?? null;
    before.delete(id);
    let reason: WriteReason | null = null;
    if (a.full) reason = 'full';
    else if (!prev) reason = 'new';
    else if (prev.signature !== p.signature) reason = 'changed';
    else reason = fileCheck(a.sizeOf(prev.key), prev.bytes);
    if (reason) plan.write.push({ partition: p, reason, previous: prev });
    else plan.keep.push(prev!);
  }
  plan.remove.push(...before.values());
  return plan;
}
