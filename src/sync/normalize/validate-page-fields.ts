// The page-level fields of a page (the envelope besides its records: `totals`, `totalSearches`),
// checked at fetch against the pipeline's page contract and the range the warehouse stores. The
// merge casts them to BIGINT: a value out of range there would fail the whole page's merge, every
// run. Refused here instead, the window ends with one line and nothing is landed; the next run
// reads the window again (the API may have fixed the value by then).
import type { PipelineDefinition } from '../pipeline/definition.js';
import { MAX_NUMBER, MAX_RECORD_DEPTH } from '../pipeline/record-shape.js';
import { describe } from './validate-records.js';

/** Why the page-level fields of this page cannot be stored, or null when they can. */
export function pageFieldsProblem(p: PipelineDefinition, json: unknown): string | null {
  if (!p.page || p.recordsField === null || !json || typeof json !== 'object') return null;
  const fields: Record<string, unknown> = { ...(json as Record<string, unknown>) };
  delete fields[p.recordsField];
  // Numbers first: zod would accept 1e20 as a count, DuckDB's CAST to BIGINT would not.
  const stack: [unknown, number, string][] = Object.entries(fields).map(([k, v]) => [v, 1, k]);
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v === 'number' && !(Math.abs(v) < MAX_NUMBER)) return `${path}: number ${v} is outside the range the warehouse stores (a 64-bit integer)`;
    if (v && typeof v === 'object' && depth < MAX_RECORD_DEPTH) {
      for (const [k, x] of Object.entries(v)) stack.push([x, depth + 1, `${path}.${k}`]);
    }
  }
  const r = p.page.safeParse(fields);
  return r.success ? null : describe(r.error);
}
