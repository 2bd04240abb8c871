// Validation of each record of a page against the pipeline's zod contract, at fetch time (the
// page is parsed there anyway). A record that fails is a skippable record: it goes to quarantine
// with the reason and the raw JSON (whole up to MAX_RECORD_BYTES: its page lands without it in the
// body, src/sync/land/strip-records.ts, so it is stored once); the page still loads. Fields the contract does not name are
// kept, per record, for the `extra` column. A record nested too deep or too large to handle safely
// is refused here too, so nothing downstream (JSON.stringify, DuckDB) can overflow on it.
import type { ZodError, ZodType } from 'zod';
import { placeholder, quarantinable } from '../../core/quarantine-raw.js';
import type { InvalidRecord } from '../pipeline/landed-page.js';

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
/** Numbers at or beyond ±2^63 do not fit BIGINT (the type of every count column). */
export const MAX_NUMBER = 2 ** 63;

export function validateRecords(schema: ZodType, fields: readonly string[], records: readonly unknown[]): ValidatedRecords {
  const known = new Set(fields);
  const invalid: InvalidRecord[] = [];
  const ok: { raw: unknown; extra: Record<string, unknown> | null }[] = [];
  records.forEach((raw, i) => {
    const refusal = refuseShape(raw);
    if (refusal) {
      // A record refused for its shape is kept by its scalar fields; one refused for a number, whole.
      invalid.push({ i, error: refusal.error, raw: refusal.shape ? placeholder(raw) : quarantinable(raw, MAX_RECORD_BYTES) });
      return;
    }
    const r = schema.safeParse(raw);
    if (!r.success) {
      invalid.push({ i, error: describe(r.error), raw: quarantinable(raw, MAX_RECORD_BYTES) });
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
