// The largest page the merge can load at DuckDB's memory limit, and the page cap that follows.
// A landed page is read as one JSON object: DuckDB's JSON buffer (maximum_object_size) is sized
// to the largest landed file of a batch, rounded up to a power of two (merge-batch.ts), and DuckDB
// allocates about twice it. A page larger than the buffer that fits the memory limit would land
// and then fail its merge on every run, whichever records it holds (each alone merges): a stream
// blocked for good. So the page cap of a sync is the smaller of DOCS_ETL_MAX_PAGE_BYTES and this
// bound, with a quarter of margin for what the landed file adds to the body (metadata, extras):
//   memory_limit 128MB (default): buffer 32 MiB, page cap 24 MiB;  1GB: 256 MiB buffer, 192 MiB
//   (then DOCS_ETL_MAX_PAGE_BYTES, 64 MiB by default, is the smaller).
// A larger page stops its stream at its checkpoint with one line naming both settings; records
// over 4 MiB are refused at fetch anyway (pipeline/record-shape.ts) and never size the buffer.
import { memorySizeBytes } from '../../core/memory-size.js';

/** The largest JSON buffer the merge can allocate at this memory limit (a power of two), or null. */
export function mergeBufferBytes(memoryLimit: string): number | null {
  const bytes = memorySizeBytes(memoryLimit);
  if (bytes === null || bytes < 2 * 2 ** 20) return null;
  return 2 ** Math.floor(Math.log2(bytes / 2));
}

export interface PageCap {
  bytes: number;
  /** What sets it, for the message of a page over it. */
  name: string;
}

/** The page cap of a sync: DOCS_ETL_MAX_PAGE_BYTES, or less where the memory limit requires it. */
export function pageCapFor(maxPageBytes: number, memoryLimit: string): PageCap {
  const buffer = mergeBufferBytes(memoryLimit);
  const mergeable = buffer === null ? Infinity : Math.floor(buffer * 0.75);
  return mergeable < maxPageBytes
    ? { bytes: mergeable, name: `what the merge loads at --memory-limit ${memoryLimit}; raise --memory-limit for larger pages` }
    : { bytes: maxPageBytes, name: 'DOCS_ETL_MAX_PAGE_BYTES' };
}
