// How a bad record is kept for `quarantine`: as received, unless it is huge or hostile in shape;
// then by its scalar fields only (strings cut to 1,000 characters) and `_docs_etl_truncated`, so
// a record is never landed twice whole (once in the body, once among the invalid records) and
// nothing downstream (JSON.stringify, DuckDB) has to hold its structure.

/** A quarantined record larger than this (as JSON text) is kept by its scalar fields only. */
export const MAX_QUARANTINED_RAW_BYTES = 1024 * 1024;

/** The raw record for quarantine (see the header). */
export function quarantinable(raw: unknown, cap = MAX_QUARANTINED_RAW_BYTES): unknown {
  const text = JSON.stringify(raw) ?? 'null';
  return text.length <= cap ? raw : placeholder(raw, text.length);
}

/** A record by its scalar fields only (never the hostile structure). */
export function placeholder(raw: unknown, bytes?: number): unknown {
  const size = bytes === undefined ? {} : { bytes };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { _docs_etl_truncated: true, ...size };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (v === null || typeof v !== 'object') out[k] = typeof v === 'string' ? v.slice(0, 1000) : v;
  return { ...out, _docs_etl_truncated: true, ...size };
}
