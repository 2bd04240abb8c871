// Which partitions a run rewrites: a pure decision from the warehouse's signatures, the manifest and
// which files exist. A partition is written when it is new, its signature changed, one of its files
// is missing from disk or has another size than when it was written (truncated, replaced), or the
// run is --full; it is removed when the warehouse no longer has it.
import type { PartitionEntry } from './manifest.js';
import { partitionId } from './lake-layout.js';
import type { PartitionSignature } from './signatures.js';

export type WriteReason = 'new' | 'changed' | 'missing-file' | 'damaged-file' | 'full';

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
  /** Size on disk of a lake file, undefined when there is none. */
  fileSize: (rel: string) => number | undefined;
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
    else reason = fileProblem(prev, a.fileSize);
    if (reason) plan.write.push({ partition: p, reason });
    else plan.keep.push(prev!);
  }
  plan.remove.push(...before.values());
  return plan;
}

function fileProblem(e: PartitionEntry, size: (rel: string) => number | undefined): WriteReason | null {
  if ((e.rows > 0) !== (e.files.conversations !== undefined)) return 'missing-file';
  if ((e.sourceRows > 0) !== (e.files.sources !== undefined)) return 'missing-file';
  for (const table of ['conversations', 'sources'] as const) {
    const rel = e.files[table];
    const problem = rel === undefined ? null : fileCheck(size(rel), e.bytes?.[table]);
    if (problem) return problem;
  }
  return null;
}

/**
 * A file the manifest names, against what is on disk: missing, or of another size than it was
 * written with (truncated, replaced). A manifest written before sizes were recorded vouches for any size.
 */
export function fileCheck(actual: number | undefined, expected: number | undefined): 'missing-file' | 'damaged-file' | null {
  if (actual === undefined) return 'missing-file';
  return expected !== undefined && actual !== expected ? 'damaged-file' : null;
}
