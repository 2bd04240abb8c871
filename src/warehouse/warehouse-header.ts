// A look at a warehouse file without opening it in DuckDB (which would take its file lock from a
// sync starting meanwhile): its header and size. A DuckDB file starts with three 4 KiB header blocks
// ("DUCK" at byte 8 of the first) followed by whole 256 KiB blocks. Used by readers before the
// first publish to say "damaged" rather than "no snapshot yet" about a file no sync could open.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

const HEADER_BYTES = 3 * 4096;
const BLOCK_BYTES = 262_144;

/** Why the file cannot be a DuckDB database, or null when it looks like one (or does not exist). */
export function headerProblem(path: string): string | null {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return null;
  }
  if (size < HEADER_BYTES) return `${size} bytes, shorter than a DuckDB header`;
  const buf = Buffer.alloc(12);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, 12, 0);
  } finally {
    closeSync(fd);
  }
  if (buf.subarray(8, 12).toString('latin1') !== 'DUCK') return 'no DuckDB header';
  if ((size - HEADER_BYTES) % BLOCK_BYTES !== 0) return `${size} bytes, not whole blocks (truncated?)`;
  return null;
}
