// Validation of each record against the zod contract. A record that fails is a skippable record:
// it goes to quarantine with the reason and the raw JSON; the page still loads.
import type { z } from 'zod';
import { KNOWN_TURN_FIELDS, conversationTurnSchema, normalizeOffset } from '../contracts/analytics.js';

export interface QuarantinedRecord {
  error: string;
  raw: unknown;
}

export interface NormalizedPage {
  /** Records that passed, as received (DuckDB parses them; unknown fields are kept for `extra`). */
  valid: unknown[];
  quarantined: QuarantinedRecord[];
  /** Indexes in `valid` of the records that carry fields the contract does not name (for `extra`). */
  extraAt: number[];
  /** False when two valid records may be the same turn (same id, same instant to the millisecond). */
  distinct: boolean;
}

const KNOWN = new Set<string>(KNOWN_TURN_FIELDS);

export function normalizePage(records: readonly unknown[]): NormalizedPage {
  const valid: unknown[] = [];
  const quarantined: QuarantinedRecord[] = [];
  const extraAt: number[] = [];
  const seen = new Set<string>();
  let distinct = true;
  for (const raw of records) {
    const r = conversationTurnSchema.safeParse(raw);
    if (!r.success) {
      quarantined.push({ error: describe(r.error), raw });
      continue;
    }
    if (Object.keys(raw as object).some((k) => !KNOWN.has(k))) extraAt.push(valid.length);
    valid.push(raw);
    // The warehouse key is (id, instant); equal instants are equal to the millisecond, so a page
    // without a repeated (id, millisecond) cannot hold a turn twice.
    const key = `${r.data.id}\u0000${Date.parse(normalizeOffset(r.data.timestamp))}`;
    if (seen.has(key)) distinct = false;
    else seen.add(key);
  }
  return { valid, quarantined, extraAt, distinct };
}

/** "query: expected string, received undefined; resolutionStatus: …" */
export function describe(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(record)'}: ${i.message}`)
    .join('; ');
}
