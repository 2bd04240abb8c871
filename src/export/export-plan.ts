// Which partitions a run rewrites: a pure decision from the warehouse's signatures, the manifest and
// which files exist. A partition is written when it is new, its signature changed, one of its files
// is missing from disk, or the run is --full; it is removed when the warehouse no longer has it.
import type { PartitionEntry } from './manifest.js';
import { partitionId } from './lake-layout.js';
import type { PartitionSignature } from './signatures.js';

export type WriteReason = 'new' | 'changed' | 'missing-file' | 'full';

export interface PartitionPlan {
  write: { partition: PartitionSignature; reason: WriteReason }[];
  /** Unchanged: their manifest entries are carried over as they are. */
  keep: PartitionEntry[];
  /** In the manifest but gone from the warehouse: their files are deleted. */
  remove: PartitionEntry[];
}

export function planPartitions(a: {
  /** Warehouse partitions in scope (--project). */
  current: readonly PartitionSignature[];
  /** Manifest entries in scope. */
  previous: readonly PartitionEntry[];
  full: boolean;
  fileExists: (rel: string) => boolean;
}): PartitionPlan {
  const before = new Map(a.previous.map((e) => [partitionId(e), e]));
  const plan: PartitionPlan = { write: [], keep: [], remove: [] };
  for (const p of a.current) {
    const prev = before.get(partitionId(p));
    before.delete(partitionId(p));
    let reason: WriteReason | null = null;
    if (a.full) reason = 'full';
    else if (!prev) reason = 'new';
    else if (prev.signature !== p.signature) reason = 'changed';
    else if (!filesPresent(prev, a.fileExists)) reason = 'missing-file';
    if (reason) plan.write.push({ partition: p, reason });
    else plan.keep.push(prev!);
  }
  plan.remove.push(...before.values());
  return plan;
}

function filesPresent(e: PartitionEntry, exists: (rel: string) => boolean): boolean {
  if ((e.rows > 0) !== (e.files.conversations !== undefined)) return false;
  if ((e.sourceRows > 0) !== (e.files.sources !== undefined)) return false;
  return Object.values(e.files).every((f) => f === undefined || exists(f));
}
