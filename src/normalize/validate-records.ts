// Validation of each record of a page against the pipeline's zod contract, at fetch time (the
// page is parsed there anyway). A record that fails is a skippable record: it goes to quarantine
// with the reason and the raw JSON; the page still loads. Fields the contract does not name are
// kept, per record, for the `extra` column. A record nested too deep or too large to handle safely
// is refused here too, so nothing downstream (JSON.stringify, DuckDB) can overflow on it.
import type { ZodError, ZodType } from 'zod';
import type { InvalidRecord } from '../land/landed-page.js';

export interface ValidatedRecords {
  invalid: InvalidRecord[];
  /** Per record the merger reads (`valid` when set, else all): the fields not in the contract, or null. */
  x: (Record<string, unknown> | null)[];
  /** Set only when some record is invalid: the valid ones, in page order. */
  valid?: unknown[];
}

/** Deeper than this, a record is refused (the contract's own records are 3 levels deep). */
export const MAX_RECORD_DEPTH = 32;
/** Larger than this (as JSON text), a record is refused. */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

export function validateRecords(schema: ZodType, fields: readonly string[], records: readonly unknown[]): ValidatedRecords {
  const known = new Set(fields);
  const invalid: InvalidRecord[] = [];
  const ok: { raw: unknown; extra: Record<string, unknown> | null }[] = [];
  records.forEach((raw, i) => {
    const refusal = refuseShape(raw);
    if (refusal) {
      invalid.push({ i, error: refusal, raw: placeholder(raw) });
      return;
    }
    const r = schema.safeParse(raw);
    if (!r.success) {
      invalid.push({ i, error: describe(r.error), raw });
      return;
    }
    let extra: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(raw as object)) {
      if (!known.has(k)) (extra ??= {})[k] = v;
    }
    ok.push({ raw, extra });
  });
  const x = ok.map((r) => r.extra);
  if (invalid.length === 0) return { invalid, x };
  return { invalid, x, valid: ok.map((r) => r.raw) };
}

/** "query: expected string, received undefined; resolutionStatus: …" */
export function describe(err: ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(record)'}: ${i.message}`)
    .join('; ');
}

/** Depth and size are checked without recursion (a hostile record may be nested thousands deep). */
function refuseShape(raw: unknown): string | null {
  let bytes = 0;
  const stack: [unknown, number][] = [[raw, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > MAX_RECORD_DEPTH) return `record nested deeper than ${MAX_RECORD_DEPTH} levels`;
    if (typeof v === 'string') bytes += v.length;
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        bytes += k.length + 8;
        stack.push([x, depth + 1]);
      }
    } else bytes += 8;
    if (bytes > MAX_RECORD_BYTES) return `record larger than ${MAX_RECORD_BYTES / 1024 / 1024} MiB`;
  }
  return null;
}

/** A refused record is kept in quarantine by its scalar fields only (never the hostile structure). */
function placeholder(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (v === null || typeof v !== 'object') out[k] = typeof v === 'string' ? v.slice(0, 1000) : v;
  return { ...out, _docs_etl_truncated: true };
}
