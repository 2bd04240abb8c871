// Validation of each record against the zod contract. A record that fails is a skippable record:
// it goes to quarantine with the reason and the raw JSON; the page still loads.
import type { z } from 'zod';
import { conversationTurnSchema } from '../contracts/analytics.js';

export interface QuarantinedRecord {
  error: string;
  raw: unknown;
}

export interface NormalizedPage {
  /** Records that passed, as received (DuckDB parses them; unknown fields are kept for `extra`). */
  valid: unknown[];
  quarantined: QuarantinedRecord[];
}

export function normalizePage(records: readonly unknown[]): NormalizedPage {
  const valid: unknown[] = [];
  const quarantined: QuarantinedRecord[] = [];
  for (const raw of records) {
    const r = conversationTurnSchema.safeParse(raw);
    if (r.success) valid.push(raw);
    else quarantined.push({ error: describe(r.error), raw });
  }
  return { valid, quarantined };
}

/** "query: expected string, received undefined; resolutionStatus: …" */
export function describe(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(record)'}: ${i.message}`)
    .join('; ');
}
