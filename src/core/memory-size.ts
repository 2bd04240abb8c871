// DuckDB's memory sizes ("128MB", "1GiB", "1.5 GB"): the one grammar every setting that takes one
// accepts (config memoryLimit, `sync --memory-limit`, `query --memory-limit`) and its byte count.
// Decimal units are powers of 1000, binary ones (KiB…) of 1024, as DuckDB reads them.

/** A memory size: a number and a unit, KB to TB or KiB to TiB, any case. */
export const MEMORY_SIZE = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

const UNITS: Record<string, number> = {
  kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
};

/** The size in bytes, or null when the text is not a memory size. */
export function memorySizeBytes(text: string): number | null {
  const m = MEMORY_SIZE.exec(text.trim());
  return m ? Number(m[1]) * UNITS[m[2]!.toLowerCase()]! : null;
}
