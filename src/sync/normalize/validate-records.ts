// Validation of each record of a page against the pipeline's zod contract, at fetch time (the
// page is parsed there anyway). A record that fails is a skippable record: it goes to quarantine
// with the reason and the raw JSON (whole up to MAX_RECORD_BYTES: its page lands without it in the
// body, src/sync/land/strip-records.ts, so it is stored once); the page still loads. Fields the contract does not name are
// kept, per record, for the `extra` column. A record nested too deep or too large to handle safely
// is refused here too (src/sync/pipeline/record-shape.ts), so nothing downstream (JSON.stringify,
// DuckDB) can overflow on it.
import type { ZodError, ZodType } from 'zod';
import { placeholder, quarantinable } from '../../core/quarantine-raw.js';
import type { InvalidRecord } from '../pipeline/landed-page.js';
import { MAX_RECORD_BYTES, refuseShape } from '../pipeline/record-shape.js';

export interface ValidatedRecords {
  invalid: InvalidRecord[];
  /** Per record the merger reads (`valid` when set, else all): the fields not in the contract, or null. */
  x: (Record<string, unknown> | null)[];
  /** Set only when some record is invalid: the valid ones, in page order. */
  valid?: unknown[];
}

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
