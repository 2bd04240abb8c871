// The shape of a record the warehouse can store: nested at most MAX_RECORD_DEPTH deep, at most
// MAX_RECORD_BYTES as JSON text, every number within BIGINT. Checked at fetch (normalize, per
// record) and again by the merge's rescue for pages an older version landed (load): a shared rule
// of both stages, so it lives here, below them (docs/design.md, the layers).

/** Deeper than this, a record is refused (the contract's own records are 3 levels deep). */
export const MAX_RECORD_DEPTH = 32;
/** Larger than this (as JSON text), a record is refused. */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;
/** Numbers at or beyond ±2^63 do not fit BIGINT (the type of every count column). */
export const MAX_NUMBER = 2 ** 63;

/** Depth and size are checked without recursion (a hostile record may be nested thousands deep). */
export function refuseShape(raw: unknown): { error: string; shape: boolean } | null {
  let bytes = 0;
  const stack: [unknown, number, string][] = [[raw, 1, '']];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (depth > MAX_RECORD_DEPTH) return { error: `record nested deeper than ${MAX_RECORD_DEPTH} levels`, shape: true };
    if (typeof v === 'string') bytes += v.length;
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        bytes += k.length + 8;
        stack.push([x, depth + 1, path ? `${path}.${k}` : k]);
      }
    } else bytes += 8;
    // The warehouse stores numbers as BIGINT (counts) or DOUBLE: one DuckDB cannot cast would
    // fail the whole page's merge, so the record is refused here.
    if (typeof v === 'number' && !(Math.abs(v) < MAX_NUMBER)) return { error: `${path || '(record)'}: number ${v} is outside the range the warehouse stores (a 64-bit integer)`, shape: false };
    if (bytes > MAX_RECORD_BYTES) return { error: `record larger than ${MAX_RECORD_BYTES / 1024 / 1024} MiB`, shape: true };
  }
  return null;
}
